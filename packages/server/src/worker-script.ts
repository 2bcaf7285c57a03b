import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The URL of a worker thread's script `name` (a `.js` file) beside the module at
 * `moduleUrl`. Built, it sits beside the module; run from the TypeScript sources (the
 * tests), it is the build's copy, as a worker thread loads plain JavaScript only (`npm
 * test` builds first).
 */
export function workerScriptUrl(moduleUrl: string, name: string): URL {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith('.js')) return new URL(`./${name}`, moduleUrl);
  const built = here.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2').replace(/[^\\/]+\.ts$/, name);
  return pathToFileURL(built);
}
