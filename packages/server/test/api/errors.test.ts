import { limits } from '@gantry/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionUser, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

type ErrorBody = { error: string; message?: string; details?: { fields?: { path: string; message: string }[]; [k: string]: unknown } };

/** docs/api.md › Requests and responses: every error is JSON `{error, message, details?}`. */
function expectErrorShape(response: ApiResponse<unknown>, status: number, code: string): ErrorBody {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = response.body as ErrorBody;
  expect(body).toBeTypeOf('object');
  expect(body.error).toBe(code);
  if (body.details !== undefined) {
    expect(body.details).toBeTypeOf('object');
    expect(Array.isArray(body.details)).toBe(false);
  }
  return body;
}

function fieldsOf(body: ErrorBody): { path: string; message: string }[] {
  const fields = body.details?.fields;
  expect(Array.isArray(fields), JSON.stringify(body)).toBe(true);
  for (const field of fields ?? []) {
    expect(field.path).toBeTypeOf('string');
    expect(field.message).toBeTypeOf('string');
    expect(field.message.length).toBeGreaterThan(0);
  }
  return fields ?? [];
}

// docs/api.md › Requests and responses (JSON in and out, `Content-Type: application/json`
// on bodies, `400 invalid_request` with `details.fields[{path,message}]`), › Error codes
// and › Limits.
describe('error shapes and HTTP ground rules', () => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer();
    user = await provisionUser(server, 'errors@example.com');
  });
  afterAll(() => server.close());

  describe('unknown routes', () => {
    it('answers 404 not_found as JSON, with and without a key', async () => {
      for (const key of [undefined, user.key]) {
        for (const [method, pathname] of [
          ['GET', '/api/nope'],
          ['GET', '/nope'],
          ['POST', '/api/projects/00000000-0000-4000-8000-000000000000/unknown'],
          ['PUT', '/api/projects'],
        ] as const) {
          const response = await server.request(method, pathname, { key, ...(method === 'GET' ? {} : { body: {} }) });
          expectErrorShape(response, 404, 'not_found');
        }
      }
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with 400 invalid_request and details.fields', async () => {
      for (const rawBody of ['{"name": ', '{name: "x"}', 'not json at all']) {
        const response = await server.request<ErrorBody>('POST', '/api/projects', {
          key: user.key,
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        const body = expectErrorShape(response, 400, 'invalid_request');
        expect(fieldsOf(body).length).toBeGreaterThan(0);
      }
    });

    it('answers a body sent with a non-JSON content type with 400 invalid_request and details.fields', async () => {
      for (const [contentType, rawBody] of [
        ['text/plain', '{"name":"Plain"}'],
        ['application/x-www-form-urlencoded', 'name=Form'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nMulti\r\n--x--\r\n'],
        ['application/xml', '<name>Xml</name>'],
      ] as const) {
        const response = await server.request<ErrorBody>('POST', '/api/projects', {
          key: user.key,
          rawBody,
          headers: { 'content-type': contentType },
        });
        const body = expectErrorShape(response, 400, 'invalid_request');
        expect(fieldsOf(body).length, contentType).toBeGreaterThan(0);
      }
      // Nothing was created by any of them.
      const list = await server.request<{ projects: unknown[] }>('GET', '/api/projects', { key: user.key });
      expect(list.body.projects).toEqual([]);
    });

    it('accepts application/json with a charset parameter', async () => {
      const response = await server.request('POST', '/api/projects', {
        key: user.key,
        rawBody: JSON.stringify({ name: 'Charset' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(response.status).toBe(201);
    });

    it(`answers a body nested deeper than ${limits.requestBodyMaxDepth} levels with 400 naming where, never 500`, async () => {
      const rawBody = `{"name":"Deep","extra":${'['.repeat(5000)}${']'.repeat(5000)}}`;
      const response = await server.request<ErrorBody>('POST', '/api/projects', { key: user.key, rawBody, headers: { 'content-type': 'application/json' } });
      const body = expectErrorShape(response, 400, 'invalid_request');
      expect(fieldsOf(body)).toEqual([{ path: `extra${'[0]'.repeat(limits.requestBodyMaxDepth - 1)}`, message: expect.stringMatching(/levels deep/) }]);
    });

    it('treats an empty body sent with Content-Type: application/json as no body', async () => {
      const project = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: user.key, body: { name: 'Empty bodies' } });
      const headers = { 'content-type': 'application/json' };
      const baseline = await server.request('POST', `/api/projects/${project.body.project.id}/baseline`, { key: user.key, rawBody: '', headers });
      expect(baseline.status).toBe(201);
      const missing = await server.request('DELETE', `/api/projects/${project.body.project.id}/dependencies/00000000-0000-4000-8000-000000000000`, { key: user.key, rawBody: '', headers });
      expectErrorShape(missing, 404, 'not_found');
    });

    it('refuses keys that could poison prototypes with a message that says so', async () => {
      const response = await server.request<ErrorBody>('POST', '/api/projects', { key: user.key, rawBody: '{"__proto__":{"a":1},"name":"Proto"}', headers: { 'content-type': 'application/json' } });
      const body = expectErrorShape(response, 400, 'invalid_request');
      expect(fieldsOf(body)[0]?.message).toMatch(/__proto__/);
    });

    it('answers requests Fastify and Node refuse before any route (bad percent-encoding, huge headers) in the error format', async () => {
      const badUrl = await server.request<ErrorBody>('GET', '/api/projects/%zz', { key: user.key });
      expect(fieldsOf(expectErrorShape(badUrl, 400, 'invalid_request'))[0]?.path).toBe('url');
      expect(badUrl.headers.get('x-request-id')).toBeTruthy();
      // A path parameter far too long to be an id names nothing: 404, like any bad id.
      expectErrorShape(await server.request('GET', `/api/projects/${'a'.repeat(150)}`, { key: user.key }), 404, 'not_found');
      const hugeHeaders = await fetch(`${server.url}/api/auth/me`, { headers: { 'x-padding': 'x'.repeat(20_000) } });
      expect(hugeHeaders.status).toBe(400);
      expect(await hugeHeaders.json()).toMatchObject({ error: 'invalid_request', message: expect.stringMatching(/headers/) });
    });

    it('lists every validation problem at once in details.fields[{path, message}]', async () => {
      const response = await server.request<ErrorBody>('POST', '/api/projects', {
        key: user.key,
        body: { name: '', key: '1x', currency: 'dollars', scheduleFrom: 'sideways', startDate: '2026-13-45', workspaceId: 'not-a-uuid' },
      });
      const body = expectErrorShape(response, 400, 'invalid_request');
      const paths = fieldsOf(body).map((field) => field.path);
      for (const field of ['name', 'key', 'currency', 'scheduleFrom', 'startDate', 'workspaceId']) {
        expect(paths, JSON.stringify(body)).toContainEqual(expect.stringMatching(new RegExp(`(^|\\.)${field}$`)));
      }
    });

    it('names a missing required field, and a wrong type, by path', async () => {
      const missing = await server.request<ErrorBody>('POST', '/api/projects', { key: user.key, body: { description: 'no name' } });
      const missingFields = fieldsOf(expectErrorShape(missing, 400, 'invalid_request'));
      expect(missingFields.map((field) => field.path)).toContainEqual(expect.stringMatching(/(^|\.)name$/));

      const wrongType = await server.request<ErrorBody>('PATCH', `/api/projects/${await projectId()}`, { key: user.key, body: { archived: 'yes', name: 42 } });
      const wrongFields = fieldsOf(expectErrorShape(wrongType, 400, 'invalid_request'));
      const paths = wrongFields.map((field) => field.path);
      expect(paths).toContainEqual(expect.stringMatching(/(^|\.)archived$/));
      expect(paths).toContainEqual(expect.stringMatching(/(^|\.)name$/));
    });

    it('answers a JSON body that is not an object with 400 invalid_request', async () => {
      for (const rawBody of ['[]', '"Website"', '42']) {
        const response = await server.request<ErrorBody>('POST', '/api/projects', { key: user.key, rawBody, headers: { 'content-type': 'application/json' } });
        fieldsOf(expectErrorShape(response, 400, 'invalid_request'));
      }
    });

    it('ignores unknown request fields: 201, and the field is not echoed', async () => {
      const response = await server.request<{ project: Record<string, unknown> }>('POST', '/api/projects', {
        key: user.key,
        body: { name: 'Extra fields', flavour: 'vanilla', id: '00000000-0000-4000-8000-000000000000', archivedAt: '2020-01-01T00:00:00.000Z' },
      });
      expect(response.status).toBe(201);
      expect(response.body.project).not.toHaveProperty('flavour');
      expect(response.body.project.id).not.toBe('00000000-0000-4000-8000-000000000000');
      expect(response.body.project.archivedAt).toBeNull();
      expect(response.body.project.name).toBe('Extra fields');
    });

    it(`answers a body over limits.requestBodyMaxBytes (${limits.requestBodyMaxBytes} bytes) with 413 as JSON`, async () => {
      const rawBody = JSON.stringify({ name: 'Big', description: 'x'.repeat(limits.requestBodyMaxBytes) });
      expect(Buffer.byteLength(rawBody)).toBeGreaterThan(limits.requestBodyMaxBytes);
      const response = await server.request<ErrorBody>('POST', '/api/projects', {
        key: user.key,
        rawBody,
        headers: { 'content-type': 'application/json', 'x-request-id': 'too-big-1' },
      });
      const body = expectErrorShape(response, 413, 'payload_too_large');
      expect(body.details?.limitBytes).toBe(limits.requestBodyMaxBytes);
      expect(response.headers.get('x-request-id')).toBe('too-big-1');
    });

    it('accepts a body just under the limit as far as size goes (it is then validated)', async () => {
      // A description over its own length limit, in a body under the byte limit: 400, not 413.
      const rawBody = JSON.stringify({ name: 'Under', description: 'x'.repeat(limits.requestBodyMaxBytes - 100) });
      expect(Buffer.byteLength(rawBody)).toBeLessThanOrEqual(limits.requestBodyMaxBytes);
      const response = await server.request<ErrorBody>('POST', '/api/projects', { key: user.key, rawBody, headers: { 'content-type': 'application/json' } });
      const fields = fieldsOf(expectErrorShape(response, 400, 'invalid_request'));
      expect(fields.map((field) => field.path)).toContainEqual(expect.stringMatching(/(^|\.)description$/));
    });
  });

  describe('request ids', () => {
    it('echoes a sent x-request-id, on success and on errors', async () => {
      const cases: [string, string, { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }, number][] = [
        ['GET', '/api/auth/me', { key: user.key }, 200],
        ['GET', '/api/auth/me', {}, 401],
        ['GET', '/api/nope', { key: user.key }, 404],
        ['POST', '/api/projects', { key: user.key, rawBody: '{', headers: { 'content-type': 'application/json' } }, 400],
        ['POST', '/api/projects', { key: user.key, rawBody: 'x', headers: { 'content-type': 'text/plain' } }, 400],
        ['GET', '/healthz', {}, 200],
      ];
      let n = 0;
      for (const [method, pathname, options, status] of cases) {
        const id = `req-${++n}-abc.DEF:1`;
        const response = await server.request(method, pathname, { ...options, headers: { ...options.headers, 'x-request-id': id } });
        expect(response.status, `${method} ${pathname}`).toBe(status);
        expect(response.headers.get('x-request-id'), `${method} ${pathname}`).toBe(id);
      }
    });

    it('generates a distinct id when none (or an unusable one) is sent', async () => {
      const first = await server.request('GET', '/api/auth/me', { key: user.key });
      const second = await server.request('GET', '/api/nope');
      const unusable = await server.request('GET', '/api/auth/me', { key: user.key, headers: { 'x-request-id': 'has spaces and "quotes"' } });
      const ids = [first, second, unusable].map((response) => response.headers.get('x-request-id'));
      for (const id of ids) {
        expect(id).toBeTypeOf('string');
        expect((id as string).length).toBeGreaterThanOrEqual(8);
      }
      expect(new Set(ids).size).toBe(3);
      expect(ids[2]).not.toBe('has spaces and "quotes"');
    });
  });

  describe('health', () => {
    it('answers GET /healthz 200 without a key, with the store reachable', async () => {
      const response = await server.request<{ status: string; store: { dialect: string; reachable: boolean } }>('GET', '/healthz');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok', store: { dialect: server.storeEnv.dialect, reachable: true } });
    });
  });

  describe('error bodies', () => {
    it('uses {error, details?} with a stable code for 401, 403, 404, 409 and 400 alike', async () => {
      const readKey = (await server.cli('key', 'create', '--email', 'errors@example.com', '--scope', 'read', '--json')).json as { key: string };
      const id = await projectId();
      expectErrorShape(await server.request('GET', '/api/projects'), 401, 'unauthorized');
      const forbidden = expectErrorShape(await server.request('POST', '/api/projects', { key: readKey.key, body: { name: 'x' } }), 403, 'forbidden');
      expect(forbidden.details?.reason).toBe('insufficient_scope');
      expectErrorShape(await server.request('GET', '/api/projects/00000000-0000-4000-8000-000000000000', { key: user.key }), 404, 'not_found');
      const key = (await server.request<{ project: { key: string } }>('GET', `/api/projects/${id}`, { key: user.key })).body.project.key;
      expectErrorShape(await server.request('POST', '/api/projects', { key: user.key, body: { name: 'Dup', key } }), 409, 'conflict');
      expectErrorShape(await server.request('GET', '/api/projects?archived=yes', { key: user.key }), 400, 'invalid_request');
    });
  });

  let cachedProjectId: string | undefined;
  async function projectId(): Promise<string> {
    if (!cachedProjectId) {
      const created = await server.request<{ project: { id: string } }>('POST', '/api/projects', { key: user.key, body: { name: 'Errors base' } });
      expect(created.status).toBe(201);
      cachedProjectId = created.body.project.id;
    }
    return cachedProjectId;
  }
});

// docs/api.md › Error codes (a store outage is 503 service_unavailable). Its own server, started
// after the one above is closed, so only one store exists at a time.
describe('health when the store is gone', () => {
  it('answers GET /healthz 503 with a catalogued error body when the store cannot be reached', async () => {
    const broken = await startTestServer();
    try {
      await broken.store.close();
      const response = await broken.request<{ error?: string }>('GET', '/healthz');
      expect(response.status).toBe(503);
      // Every error is JSON with a stable code; the catalogue's code for an unreachable
      // store is service_unavailable.
      expect(response.body.error).toBe('service_unavailable');
      expect(JSON.stringify(response.body)).toMatch(/"reachable":false/);
    } finally {
      await broken.app.close();
      await broken.storeEnv.drop();
    }
  });
});
