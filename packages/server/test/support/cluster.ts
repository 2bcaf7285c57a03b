import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { exited, freePort, runGantry, startGantry, until, waitForHealth, type GantryProcess } from './processes.js';

const run = promisify(execFile);

/** An API node of a test cluster: its process and its address. */
export interface ApiNode extends GantryProcess {
  base: string;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * `gantry serve` and `gantry worker` processes on one store, as a team scales out:
 * API nodes leave the background work to the workers (GANTRY_SERVE_WORKER=0).
 */
export class TestCluster {
  readonly nodes: ApiNode[] = [];
  readonly workers: GantryProcess[] = [];

  constructor(readonly env: Record<string, string>) {}

  async startNode(extraEnv: Record<string, string> = {}): Promise<ApiNode> {
    const port = await freePort();
    const node = { ...startGantry('serve', { ...this.env, GANTRY_SERVE_WORKER: '0', ...extraEnv, PORT: String(port) }), base: `http://127.0.0.1:${port}` };
    this.nodes.push(node);
    await waitForHealth(node.base, node.child, 30_000);
    return node;
  }

  startWorker(): GantryProcess {
    const worker = startGantry('worker', this.env);
    this.workers.push(worker);
    return worker;
  }

  /** A user with a write key, made with the CLI on the cluster's store. */
  async writeKey(email: string): Promise<string> {
    const user = await runGantry(['user', 'create', '--email', email, '--json'], this.env);
    if (user.code !== 0) throw new Error(user.stderr);
    const created = await runGantry(['key', 'create', '--email', email, '--scope', 'write', '--json'], this.env);
    if (created.code !== 0) throw new Error(created.stderr);
    return (JSON.parse(created.stdout) as { key: string }).key;
  }

  /** Kills every process still running. */
  async stop(): Promise<void> {
    const children: ChildProcess[] = [...this.nodes, ...this.workers].map((process) => process.child);
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map((child) => exited(child)));
  }
}

/** One API call to `base` with `key`; rejects only when the node cannot be reached. */
export async function callApi(base: string, key: string, method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const pgBin = (() => {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((version) => path.join(root, version, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'pg_ctl')));
})();

/** Whether this machine has PostgreSQL's server programs, for a private server a test may restart. */
export const canRunPrivatePostgres = pgBin !== undefined;

/**
 * A PostgreSQL server of the test's own (initdb in a temporary folder, on a free loopback
 * port), so that restarting it disturbs no other test. Run as the `postgres` user when the
 * tests run as root, as PostgreSQL refuses root.
 */
export async function startPrivatePostgres(): Promise<{ url: string; restart(): Promise<void>; stop(): Promise<void> }> {
  if (!pgBin) throw new Error('PostgreSQL server programs are not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-pg-'));
  const asOwner = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asOwner.length > 0) await run('chown', ['postgres', dir]);
  const pgCtl = async (...args: string[]) => {
    const [command, ...rest] = [...asOwner, path.join(pgBin, 'pg_ctl'), ...args];
    await run(command as string, rest);
  };
  const port = await freePort();
  const data = path.join(dir, 'data');
  const [command, ...rest] = [...asOwner, path.join(pgBin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'];
  await run(command as string, rest);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => pgCtl('start', '-D', data, '-w', '-l', path.join(dir, 'log'), '-o', options);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await pgCtl('stop', '-D', data, '-m', 'fast', '-w');
      // Long enough for requests to meet the outage.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await start();
    },
    async stop() {
      await pgCtl('stop', '-D', data, '-m', 'immediate', '-w').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { until };
