import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { apiRoutes } from './api-routes-plugin';

// `npm run dev -w @gantry/web` serves the app with hot reload and sends API calls to a
// `gantry serve` on port 3000; in production the server serves the built files itself.
export default defineConfig({
  plugins: [react(), apiRoutes()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: Object.fromEntries(['/api', '/oauth', '/.well-known'].map((path) => [path, 'http://127.0.0.1:3000'])),
  },
});
