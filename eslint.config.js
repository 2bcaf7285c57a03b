// Lint rules that keep the architecture honest: each layer may import only what the
// architecture allows (docs/architecture.md), and files are kebab-case.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

const adapters = ['http', 'cli', 'mcp', 'oauth', 'webhooks', 'web-app'];
const adapterRule = (self) =>
  restrict(
    adapters
      .filter((other) => other !== self)
      .map((other) => ({ group: [`../${other}/*`, `../../${other}/*`, `../${other}`, `../../${other}`], message: `adapters never import each other (${self} → ${other}); share through domain/` })),
  );

/** What http/ and cli/ may not import: other adapters, and the store's insides. */
const sharedAdapterRules = (self) => [
  { regex: `^(\\.\\./)+(${adapters.filter((other) => other !== self).join('|')})/`, message: 'adapters never import each other; share through domain/' },
  { group: ['**/store/queries/*', '**/store/dialects/*', 'kysely', 'better-sqlite3', 'pg'], message: 'adapters reach the store through domain/ (or the Store interface)' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "Program > :not(ImportDeclaration) ~ ImportDeclaration", message: 'imports go at the top' },
      ],
    },
  },
  {
    files: ['packages/engine/src/**/*.ts'],
    rules: restrict([
      { regex: '^(?!\\.{1,2}/)', message: 'the engine has no runtime dependencies: relative imports only' },
    ]),
  },
  {
    files: ['packages/contract/src/**/*.ts'],
    rules: restrict([
      { regex: '^(?!\\.{1,2}/|zod$)', message: 'the contract imports only zod' },
    ]),
  },
  {
    // The rules of hooks, and effects that name what they read (the React Compiler's checks stay off: the app is not compiled by it).
    files: ['packages/web/src/**/*.tsx', 'packages/web/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // The web app runs in the browser: it shares the API's types (contract) and runs the pure
    // engine for drag previews; never the server's code.
    files: ['packages/web/src/**/*.{ts,tsx}'],
    rules: restrict([
      { group: ['@gantry/server', '@gantry/server/*', '**/server/src/*', 'node:*'], message: 'the web app reaches the server through the REST API only (@gantry/contract for its types, @gantry/engine for previews)' },
    ]),
  },
  // domain/ has a webhooks/ folder of its own, so adapters are told apart by depth.
  ...[
    ['packages/server/src/domain/*.ts', '\\.\\./'],
    ['packages/server/src/domain/*/**/*.ts', '\\.\\./\\.\\./'],
  ].map(([files, up]) => ({
    files: [files],
    rules: restrict([
      { group: ['fastify', 'kysely', 'better-sqlite3', 'pg', 'undici', 'nodemailer'], message: 'domain/ is framework- and driver-free; use the store interface' },
      { regex: `^${up}(http|cli|mcp|oauth|webhooks|web-app)(/|$)`, message: 'domain/ never imports adapters' },
      { group: ['**/store/*', '!**/store/store.js'], message: 'domain/ uses only the store interface (store/store.ts)' },
    ]),
  })),
  {
    files: ['packages/server/src/store/**/*.ts'],
    rules: restrict([
      { group: ['**/domain/*', '**/http/*', '**/cli/*', '**/mcp/*', '**/oauth/*', '**/webhooks/*'], message: 'store/ knows only its own tables' },
    ]),
  },
  ...adapters.map((adapter) => ({
    files: [`packages/server/src/${adapter}/**/*.ts`],
    rules: adapterRule(adapter),
  })),
  // The last matching block sets the rule for a file, so the http block repeats the shared ones.
  {
    files: ['packages/server/src/cli/**/*.ts'],
    ignores: ['packages/server/src/cli/gantry.ts'],
    rules: restrict(sharedAdapterRules('cli')),
  },
  {
    files: ['packages/server/src/http/**/*.ts'],
    rules: restrict([
      ...sharedAdapterRules('http'),
      {
        // Besides the caches, the file decoder: an XML body is decoded as its own bytes say before any operation reads it.
        group: ['**/domain/*/*', '!**/domain/planning/plan-cache.js', '!**/domain/projects/read-cache.js', '!**/domain/exchange/off-thread.js', '**/domain/accounts.js', '**/domain/members.js', '**/domain/users.js', '**/domain/workspaces.js'],
        message: 'http/ runs domain functions through the operation table (domain/operations.ts, perform): called directly they would skip its scope and input checks',
      },
    ]),
  },
);
