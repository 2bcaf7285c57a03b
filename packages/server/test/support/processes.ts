import { execFile, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The real `gantry` bin, as users run it. */
export const gantryBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/gantry.js');

// Vite sets BASE_URL='/' in the test process; a gantry process must not inherit it.
const { BASE_URL: _viteBaseUrl, ...testProcessEnv } = process.env;
/** The environment a spawned gantry process starts from. */
export const inheritedEnv: NodeJS.ProcessEnv = testProcessEnv;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `gantry …args` to its end; a failing command is a result (its exit code), not a throw. */
export async function runGantry(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [gantryBin, ...args], { env: { ...inheritedEnv, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A long-running `gantry serve` or `gantry worker` with its output collected. */
export interface GantryProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
}

export function startGantry(command: 'serve' | 'worker', env: Record<string, string>): GantryProcess {
  const child = spawn(process.execPath, [gantryBin, command], { env: { ...inheritedEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** A loopback port free right now (for a server that cannot report the port it chose). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `condition` every 50 ms; throws after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Waits until the server at `base` answers `/healthz` with 200; throws if it exits first. */
export async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`server exited early with ${child.exitCode}`);
    return (await fetch(`${base}/healthz`).catch(() => null))?.status === 200;
  }, timeoutMs);
}
