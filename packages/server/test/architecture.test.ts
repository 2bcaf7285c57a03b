import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

async function restrictedImports(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

// docs/architecture.md "What may import what": the boundaries are lint rules, checked here
// so that a rule that silently stops matching is noticed.
describe('import boundaries', () => {
  it.each([
    ['packages/engine/src/probe.ts', "import fs from 'node:fs';\nexport const x = fs;\n"],
    ['packages/engine/src/probe.ts', "import { routes } from '@gantry/contract';\nexport const x = routes;\n"],
    ['packages/contract/src/probe.ts', "import Fastify from 'fastify';\nexport const x = Fastify;\n"],
    ['packages/server/src/domain/probe.ts', "import Fastify from 'fastify';\nexport const x = Fastify;\n"],
    ['packages/server/src/domain/probe.ts', "import { openStore } from '../store/open-store.js';\nexport const x = openStore;\n"],
    ['packages/server/src/domain/probe.ts', "import { buildApp } from '../http/app.js';\nexport const x = buildApp;\n"],
    ['packages/server/src/http/probe.ts', "import { WebhookWorker } from '../webhooks/delivery-worker.js';\nexport const x = WebhookWorker;\n"],
    ['packages/server/src/http/probe.ts', "import { Kysely } from 'kysely';\nexport const x = Kysely;\n"],
    ['packages/server/src/store/probe.ts', "import { AppError } from '../domain/errors.js';\nexport const x = AppError;\n"],
    ['packages/server/src/domain/planning/probe.ts', "import { WebhookWorker } from '../../webhooks/delivery-worker.js';\nexport const x = WebhookWorker;\n"],
    ['packages/server/src/http/probe.ts', "import { createProject } from '../domain/projects/projects.js';\nexport const x = createProject;\n"],
    ['packages/server/src/http/probe.ts', "import { listWorkspaces } from '../domain/workspaces.js';\nexport const x = listWorkspaces;\n"],
  ])('%s refuses: %s', async (file, source) => {
    expect(await restrictedImports(file, source)).not.toEqual([]);
  });

  it.each([
    ['packages/server/src/domain/probe.ts', "import type { Store } from '../store/store.js';\nimport { routes } from '@gantry/contract';\nexport type X = Store;\nexport const y = routes;\n"],
    ['packages/server/src/http/probe.ts', "import { operations } from '../domain/operations.js';\nimport { perform } from '../domain/operation.js';\nexport const x = [operations, perform];\n"],
    ['packages/server/src/domain/planning/probe.ts', "import { pingWebhook } from '../webhooks/deliveries.js';\nexport const x = pingWebhook;\n"],
    ['packages/server/src/webhooks/probe.ts', "import { dispatchEvents } from '../domain/webhooks/deliveries.js';\nexport const x = dispatchEvents;\n"],
  ])('%s allows: %s', async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  });
});

// A user's clone has no folder beside it: nothing tracked may point at the team's reference
// folder next to the checkout. The folder's name is kept apart from the paths below so
// that this file does not match its own pattern.
describe('self-contained repository', () => {
  const outside = 'shared';
  const reference = new RegExp(`\\.\\./${outside}\\b|\\b${outside}/(fixtures|design|spec|hooks)\\b`);

  it('no tracked file refers to the folder beside the checkout', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter((file) => file !== '' && file !== 'package-lock.json');
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (reference.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offending).toEqual([]);
  });
});
