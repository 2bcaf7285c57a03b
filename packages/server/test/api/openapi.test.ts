import { readFileSync } from 'node:fs';
import { API_VERSION, errorCatalogue, eventTypes, listedEvents, listedOptInEvents, optInEventTypes, PING_EVENT, routes } from '@gantry/contract';
import { BaseResolver, createConfig, lintDocument, makeDocumentFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { webAppPages } from '../../src/web-app/routes.js';

type Operation = {
  operationId: string;
  description?: string;
  'x-required-scope'?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: unknown;
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> }>;
};
type Doc = {
  openapi: string;
  info: { version: string; title: string };
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation & { security: unknown[]; requestBody: { required: boolean; content: Record<string, { schema: { $ref: string } }> } } }>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, { type: string; scheme?: string }> };
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The rows `| status | code | when |` of the "Error codes" table of docs/api.md, as code → status. */
function documentedErrorStatuses(): Record<string, number> {
  const page = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8');
  const section = page.split(/^## /m).find((part) => part.startsWith('Error codes\n')) ?? '';
  return Object.fromEntries([...section.matchAll(/^\| (\d{3}) \| (\w+) \|/gm)].map((row) => [row[2], Number(row[1])]));
}
const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The problems Redocly's `recommended` rules find in a document, errors and warnings alike.
 * The document refers only to itself: a lint that tried to fetch anything fails.
 */
async function redoclyProblems(doc: Doc, name: string): Promise<string[]> {
  const offline = new BaseResolver({
    http: {
      headers: [],
      customFetch: (url: string) => {
        throw new Error(`the lint tried to fetch ${url}`);
      },
    },
  });
  const config = await createConfig({ extends: ['recommended'] }, { externalRefResolver: offline });
  const problems = await lintDocument({ document: makeDocumentFromString(JSON.stringify(doc), name), config, externalRefResolver: offline });
  return problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`);
}

/**
 * Every (method, path) the Fastify app registered, from `printRoutes({commonPrefix:false})`,
 * paths in OpenAPI style (`:id` → `{id}`).
 */
function registeredRoutes(tree: string): { method: string; path: string }[] {
  const found: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, -]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    stack.length = depth;
    stack.push(match[2] as string);
    const methods = (match[3] ?? '').split(',').map((method) => method.trim()).filter((method) => /^[A-Z]+$/.test(method));
    const full = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of methods) found.push({ method, path: full });
  }
  return found;
}

// docs/api.md: the OpenAPI 3.1 document at /api/openapi.json, bearer keys (› Authentication),
// › Error codes, and the API version (`info.version` = 2026-10-01).
describe('OpenAPI document', () => {
  let server: TestServer;
  let doc: Doc;

  beforeAll(async () => {
    server = await startTestServer();
    const response = await server.request<Doc>('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    doc = response.body;
  });
  afterAll(() => server.close());

  it('is served publicly as JSON, without a key', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(doc.openapi).toMatch(/^3\.1\./);
    // A key does not change it.
    const withBadKey = await server.request<Doc>('GET', '/api/openapi.json', { headers: { authorization: 'Bearer gnt_nope' } });
    expect(withBadKey.status).toBe(200);
    expect(withBadKey.body).toEqual(doc);
  });

  it('validates as an OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.valid, JSON.stringify(result.errors, null, 2)).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("is clean under Redocly's recommended rules: no error, no warning", async () => {
    expect(await redoclyProblems(doc, '/api/openapi.json')).toEqual([]);
    // The lint has teeth: a tag without its description is a warning.
    expect(await redoclyProblems({ ...doc, tags: doc.tags.map(({ name }) => ({ name })) }, 'probe.json')).toContainEqual(expect.stringMatching(/^warn tag-description /));
  });

  it('carries the API version 2026-10-01 and the service address', () => {
    expect(API_VERSION).toBe('2026-10-01');
    expect(doc.info.version).toBe('2026-10-01');
    expect(doc.servers?.[0]?.url).toBe(server.config.baseUrl);
  });

  it('documents every operation of the contract', () => {
    for (const def of Object.values(routes)) {
      const operation = doc.paths[def.path]?.[def.method.toLowerCase()];
      expect(operation, `${def.method} ${def.path}`).toBeDefined();
      expect(operation?.operationId).toBe(def.operationId);
      expect(operation?.['x-required-scope']).toBe(def.scope);
      expect(Object.keys(operation?.responses ?? {})).toContain(String(def.response.status));
      expect(Boolean(operation?.requestBody), `${def.operationId} request body`).toBe(Boolean(def.body));
      for (const name of def.path.match(/\{(\w+)\}/g) ?? []) {
        expect(operation?.parameters?.find((parameter) => `{${parameter.name}}` === name), `${def.operationId} ${name}`).toMatchObject({ in: 'path', required: true });
      }
    }
    const documented = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((key) => httpMethods.includes(key)));
    expect(documented).toHaveLength(Object.keys(routes).length);
  });

  it('documents every route the server registered (and registers every documented one)', async () => {
    const registered = registeredRoutes(server.app.printRoutes({ commonPrefix: false }));
    // Sanity: the parser sees the public routes.
    expect(registered).toContainEqual({ method: 'GET', path: '/healthz' });
    expect(registered).toContainEqual({ method: 'GET', path: '/api/openapi.json' });

    // The OAuth endpoints follow their RFCs (form bodies, OAuth errors) and are described by the
    // authorization server's metadata and the oauth2 security scheme, not as operations; the
    // MCP endpoint speaks JSON-RPC (docs/mcp.md); the web app's pages and assets are HTML and
    // files (the API has no wildcard routes: those are the web app's).
    for (const page of webAppPages) expect(server.app.hasRoute({ method: 'GET', url: page }), page).toBe(true);
    const webApp = (path: string) => webAppPages.includes(path) || path.endsWith('*');
    const oauthProtocol = /^\/(oauth\/|api\/oauth\/|\.well-known\/|(api|mcp)\/\.well-known\/)/;
    expect(registered).toContainEqual({ method: 'POST', path: '/mcp' });
    const undocumented = registered.filter(({ method, path }) => {
      // Health and metrics are operations' endpoints (README › Health and metrics), not the API's.
      if (path === '/healthz' || path === '/metrics' || path === '/api/openapi.json' || oauthProtocol.test(path) || path === '/mcp' || webApp(path)) return false;
      const item = doc.paths[path];
      // HEAD is served implicitly for every GET.
      if (method === 'HEAD') return !item?.get;
      return !item?.[method.toLowerCase()];
    });
    expect(undocumented).toEqual([]);

    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item).filter((key) => httpMethods.includes(key))) {
        expect(server.app.hasRoute({ method: method.toUpperCase() as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }), `${method} ${path}`).toBe(true);
      }
    }
  });

  it('has schema components that all compile in Ajv 2020 strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addKeyword('example');
    // The container of the components, so `#/components/schemas/…` references resolve;
    // each component is then compiled (strictly) on its own.
    ajv.addKeyword('components');
    ajv.addSchema({ $id: 'doc', components: { schemas: doc.components.schemas } });
    const failures: string[] = [];
    for (const name of Object.keys(doc.components.schemas)) {
      try {
        const validate = ajv.getSchema(`doc#/components/schemas/${name}`);
        if (!validate) failures.push(`${name}: not compiled`);
      } catch (error) {
        failures.push(`${name}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
    // The check has teeth: an unknown keyword in a component is refused.
    const probe = new Ajv2020({ strict: true });
    probe.addKeyword('components');
    probe.addSchema({ $id: 'probe', components: { schemas: { Bad: { type: 'object', nullabel: true } } } });
    expect(() => probe.getSchema('probe#/components/schemas/Bad')).toThrow(/strict mode/);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Error', 'User', 'Workspace', 'Project', 'ProjectListItem', 'Member', 'Task', 'Dependency']));
  });

  it('refers only to schema components that exist', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const name = /#\/components\/schemas\/([^"]+)"/.exec(ref)?.[1];
      expect(name, ref).toBeDefined();
      expect(doc.components.schemas[name as string], ref).toBeDefined();
    }
  });

  it('catalogues exactly the error codes docs/api.md documents, with their statuses, and describes each in some response', () => {
    const documented = documentedErrorStatuses();
    const catalogued = Object.fromEntries(Object.entries(errorCatalogue).map(([code, entry]) => [code, entry.status]));
    expect(documented).toEqual(catalogued);
    const descriptions = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((operation) => Object.values(operation.responses ?? {}))
      .map((response) => response.description)
      .concat(String((doc.components.schemas.Error as { description?: string }).description))
      .join('\n');
    const undescribed = Object.keys(documented).filter((code) => !descriptions.includes(`\`${code}\``));
    expect(undescribed, 'documented error codes described nowhere in the document (responses or the Error schema)').toEqual([]);
  });

  it('documents the common error responses on every operation, with Retry-After on 429', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        // Operations without a credential (signing up and in) answer 401 only where they say so.
        const statuses = operation.security?.length === 0 ? ['403', '429', '500'] : ['401', '403', '429', '500'];
        for (const status of statuses) {
          const response = operation.responses[status];
          expect(response, `${method} ${path} ${status}`).toBeDefined();
          expect(response?.content?.['application/json']?.schema.$ref).toBe('#/components/schemas/Error');
        }
        expect(operation.responses['429']?.headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
        if (operation.requestBody) expect(operation.responses['400'], `${method} ${path}`).toBeDefined();
      }
    }
  });

  // docs/api.md › Events and › Deliveries: the catalog, the test event, the opt-in events, the envelope, the delivery headers and rules.
  it('publishes exactly the catalog, the test event and the opt-in events under webhooks, each with its envelope, headers and answers', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...eventTypes, PING_EVENT, ...optInEventTypes]);
    expect(Object.keys(doc.webhooks)).toEqual([...listedEvents, ...listedOptInEvents].map((event) => event.type));
    for (const type of optInEventTypes) expect(doc.webhooks[type]?.post.description, type).toMatch(/^Opt-in: /);
    for (const [type, { post }] of Object.entries(doc.webhooks)) {
      expect(post.parameters?.map((parameter) => [parameter.name, parameter.in, parameter.required]), type).toEqual([
        ['Service-Event', 'header', true],
        ['Service-Event-Id', 'header', true],
        ['Service-Delivery', 'header', true],
        ['Service-Signature', 'header', true],
      ]);
      expect(post.security, type).toEqual([]);
      expect(post.requestBody.required, type).toBe(true);
      const envelope = doc.components.schemas[post.requestBody.content['application/json']?.schema.$ref.replace('#/components/schemas/', '') ?? ''] as {
        properties: Record<string, unknown>;
        required: string[];
      };
      expect(envelope.properties.type, type).toEqual({ type: 'string', const: type });
      expect(envelope.required, type).toEqual(['id', 'type', 'apiVersion', 'createdAt', 'workspaceId', 'projectId', 'actor', 'data']);
      expect(Object.keys(post.responses).sort(), type).toEqual(['2XX', '410', 'default']);
    }
  });

  it('declares bearer authentication for the API', () => {
    const schemes = Object.entries(doc.components.securitySchemes);
    expect(schemes.length).toBeGreaterThan(0);
    const bearer = schemes.filter(([, scheme]) => scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer').map(([name]) => name);
    expect(bearer.length).toBeGreaterThan(0);
    const required = (doc.security ?? []).flatMap((requirement) => Object.keys(requirement));
    expect(required.length).toBeGreaterThan(0);
    for (const name of required) expect(bearer).toContain(name);
  });

  it('declares OAuth 2.1 apps: the authorization code flow at the spec addresses, each operation with its scope alias', () => {
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { authorizationCode: { authorizationUrl: `${server.config.baseUrl}/oauth/authorize`, tokenUrl: `${server.config.baseUrl}/api/oauth/token` } },
    });
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
        const scope = operation['x-required-scope'];
        // Signing up and in takes no credential; the person's own operations (the session, the
        // profile, connected apps, keys, turning a webhook back on, deleting projects and tasks,
        // joining a project) take the web session only; the rest any credential.
        const def = Object.values(routes).find((candidate) => candidate.path === path && candidate.method.toLowerCase() === method);
        const expected = def?.credentials === 'none' ? [] : def?.credentials === 'session' ? [{ session: [] }] : [{ apiKey: [] }, { oauth2: [`service:${scope}`] }, { session: [] }];
        if (scope) expect(operation.security, `${method} ${path}`).toEqual(expected);
      }
    }
  });
});
