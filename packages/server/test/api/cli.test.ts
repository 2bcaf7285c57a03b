import { User, Workspace } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, runGantry, startGantry } from '../support/processes.js';
import { createTestStoreEnv } from '../support/test-store.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

// README › Command line: the `gantry` bin works on the same store as the server,
// prints JSON with --json, and exits non-zero with a clear message on bad input (usage
// problems: exit 2).
describe('gantry CLI', () => {
  let server: TestServer;

  beforeAll(async () => {
    // Not an assertion: CI (.ci/node24) reads this line to know which Node the spawned CLI ran on.
    console.info(`gantry CLI tests run Node ${process.version} (${process.execPath})`);
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('user create', () => {
    it('creates a user and prints {"user": User} with --json; the API then knows the user', async () => {
      const created = await server.cli('user', 'create', '--email', 'Ada@Example.com', '--name', 'Ada Lovelace', '--json');
      expect(created.code, created.stderr).toBe(0);
      expect(Object.keys(created.json ?? {})).toEqual(['user']);
      const user = User.parse((created.json as { user: unknown }).user);
      expect(user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace', emailVerified: true });

      const key = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--json');
      const me = await server.request<{ user: { id: string } }>('GET', '/api/auth/me', { key: (key.json as { key: string }).key });
      expect(me.body.user).toEqual(user);
    });

    it('refuses a duplicate e-mail (any case) with a non-zero exit and a clear message', async () => {
      const duplicate = await server.cli('user', 'create', '--email', 'ADA@example.com');
      expect(duplicate.code).not.toBe(0);
      expect(duplicate.stderr).toMatch(/ada@example\.com/i);
      expect(duplicate.stderr).toMatch(/already/i);
      expect(duplicate.stdout).toBe('');
      // With --json the error is JSON on stderr.
      const asJson = await server.cli('user', 'create', '--email', 'ada@example.com', '--json');
      expect(asJson.code).not.toBe(0);
      expect(JSON.parse(asJson.stderr)).toMatchObject({ error: 'conflict' });
    });

    it('refuses an invalid e-mail and a short password with exit 2', async () => {
      const badEmail = await server.cli('user', 'create', '--email', 'not-an-email');
      expect(badEmail.code).toBe(2);
      expect(badEmail.stderr).toMatch(/email/);
      const shortPassword = await server.cli('user', 'create', '--email', 'pw@example.com', '--password', 'short');
      expect(shortPassword.code).toBe(2);
      expect(shortPassword.stderr).toMatch(/password/);
    });
  });

  describe('key create / key revoke', () => {
    it('creates a key and prints {"key": "gnt_…", "apiKey": {"id": …}}', async () => {
      const created = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'write', '--name', 'ci', '--json');
      expect(created.code, created.stderr).toBe(0);
      const { key, apiKey } = created.json as { key: string; apiKey: { id: string; scope: string; name: string } };
      expect(key).toMatch(/^gnt_[A-Za-z0-9_-]{43}$/);
      expect(apiKey).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), scope: 'write', name: 'ci' });
      expect(JSON.stringify(apiKey)).not.toContain(key.slice(4));
      const project = await server.request('POST', '/api/projects', { key, body: { name: 'From the CLI key' } });
      expect(project.status).toBe(201);
    });

    it('prints the key on its own first line without --json', async () => {
      const created = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read');
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout.split('\n')[0]).toMatch(/^gnt_[A-Za-z0-9_-]{43}$/);
    });

    it('refuses a bad --scope with exit 2, naming the allowed values', async () => {
      const bad = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'admin');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--scope/);
      expect(bad.stderr).toMatch(/read/);
      expect(bad.stdout).toBe('');
    });

    it('refuses a missing required option with exit 2, naming the option', async () => {
      const [noScope, noEmail, emptyEmail] = await Promise.all([
        server.cli('key', 'create', '--email', 'ada@example.com'),
        server.cli('key', 'create', '--scope', 'read'),
        server.cli('user', 'create', '--email', ''),
      ]);
      expect(noScope.code).toBe(2);
      expect(noScope.stderr).toMatch(/--scope/);
      expect(noEmail.code).toBe(2);
      expect(noEmail.stderr).toMatch(/--email/);
      expect(emptyEmail.code).toBe(2);
      expect(emptyEmail.stderr).toMatch(/--email/);
    });

    it('refuses an unknown option and an invalid --expires with exit 2', async () => {
      const [unknownOption, badExpiry] = await Promise.all([
        server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--colour', 'red'),
        server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--expires', 'next tuesday'),
      ]);
      expect(unknownOption.code).toBe(2);
      expect(unknownOption.stderr).toMatch(/colour/);
      expect(badExpiry.code).toBe(2);
      expect(badExpiry.stderr).toMatch(/expires/);
    });

    it('exits non-zero for a key of an unknown user', async () => {
      const unknown = await server.cli('key', 'create', '--email', 'nobody@example.com', '--scope', 'read');
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toMatch(/nobody@example\.com/);
    });

    it('revokes a key (exit 0) and exits non-zero with a clear message for an unknown id', async () => {
      const created = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--json');
      const { key, apiKey } = created.json as { key: string; apiKey: { id: string } };
      const revoked = await server.cli('key', 'revoke', '--id', apiKey.id, '--json');
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.json).toMatchObject({ apiKey: { id: apiKey.id, revoked: true } });
      expect((await server.request('GET', '/api/auth/me', { key })).status).toBe(401);

      // A malformed id is just as unknown: a clear "not found", not a database error.
      const [unknownId, malformedId] = await Promise.all([
        server.cli('key', 'revoke', '--id', '00000000-0000-4000-8000-000000000000'),
        server.cli('key', 'revoke', '--id', 'not-a-key-id'),
      ]);
      expect(unknownId.code).not.toBe(0);
      expect(unknownId.stderr).toMatch(/not found/i);
      expect(malformedId.code).not.toBe(0);
      expect(malformedId.stderr).toMatch(/not found/i);
    });
  });

  describe('commands and usage', () => {
    it('refuses an unknown command with exit 2 and prints the usage', async () => {
      const argLists = [['frobnicate'], ['user', 'delete', '--email', 'ada@example.com'], ['key']];
      const results = await Promise.all(argLists.map((args) => server.cli(...args)));
      results.forEach((unknown, i) => {
        expect(unknown.code, argLists[i]?.join(' ')).toBe(2);
        expect(unknown.stderr).toMatch(/unknown command/);
        expect(unknown.stderr).toMatch(/Usage: gantry/);
      });
    });

    it('prints the usage with --help, -h and help (exit 0) and without a command (exit 2)', async () => {
      const [none, ...helps] = await Promise.all([server.cli(), server.cli('--help'), server.cli('-h'), server.cli('help')]);
      for (const help of helps) {
        expect(help.code, help.stderr).toBe(0);
        expect(help.stdout).toMatch(/^Usage: gantry <command>/);
        expect(help.stdout).toMatch(/serve .*\n(.*\n)*  key create .*\n +--email EMAIL --scope read\|write/);
      }
      expect(none.code).toBe(2);
      expect(none.stdout).toMatch(/^Usage: gantry <command>/);
    });

    it("prints a command's usage, its options explained, with <command> --help or help <command> (exit 0)", async () => {
      const [mailList, helpKeyCreate, serve, user, unknown] = await Promise.all([
        server.cli('mail', 'list', '--help'),
        server.cli('help', 'key', 'create'),
        server.cli('serve', '--help'),
        server.cli('user', '-h'),
        server.cli('frobnicate', '--help'),
      ]);
      for (const help of [mailList, helpKeyCreate, serve, user]) expect(help.code, help.stderr).toBe(0);
      expect(mailList.stdout).toMatch(/^Usage: gantry mail list \[--pending\] \[--limit LIMIT\] \[--json\]\n/);
      expect(mailList.stdout).toMatch(/\n  --pending +only messages not sent yet\n  --limit LIMIT +the newest this many/);
      expect(mailList.stdout).not.toContain('key create');
      expect(helpKeyCreate.stdout).toMatch(/^Usage: gantry key create --email EMAIL --scope read\|write\|service:read\|service:write /);
      expect(helpKeyCreate.stdout).toMatch(/\n  --expires EXPIRES +expiry, ISO 8601/);
      expect(serve.stdout).toMatch(/^Usage: gantry serve \[--json\]\n\nstart the HTTP API/);
      expect(user.stdout).toMatch(/^Usage: gantry user create /);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/unknown command: frobnicate/);
    });
  });

  describe('workspaces and members', () => {
    it('creates a workspace and prints {"workspace": Workspace}; the owner sees it through the API', async () => {
      const created = await server.cli('workspace', 'create', '--email', 'ada@example.com', '--name', 'Analytical Engines', '--json');
      expect(created.code, created.stderr).toBe(0);
      expect(Object.keys(created.json ?? {})).toEqual(['workspace']);
      const workspace = Workspace.parse((created.json as { workspace: unknown }).workspace);
      expect(workspace).toMatchObject({ name: 'Analytical Engines', role: 'owner', personal: false });

      const key = await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--json');
      const list = await server.request<{ workspaces: unknown[] }>('GET', '/api/workspaces', { key: (key.json as { key: string }).key });
      expect(list.body.workspaces).toContainEqual(workspace);

      const unknownOwner = await server.cli('workspace', 'create', '--email', 'nobody@example.com', '--name', 'X');
      expect(unknownOwner.code).not.toBe(0);
      const emptyName = await server.cli('workspace', 'create', '--email', 'ada@example.com', '--name', '   ');
      expect(emptyName.code).toBe(2);
    });

    it('refuses bad roles for workspace add-member and project add-member with exit 2', async () => {
      const workspace = await server.cli('workspace', 'create', '--email', 'ada@example.com', '--name', 'Roles', '--json');
      const workspaceId = (workspace.json as { workspace: { id: string } }).workspace.id;
      expect((await server.cli('user', 'create', '--email', 'bob@example.com')).code).toBe(0);

      const badWorkspaceRoles = ['owner', 'viewer', 'god'];
      const badWorkspaceResults = await Promise.all(
        badWorkspaceRoles.map((role) => server.cli('workspace', 'add-member', '--workspace', workspaceId, '--email', 'bob@example.com', '--role', role)),
      );
      badWorkspaceResults.forEach((bad, i) => {
        expect(bad.code, badWorkspaceRoles[i]).toBe(2);
        expect(bad.stderr).toMatch(/--role/);
      });
      const good = await server.cli('workspace', 'add-member', '--workspace', workspaceId, '--email', 'bob@example.com', '--role', 'member', '--json');
      expect(good.code, good.stderr).toBe(0);

      const key = (await server.cli('key', 'create', '--email', 'ada@example.com', '--scope', 'write', '--json')).json as { key: string };
      const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: key.key, body: { name: 'Roles project' } });
      const badProjectRoles = ['admin', 'member', 'boss'];
      const badProjectResults = await Promise.all(
        badProjectRoles.map((role) => server.cli('project', 'add-member', '--project', project.body.project.id, '--email', 'bob@example.com', '--role', role)),
      );
      badProjectResults.forEach((bad, i) => {
        expect(bad.code, badProjectRoles[i]).toBe(2);
        expect(bad.stderr).toMatch(/--role/);
      });
      const ok = await server.cli('project', 'add-member', '--project', project.body.project.id, '--email', 'bob@example.com', '--role', 'viewer');
      expect(ok.code, ok.stderr).toBe(0);
      const missingProject = await server.cli('project', 'add-member', '--project', '00000000-0000-4000-8000-000000000000', '--email', 'bob@example.com', '--role', 'viewer');
      expect(missingProject.code).not.toBe(0);
      expect(missingProject.stderr).toMatch(/not found/i);
    });
  });

  describe('migrate', () => {
    it('reports {"applied": [], "recomputedProjects": 0} on an up-to-date store', async () => {
      const migrated = await server.cli('migrate', '--json');
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.json).toEqual({ applied: [], recomputedProjects: 0 });
    });

    it('applies the migrations of a fresh store and names them, then reports nothing to do', async () => {
      const fresh = await createTestStoreEnv();
      try {
        const env = { ...fresh.env, LOG_LEVEL: 'silent' };
        const first = await runGantry(['migrate', '--json'], env);
        const applied = (JSON.parse(first.stdout) as { applied: string[] }).applied;
        expect(applied.length).toBeGreaterThan(0);
        for (const name of applied) expect(name).toBeTypeOf('string');
        const second = await runGantry(['migrate', '--json'], env);
        expect(JSON.parse(second.stdout)).toEqual({ applied: [], recomputedProjects: 0 });
      } finally {
        await fresh.drop();
      }
    });

    it('refuses options it does not take with exit 2; with --json the refusal is JSON too', async () => {
      const bogus = await server.cli('migrate', '--bogus');
      expect(bogus.code).toBe(2);
      expect(bogus.stderr).toMatch(/bogus/);
      const missing = await server.cli('user', 'create', '--json');
      expect(missing.code).toBe(2);
      expect(JSON.parse(missing.stderr)).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/--email/) });
    });
  });

  describe('mail list', () => {
    it('shows the newest messages, oldest first, and refuses a --limit that is not a whole number from 1 to 10,000', async () => {
      for (const name of ['first', 'second', 'third']) {
        expect((await server.request('POST', '/api/auth/signup', { body: { email: `${name}@example.com`, password: 'correct horse battery' } })).status).toBe(202);
      }
      const listed = await server.cli('mail', 'list', '--limit', '2', '--json');
      expect(listed.code, listed.stderr).toBe(0);
      expect((listed.json as { mail: { to: string }[] }).mail.map((m) => m.to)).toEqual(['second@example.com', 'third@example.com']);
      for (const limit of ['0', 'abc', '1e1', '0x2', '10001', '100000000000000000000']) {
        const refused = await server.cli('mail', 'list', '--limit', limit);
        expect(refused.code, limit).toBe(2);
        expect(refused.stderr, limit).toMatch(/--limit/);
      }
    });

    it('shows each message\'s links without --json: a self-hoster without SMTP verifies, resets and joins with them', async () => {
      expect((await server.request('POST', '/api/auth/signup', { body: { email: 'linked@example.com', password: 'correct horse battery' } })).status).toBe(202);
      const listed = await server.cli('mail', 'list');
      expect(listed.code, listed.stderr).toBe(0);
      const lines = listed.stdout.split('\n');
      const heading = lines.findIndex((line) => line.includes('linked@example.com'));
      expect(heading, listed.stdout).toBeGreaterThanOrEqual(0);
      expect(lines[heading + 1]).toMatch(new RegExp(`^ +${server.config.baseUrl}/verify-email\\?token=[\\w-]{43}$`));
    });
  });

  describe('more refusals', () => {
    it('refuses names and e-mail addresses longer than the API takes, with exit 2 (nothing created)', async () => {
      const long = 'x'.repeat(201);
      const refusals = [
        ['user', 'create', '--email', 'long@example.com', '--name', long],
        ['user', 'create', '--email', `${'a'.repeat(250)}@example.com`],
        ['key', 'create', '--email', 'ada@example.com', '--scope', 'read', '--name', long],
        ['workspace', 'create', '--email', 'ada@example.com', '--name', long],
      ];
      for (const args of refusals) {
        const refused = await server.cli(...args);
        expect(refused.code, args.join(' ')).toBe(2);
        expect(refused.stderr, args.join(' ')).toMatch(/at most/);
      }
      expect((await server.cli('key', 'create', '--email', 'long@example.com', '--scope', 'read')).code).toBe(1);
    });

    it('refuses an expiry in the past (the key would never work) with exit 2', async () => {
      await server.cli('user', 'create', '--email', 'late@example.com');
      const past = await server.cli('key', 'create', '--email', 'late@example.com', '--scope', 'read', '--expires', '2000-01-01');
      expect(past.code).toBe(2);
      expect(past.stderr).toMatch(/future/);
    });

    it("keeps a workspace's owner: demoting them is refused (exit 1)", async () => {
      await server.cli('user', 'create', '--email', 'keeper@example.com');
      const created = await server.cli('workspace', 'create', '--email', 'keeper@example.com', '--name', 'Kept', '--json');
      const workspaceId = (created.json as { workspace: { id: string } }).workspace.id;
      const demoted = await server.cli('workspace', 'add-member', '--workspace', workspaceId, '--email', 'keeper@example.com', '--role', 'member');
      expect(demoted.code).toBe(1);
      expect(demoted.stderr).toMatch(/keeps its owner/);
    });

    it('shows boolean options without a value in the usage', async () => {
      const help = await server.cli('help');
      expect(help.stdout).toContain('[--pending]');
      expect(help.stdout).not.toContain('--pending PENDING');
    });
  });

  describe('serve', () => {
    const serveEnv = (extra: Record<string, string>) => ({ ...server.storeEnv.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...extra });

    it('exits 1 with the reason when it cannot listen (the port is taken)', async () => {
      const port = new URL(server.url).port;
      const failed = await runGantry(['serve'], serveEnv({ PORT: port }));
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/EADDRINUSE/);
    });

    it('exits 1 with the reason when REDIS_URL names a Redis it cannot reach', async () => {
      // Port 1 on loopback: nothing listens there, so the connection is refused at once.
      const failed = await runGantry(['serve'], serveEnv({ PORT: '0', REDIS_URL: 'redis://127.0.0.1:1' }));
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/REDIS_URL: could not connect to Redis/);
    });

    it('with PORT=0 and no BASE_URL, names the port it actually listens on in its links; SIGTERM stops it (exit 0)', async () => {
      const serve = startGantry('serve', serveEnv({ PORT: '0' }));
      const { child } = serve;
      const exit = exited(child);
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout?.on('data', () => {
          const serving = serve.stdout().split('\n').find((line) => line.includes('Gantry is ready at'));
          if (serving) resolve((JSON.parse(serving) as { baseUrl: string }).baseUrl);
        });
        child.once('exit', () => reject(new Error(`serve exited early: ${serve.stdout()}`)));
      });
      try {
        expect(baseUrl).toMatch(/^http:\/\/localhost:[1-9][0-9]*$/);
        // The log names the address people must open, and no other: 127.0.0.1 would refuse their changes as cross-site.
        const messages = serve.stdout().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);
        expect(messages).toContain(`Gantry is ready at ${baseUrl}`);
        expect(messages.filter((message) => /https?:\/\//.test(message))).toEqual([`Gantry is ready at ${baseUrl}`]);
        const document = (await (await fetch(`http://127.0.0.1:${new URL(baseUrl).port}/api/openapi.json`)).json()) as { servers: { url: string }[] };
        expect(document.servers[0]?.url).toBe(baseUrl);
      } finally {
        child.kill('SIGTERM');
      }
      expect((await exit).code).toBe(0);
    });
  });
});
