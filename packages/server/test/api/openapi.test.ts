import { readFileSync } from 'node:fs';
import {
  API_VERSION,
  audienceOf,
  errorCatalogue,
  eventTypes,
  listedEvents,
  listedOptInEvents,
  openApiDocumentPaths,
  optInEventTypes,
  PING_EVENT,
  routes,
  type OpenApiAudience,
} from '@gantry/contract';
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
  info: { version: string; title: string; description: string };
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Operation & { security: unknown[]; requestBody: { required: boolean; content: Record<string, { schema: { $ref: string } }> } } }>;
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
const audiences = Object.keys(openApiDocumentPaths) as OpenApiAudience[];

/** Each operation of a document as `METHOD path`. */
function operationsOf(doc: Doc): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).filter((key) => httpMethods.includes(key)).map((method) => `${method.toUpperCase()} ${path}`));
}

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

// docs/api.md: the OpenAPI 3.1 document at /api/openapi.json (what keys and OAuth apps may
// call) and the web app's at /api/openapi-web-app.json, bearer keys (› Authentication),
// › Error codes, and the API version (`info.version` = 2026-10-01).
describe('OpenAPI documents', () => {
  let server: TestServer;
  let docs: Record<OpenApiAudience, Doc>;
  /** The public document. */
  let doc: Doc;

  beforeAll(async () => {
    server = await startTestServer();
    const served = [];
    for (const audience of audiences) {
      const response = await server.request<Doc>('GET', openApiDocumentPaths[audience]);
      expect(response.status, openApiDocumentPaths[audience]).toBe(200);
      served.push([audience, response.body]);
    }
    docs = Object.fromEntries(served) as Record<OpenApiAudience, Doc>;
    doc = docs.integrations;
  });
  afterAll(() => server.close());

  it('are served publicly as JSON, without a key', async () => {
    for (const audience of audiences) {
      const path = openApiDocumentPaths[audience];
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(docs[audience].openapi, path).toMatch(/^3\.1\./);
      // A key does not change it.
      const withBadKey = await server.request<Doc>('GET', path, { headers: { authorization: 'Bearer gnt_nope' } });
      expect(withBadKey.status, path).toBe(200);
      expect(withBadKey.body, path).toEqual(docs[audience]);
    }
  });

  it('validate as OpenAPI 3.1 documents', async () => {
    for (const audience of audiences) {
      const validator = new Validator();
      const result = await validator.validate(docs[audience] as unknown as Record<string, unknown>);
      expect(result.valid, JSON.stringify(result.errors, null, 2)).toBe(true);
      expect(validator.version).toBe('3.1');
    }
  });

  it("are clean under Redocly's recommended rules: no error, no warning", async () => {
    for (const audience of audiences) expect(await redoclyProblems(docs[audience], openApiDocumentPaths[audience])).toEqual([]);
    // The lint has teeth: a tag without its description is a warning.
    expect(await redoclyProblems({ ...doc, tags: doc.tags.map(({ name }) => ({ name })) }, 'probe.json')).toContainEqual(expect.stringMatching(/^warn tag-description /));
  });

  it('carry the API version 2026-10-01 and the service address', () => {
    expect(API_VERSION).toBe('2026-10-01');
    for (const audience of audiences) {
      expect(docs[audience].info.version).toBe('2026-10-01');
      expect(docs[audience].servers?.[0]?.url).toBe(server.config.baseUrl);
    }
  });

  it('document every operation of the contract, each in the document of whom it is for', () => {
    for (const def of Object.values(routes)) {
      const operation = docs[audienceOf(def)].paths[def.path]?.[def.method.toLowerCase()];
      expect(operation, `${def.method} ${def.path}`).toBeDefined();
      expect(operation?.operationId).toBe(def.operationId);
      expect(operation?.['x-required-scope']).toBe(def.scope);
      expect(Object.keys(operation?.responses ?? {})).toContain(String(def.response.status));
      expect(Boolean(operation?.requestBody), `${def.operationId} request body`).toBe(Boolean(def.body));
      for (const name of def.path.match(/\{(\w+)\}/g) ?? []) {
        expect(operation?.parameters?.find((parameter) => `{${parameter.name}}` === name), `${def.operationId} ${name}`).toMatchObject({ in: 'path', required: true });
      }
    }
    for (const audience of audiences) {
      expect(operationsOf(docs[audience]), audience).toHaveLength(Object.values(routes).filter((def) => audienceOf(def) === audience).length);
    }
  });

  // service-api.md: "The API has no delete operation for projects or tasks"; deleting is the web app's.
  it("list for keys and OAuth apps only what they may call, and no deletion of projects or tasks: those are the web app's", () => {
    const deletesProjectsOrTasks = (operation: string) => operation === 'DELETE /api/projects/{projectId}' || /^DELETE .*\/tasks\b/.test(operation);
    expect(operationsOf(doc).filter(deletesProjectsOrTasks)).toEqual([]);
    expect(operationsOf(docs['web-app']).filter(deletesProjectsOrTasks).sort()).toEqual(['DELETE /api/projects/{projectId}', 'DELETE /api/projects/{projectId}/tasks/{taskId}']);
    expect(docs['web-app'].paths['/api/projects/{projectId}']?.delete?.operationId).toBe('deleteProject');
    expect(docs['web-app'].paths['/api/projects/{projectId}/tasks/{taskId}']?.delete?.operationId).toBe('deleteTask');

    // Every public operation takes a key and an OAuth token; none of the web app's does.
    const takesBearer = (operation: Operation) => (operation.security ?? []).some((requirement) => 'apiKey' in requirement || 'oauth2' in requirement);
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) expect(takesBearer(operation), `${method} ${path}`).toBe(true);
    }
    for (const [path, item] of Object.entries(docs['web-app'].paths)) {
      for (const [method, operation] of Object.entries(item)) expect(takesBearer(operation), `${method} ${path}`).toBe(false);
    }
    expect(Object.keys(docs['web-app'].components.securitySchemes)).toEqual(['session']);
    expect(docs['web-app'].webhooks).toBeUndefined();
    expect(doc.info.description).toContain(openApiDocumentPaths['web-app']);
    expect(docs['web-app'].info.description).toContain(openApiDocumentPaths.integrations);
  });

  it('document every route the server registered (and the server registers every documented one)', async () => {
    const registered = registeredRoutes(server.app.printRoutes({ commonPrefix: false }));
    // Sanity: the parser sees the public routes.
    expect(registered).toContainEqual({ method: 'GET', path: '/healthz' });
    for (const path of Object.values(openApiDocumentPaths)) expect(registered).toContainEqual({ method: 'GET', path });

    // The OAuth endpoints follow their RFCs (form bodies, OAuth errors) and are described by the
    // authorization server's metadata and the oauth2 security scheme, not as operations; the
    // MCP endpoint speaks JSON-RPC (docs/mcp.md); the web app's pages and assets are HTML and
    // files (the API has no wildcard routes: those are the web app's).
    for (const page of webAppPages) expect(server.app.hasRoute({ method: 'GET', url: page }), page).toBe(true);
    const webApp = (path: string) => webAppPages.includes(path) || path.endsWith('*');
    const oauthProtocol = /^\/(oauth\/|api\/oauth\/|\.well-known\/|(api|mcp)\/\.well-known\/)/;
    const documents = new Set(Object.values(openApiDocumentPaths));
    expect(registered).toContainEqual({ method: 'POST', path: '/mcp' });
    const undocumented = registered.filter(({ method, path }) => {
      // Health and metrics are operations' endpoints (README › Health and metrics), not the API's.
      if (path === '/healthz' || path === '/metrics' || documents.has(path) || oauthProtocol.test(path) || path === '/mcp' || webApp(path)) return false;
      const items = audiences.map((audience) => docs[audience].paths[path]);
      // HEAD is served implicitly for every GET.
      if (method === 'HEAD') return !items.some((item) => item?.get);
      return !items.some((item) => item?.[method.toLowerCase()]);
    });
    expect(undocumented).toEqual([]);

    for (const audience of audiences) {
      for (const operation of operationsOf(docs[audience])) {
        const [method, path] = operation.split(' ') as [string, string];
        expect(server.app.hasRoute({ method: method as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }), operation).toBe(true);
      }
    }
  });

  it('have schema components that all compile in Ajv 2020 strict mode', () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    ajv.addKeyword('example');
    // The container of the components, so `#/components/schemas/…` references resolve;
    // each component is then compiled (strictly) on its own.
    ajv.addKeyword('components');
    const failures: string[] = [];
    for (const audience of audiences) {
      ajv.addSchema({ $id: audience, components: { schemas: docs[audience].components.schemas } });
      for (const name of Object.keys(docs[audience].components.schemas)) {
        try {
          const validate = ajv.getSchema(`${audience}#/components/schemas/${name}`);
          if (!validate) failures.push(`${audience} ${name}: not compiled`);
        } catch (error) {
          failures.push(`${audience} ${name}: ${(error as Error).message}`);
        }
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

  it('refer only to schema components that exist', () => {
    for (const audience of audiences) {
      const refs = JSON.stringify(docs[audience]).match(/"\$ref":"[^"]+"/g) ?? [];
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of new Set(refs)) {
        const name = /#\/components\/schemas\/([^"]+)"/.exec(ref)?.[1];
        expect(name, ref).toBeDefined();
        expect(docs[audience].components.schemas[name as string], `${audience} ${ref}`).toBeDefined();
      }
    }
  });

  it('catalogues exactly the error codes docs/api.md documents, with their statuses, and describes each in some response', () => {
    const documented = documentedErrorStatuses();
    const catalogued = Object.fromEntries(Object.entries(errorCatalogue).map(([code, entry]) => [code, entry.status]));
    expect(documented).toEqual(catalogued);
    const descriptions = audiences
      .flatMap((audience) => Object.values(docs[audience].paths))
      .flatMap((item) => Object.values(item))
      .flatMap((operation) => Object.values(operation.responses ?? {}))
      .map((response) => response.description)
      .concat(String((doc.components.schemas.Error as { description?: string }).description))
      .join('\n');
    const undescribed = Object.keys(documented).filter((code) => !descriptions.includes(`\`${code}\``));
    expect(undescribed, 'documented error codes described nowhere in the documents (responses or the Error schema)').toEqual([]);
  });

  it('document the common error responses on every operation, with Retry-After on 429', () => {
    for (const [path, item] of audiences.flatMap((audience) => Object.entries(docs[audience].paths))) {
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
    const webhooks = doc.webhooks ?? {};
    expect(Object.keys(webhooks)).toEqual([...eventTypes, PING_EVENT, ...optInEventTypes]);
    expect(Object.keys(webhooks)).toEqual([...listedEvents, ...listedOptInEvents].map((event) => event.type));
    for (const type of optInEventTypes) expect(webhooks[type]?.post.description, type).toMatch(/^Opt-in: /);
    for (const [type, { post }] of Object.entries(webhooks)) {
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

  it('declare OAuth 2.1 apps: the authorization code flow at the spec addresses, each operation with its scope alias', () => {
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { authorizationCode: { authorizationUrl: `${server.config.baseUrl}/oauth/authorize`, tokenUrl: `${server.config.baseUrl}/api/oauth/token` } },
    });
    for (const [path, item] of audiences.flatMap((audience) => Object.entries(docs[audience].paths))) {
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
