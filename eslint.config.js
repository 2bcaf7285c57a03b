// Lint rules that keep the architecture honest: each layer may import only what the
// architecture allows (docs/architecture.md), and files are kebab-case.
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

const adapters = ['http', 'cli', 'mcp', 'oauth', 'webhooks'];
const adapterRule = (self) =>
  restrict(
    adapters
      .filter((other) => other !== self)
      .map((other) => ({ group: [`../${other}/*`, `../../${other}/*`, `../${other}`, `../../${other}`], message: `adapters never import each other (${self} → ${other}); share through domain/` })),
  );

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
    files: ['packages/*/src/**/*.ts'],
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
    files: ['packages/server/src/domain/**/*.ts'],
    rules: restrict([
      { group: ['fastify', 'kysely', 'better-sqlite3', 'pg', 'undici', 'nodemailer'], message: 'domain/ is framework- and driver-free; use the store interface' },
      { group: ['**/http/*', '**/cli/*', '**/mcp/*', '**/oauth/*', '**/webhooks/*'], message: 'domain/ never imports adapters' },
      { group: ['**/store/*', '!**/store/store.js'], message: 'domain/ uses only the store interface (store/store.ts)' },
    ]),
  },
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
  {
    files: ['packages/server/src/http/**/*.ts', 'packages/server/src/cli/**/*.ts'],
    ignores: ['packages/server/src/cli/gantry.ts'],
    rules: restrict([
      { regex: '^(\\.\\./)+(mcp|oauth|webhooks)/', message: 'adapters never import each other; share through domain/' },
      { group: ['**/store/queries/*', '**/store/dialects/*', 'kysely', 'better-sqlite3', 'pg'], message: 'adapters reach the store through domain/ (or the Store interface)' },
    ]),
  },
);
