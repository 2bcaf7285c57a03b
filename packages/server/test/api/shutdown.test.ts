import http from 'node:http';
import net from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import { exited, freePort, runGantry, startGantry, waitForHealth } from '../support/processes.js';
import { createTestStoreEnv, type TestStoreEnv } from '../support/test-store.js';
import { provisionUser, startTestServer } from '../support/test-server.js';

/**
 * Starts a POST whose body arrives in two parts: the headers and the first half now, the
 * rest when `finish()` is called. The request is in flight in between.
 */
function slowPost(base: string, pathname: string, key: string, body: string) {
  const url = new URL(pathname, base);
  const half = Math.floor(body.length / 2);
  let finish!: () => void;
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${key}` },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.flushHeaders();
    request.write(body.slice(0, half));
    finish = () => request.end(body.slice(half));
  });
  return { done, finish: () => finish() };
}

// main.ts / README › Command line (`gantry serve`): SIGTERM stops accepting
// connections, lets in-flight requests finish, flushes the audit log and closes the
// store, then exits 0. Logs are JSON lines on stdout and never contain credentials
// (docs/api.md › Authentication: keys are secrets shown once).
describe('graceful shutdown of `gantry serve`', () => {
  // One store at a time: this test's store is dropped before the next test starts its own.
  let storeEnv: TestStoreEnv | undefined;
  let child: ChildProcess | undefined;

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
    await storeEnv?.drop();
  });

  it('finishes in-flight requests on SIGTERM, exits 0, and logs JSON without the key', async () => {
    storeEnv = await createTestStoreEnv();
    const cliEnv = { ...storeEnv.env, LOG_LEVEL: 'silent' };
    await runGantry(['user', 'create', '--email', 'ops@example.com', '--json'], cliEnv);
    const created = await runGantry(['key', 'create', '--email', 'ops@example.com', '--scope', 'write', '--json'], cliEnv);
    const { key, apiKey: { id: keyId } } = JSON.parse(created.stdout) as { key: string; apiKey: { id: string } };

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serve = startGantry('serve', { ...storeEnv.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    const server = serve.child;
    child = server;
    const exit = exited(server);

    await waitForHealth(base, server);
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    const meRequestId = me.headers.get('x-request-id');

    // One request in flight (its body half sent) and a burst of reads answered around the signal.
    const slow = slowPost(base, '/api/projects', key, JSON.stringify({ name: 'Written during shutdown', description: 'x'.repeat(2000) }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const burst = Array.from({ length: 10 }, () =>
      fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } }).then((response) => response.status),
    );
    const burstStatuses = await Promise.all(burst);
    expect(new Set(burstStatuses)).toEqual(new Set([200]));

    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Still running: it waits for the request in flight.
    expect(server.exitCode).toBeNull();
    slow.finish();
    const answered = await slow.done;
    expect(answered.status, answered.body).toBe(201);
    expect((JSON.parse(answered.body) as { project: { name: string } }).project.name).toBe('Written during shutdown');

    const { code, signal } = await exit;
    const [stdout, stderr] = [serve.stdout(), serve.stderr()];
    expect(signal).toBeNull();
    expect(code, stderr).toBe(0);

    // Logs: JSON lines, the shutdown is logged, and the key appears nowhere.
    const lines = stdout.split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    const entries = lines.map((line) => {
      expect(() => JSON.parse(line), line).not.toThrow();
      return JSON.parse(line) as { msg?: string; level?: number };
    });
    expect(entries.some((entry) => /shutting down/.test(entry.msg ?? ''))).toBe(true);
    expect(entries.some((entry) => entry.msg === 'stopped')).toBe(true);
    // At `info`, every request has its lines, under its request id.
    expect(entries.filter((entry) => (entry as { reqId?: string }).reqId === meRequestId).map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
    for (const output of [stdout, stderr]) {
      expect(output).not.toContain(key);
      expect(output).not.toContain(key.slice(4));
    }

    // The write committed, and the audit log was flushed before exit (every call recorded).
    const { store } = await openStore(loadConfig({ ...storeEnv.env, LOG_LEVEL: 'silent' }));
    try {
      const audit = await store.q.apiKeys.listAuditEntries(keyId);
      const posts = audit.filter((entry) => entry.method === 'POST' && entry.path === '/api/projects');
      expect(posts.map((entry) => entry.status)).toEqual([201]);
      const reads = audit.filter((entry) => entry.method === 'GET' && entry.path === '/api/auth/me');
      expect(reads.reduce((calls, entry) => calls + entry.calls, 0)).toBe(11);
    } finally {
      await store.close();
    }
    await storeEnv.drop();
    storeEnv = undefined;
  });

  it('answers requests that arrive while it closes with the catalogued 503 service_unavailable', async () => {
    // docs/api.md › Error codes: the catalogue's code for "shutting down"
    // is `service_unavailable` (503). A pipelined request behind one in flight arrives
    // after close() began.
    const server = await startTestServer();
    let closing: Promise<void> | undefined;
    try {
      const { key: token } = await provisionUser(server, 'closing@example.com');
      const { port } = new URL(server.url);
      const socket = net.connect(Number(port), '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      await new Promise((resolve) => socket.once('connect', resolve));
      const body = JSON.stringify({ name: 'In flight' });
      socket.write(
        `POST /api/projects HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      closing = server.app.close();
      await new Promise((resolve) => setTimeout(resolve, 150));
      socket.write(`${body.slice(5)}GET /api/auth/me HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nx-request-id: late-1\r\n\r\n`);
      await new Promise((resolve) => socket.once('close', resolve));

      const responses = received.split(/(?=HTTP\/1\.1 \d{3})/);
      expect(responses).toHaveLength(2);
      expect(responses[0]).toMatch(/^HTTP\/1\.1 201/);
      const late = responses[1] as string;
      expect(late).toMatch(/^HTTP\/1\.1 503/);
      expect(late).toMatch(/content-type: application\/json/i);
      const lateBody = JSON.parse(late.slice(late.indexOf('\r\n\r\n') + 4)) as { error: string };
      expect(lateBody.error).toBe('service_unavailable');
    } finally {
      await (closing ?? server.app.close());
      await server.store.close();
      await server.storeEnv.drop();
    }
  });
});
