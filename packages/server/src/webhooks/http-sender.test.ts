import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { LookupAddress } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LookupResolver } from './destination-guard.js';
import { close, sendWebhook } from './http-sender.js';
import { signPayload, verifySignature } from './signing.js';

// A real HTTP receiver on 127.0.0.1. Every request in this file goes to loopback: the
// public-destination cases live in destination-guard.test.ts and never connect.

interface Received {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('sendWebhook against a local receiver', () => {
  let server: Server;
  let base: string;
  let port: number;
  let connections = 0;
  const received: Received[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '';
        received.push({ path, method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        switch (path) {
          case '/ok':
            res.writeHead(204).end();
            return;
          case '/echo':
            res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
            return;
          case '/fail':
            res.writeHead(500, { 'content-type': 'text/plain' }).end('boom: database down');
            return;
          case '/gone':
            res.writeHead(410).end('this webhook is gone');
            return;
          case '/redirect-301':
          case '/redirect-302':
            res.writeHead(Number(path.slice(-3)), { location: `${base}/target` }).end('moved');
            return;
          case '/target':
            res.writeHead(200).end('redirect target');
            return;
          case '/hang':
            return; // never answers
          case '/slow-body':
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.write('partial'); // …and never ends
            return;
          case '/euro':
            res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('€'.repeat(1_500) + '😀');
            return;
          case '/endless': {
            // Streams until the client goes away: only a sender that stops reading ends it.
            res.writeHead(200, { 'content-type': 'text/plain' });
            const chunk = Buffer.alloc(16 * 1024, 'x');
            const pump = (): void => {
              while (!res.destroyed && res.write(chunk));
              if (!res.destroyed) res.once('drain', pump);
            };
            pump();
            return;
          }
          default:
            res.writeHead(404).end();
        }
      });
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const local = { allowPrivate: true, timeoutMs: 2_000 };
  const post = (path: string, options: Parameters<typeof sendWebhook>[1] = local) =>
    sendWebhook({ url: `${base}${path}`, body: '{}', headers: { 'content-type': 'application/json' } }, options);
  const hits = (path: string) => received.filter((request) => request.path === path).length;

  it('treats any 2xx as success', async () => {
    const result = await post('/ok');
    expect(result).toMatchObject({ ok: true, status: 204, responseExcerpt: '', error: null, gone: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('delivers the raw body and the headers unchanged, as a POST', async () => {
    const secret = 'whsec_receiver';
    const body = '{"id":"e1","type":"task.updated","data":{"name":"Ü – 😀","n":1.50}}';
    const signature = signPayload(secret, body, 1_790_000_000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Gantry-Webhooks/1',
      'service-event': 'task.updated',
      'service-event-id': 'e1',
      'service-delivery': 'd1',
      'service-signature': signature,
    };
    const result = await sendWebhook({ url: `${base}/echo`, body, headers }, local);
    expect(result).toMatchObject({ ok: true, status: 200, responseExcerpt: 'received' });
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(request?.headers).toMatchObject(headers);
    expect(request?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(verifySignature(secret, request?.body.toString('utf8') ?? '', String(request?.headers['service-signature']), 1_790_000_000)).toBe(true);
  });

  it('reports a 500 as a failure with its status and the response excerpt', async () => {
    expect(await post('/fail')).toMatchObject({
      ok: false,
      status: 500,
      responseExcerpt: 'boom: database down',
      error: 'unexpected HTTP status 500',
      gone: false,
    });
  });

  it('marks 410 Gone', async () => {
    expect(await post('/gone')).toMatchObject({ ok: false, status: 410, gone: true, responseExcerpt: 'this webhook is gone' });
  });

  it.each([301, 302])('does not follow a %i redirect: a failure, and the target is never hit', async (code) => {
    const result = await post(`/redirect-${code}`);
    expect(result).toMatchObject({ ok: false, status: code, error: `redirect not followed (HTTP ${code})`, gone: false });
    expect(hits(`/redirect-${code}`)).toBe(1);
    expect(hits('/target')).toBe(0);
  });

  it('times out a receiver that never answers', async () => {
    const result = await post('/hang', { allowPrivate: true, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout', gone: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('counts the body in the deadline: headers then silence is a timeout', async () => {
    const result = await post('/slow-body', { allowPrivate: true, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: 200, error: 'timeout' });
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('keeps the first 1,000 characters (code points) of the body', async () => {
    const result = await post('/euro');
    expect(result.ok).toBe(true);
    expect(result.responseExcerpt).toBe('€'.repeat(1_000));
  });

  it('stops reading an endless body after ~64 KiB instead of waiting for the deadline', async () => {
    const result = await post('/endless', { allowPrivate: true, timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(result.responseExcerpt).toBe('x'.repeat(1_000));
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('refuses http://127.0.0.1 without allowPrivate, before connecting', async () => {
    const before = connections;
    const result = await post('/echo', { allowPrivate: false, timeoutMs: 2_000 });
    expect(result).toMatchObject({ ok: false, status: null, gone: false });
    expect(result.error).toMatch(/^webhook destination refused: /);
    expect(connections).toBe(before);
    expect(received).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback without allowPrivate, before connecting', async () => {
    const resolver: LookupResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const before = connections;
    const result = await sendWebhook(
      { url: `https://rebind.example.com:${port}/echo`, body: '{}', headers: {} },
      { allowPrivate: false, timeoutMs: 2_000, resolver },
    );
    expect(result).toMatchObject({ ok: false, status: null, gone: false });
    expect(result.error).toBe('webhook destination refused: rebind.example.com resolves to a non-public address');
    expect(connections).toBe(before);
  });

  it('connects to the address the guarded lookup resolved, resolving once', async () => {
    const calls: string[] = [];
    const resolver: LookupResolver = async (hostname): Promise<LookupAddress[]> => {
      calls.push(hostname);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const result = await sendWebhook(
      { url: `http://receiver.test:${port}/echo`, body: '{"x":1}', headers: { 'content-type': 'application/json' } },
      { allowPrivate: true, timeoutMs: 2_000, resolver },
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(calls).toEqual(['receiver.test']);
    expect(received[0]?.headers.host).toBe(`receiver.test:${port}`);
  });

  it('reuses one pooled connection for the same options', async () => {
    const options = { allowPrivate: true, timeoutMs: 2_500 };
    // undici returns a socket to the pool just after the response ends; yield once so the
    // next send finds it idle.
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await post('/ok', options);
    await settle();
    const before = connections;
    await post('/ok', options);
    await settle();
    await post('/echo', options);
    expect(connections).toBe(before);
  });

  it('reports network errors as results', async () => {
    const spare = createServer();
    await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
    const closedPort = (spare.address() as AddressInfo).port;
    await new Promise<void>((resolve) => spare.close(() => resolve()));
    const result = await sendWebhook({ url: `http://127.0.0.1:${closedPort}/`, body: '{}', headers: {} }, local);
    expect(result).toMatchObject({ ok: false, status: null, gone: false });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  it('never throws, even for an invalid URL or header', async () => {
    await expect(sendWebhook({ url: 'not a url', body: '', headers: {} }, local)).resolves.toMatchObject({ ok: false, status: null });
    const bad = await sendWebhook({ url: `${base}/echo`, body: '{}', headers: { 'x-bad': 'a\r\nInjected: 1' } }, local);
    expect(bad).toMatchObject({ ok: false, status: null });
    expect(bad.error).toMatch(/\S/);
    expect(received).toHaveLength(0);
  });

  it('close() releases the pooled sockets; later sends still work', async () => {
    await post('/ok');
    await close();
    expect(await post('/ok')).toMatchObject({ ok: true, status: 204 });
  });
});
