import { z } from 'zod';
import { ErrorBody } from './common.js';
import { errorCatalogue, type ErrorCode } from './errors.js';
import { eventEnvelopes, listedEvents, listedOptInEvents } from './events.js';
import { API_VERSION, limits } from './limits.js';
import { Member } from './resources/members.js';
import { Project, ProjectListItem } from './resources/projects.js';
import { Assignee, Conflict, Dependency, PlanTask, Task } from './resources/tasks.js';
import { User } from './resources/users.js';
import { Delivery, Webhook } from './resources/webhooks.js';
import { Workspace } from './resources/workspaces.js';
import { operationTags, type RouteDef } from './routes.js';

/** Resource schemas published as named components, so responses refer to them by name. */
const models: Record<string, z.ZodType> = {
  User,
  Workspace,
  Project,
  ProjectListItem,
  Member,
  Task,
  PlanTask,
  Assignee,
  Dependency,
  Conflict,
  Webhook,
  Delivery,
};

type JsonObject = Record<string, unknown>;

/**
 * Codes every authenticated operation can answer with, whatever it does (any request can
 * be malformed: a path that is not valid percent-encoding, oversized headers).
 */
const commonErrors: ErrorCode[] = ['invalid_request', 'unauthorized', 'forbidden', 'rate_limited', 'server_error'];
const writeErrors: ErrorCode[] = ['payload_too_large'];

function componentsOf(schemas: Map<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of schemas) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  for (const schema of Object.values(converted)) {
    delete schema.$schema;
    delete schema.$id;
  }
  // Responses grow additively within a version and clients must ignore unknown fields,
  // so the document must not promise that no other property will ever appear.
  if (io === 'output') removeClosedObjects(converted);
  return converted;
}

function removeClosedObjects(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(removeClosedObjects);
  } else if (node && typeof node === 'object') {
    const object = node as JsonObject;
    if (object.additionalProperties === false) delete object.additionalProperties;
    Object.values(object).forEach(removeClosedObjects);
  }
}

/**
 * One schema as JSON Schema (draft 2020-12), stated as the OpenAPI document states it:
 * an input as clients send it, an output open to fields added later. For faces that
 * describe operations outside the OpenAPI document (MCP tools).
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonObject;
  delete json.$schema;
  if (io === 'output') removeClosedObjects(json);
  return json;
}

function parametersOf(object: z.ZodObject | undefined, location: 'path' | 'query'): JsonObject[] {
  if (!object) return [];
  const json = z.toJSONSchema(object, { target: 'draft-2020-12', io: 'input' }) as {
    properties?: Record<string, JsonObject>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function errorResponse(code: ErrorCode): JsonObject {
  const response: JsonObject = {
    description: `\`${code}\`: ${errorCatalogue[code].description}`,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  if (code === 'rate_limited') {
    response.headers = {
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
    };
  }
  return response;
}

/** `task.dates_changed` → `TaskDatesChangedEvent`: the component holding an event type's envelope. */
function eventComponentName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Event`;
}

/** The headers of every delivery (docs/api.md › Deliveries). */
function deliveryHeaders(type: string): JsonObject[] {
  const uuid = { type: 'string', format: 'uuid' };
  return [
    { name: 'Service-Event', in: 'header', required: true, description: 'The event type, as `type` in the body.', schema: { type: 'string', const: type } },
    {
      name: 'Service-Event-Id',
      in: 'header',
      required: true,
      description: 'The event id, as `id` in the body: the same in every delivery of the event; use it to drop duplicates.',
      schema: uuid,
    },
    {
      name: 'Service-Delivery',
      in: 'header',
      required: true,
      description: 'The delivery id: the same in every retry of this delivery (a resend is a new delivery).',
      schema: uuid,
    },
    {
      name: 'Service-Signature',
      in: 'header',
      required: true,
      description:
        "`t=<unix seconds>,v1=<hex>`: `v1` is the hex HMAC-SHA256 of the text `<t>.<raw body>` keyed with the webhook's signing secret (`whsec_…`). Compute it on the raw body before parsing, compare in constant time, and refuse a `t` more than 300 seconds away from your clock.",
      schema: { type: 'string', pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$' },
    },
  ];
}

/** What the receiver answers, and what the service does about it (docs/api.md › Deliveries). */
const deliveryResponses: Record<string, JsonObject> = {
  '2XX': { description: 'Received: any 2xx within 10 seconds. The body is not read beyond its first 1,000 characters, kept in the delivery log.' },
  '410': { description: 'Gone: the webhook is disabled at once; nothing more is sent to it.' },
  default: {
    description:
      'Any other status, a redirect (never followed) or no answer within 10 seconds fails the attempt. It is retried after 1 min, 5 min, 30 min, 2 h and 12 h; when 5 events in a row failed every attempt, the webhook is disabled and its owner is e-mailed (`webhook.ping` does not count).',
  },
};

/**
 * The OpenAPI `webhooks`: one entry per event type a webhook receives (the catalog, the
 * test event, then the opt-in events), whose request body is that type's envelope.
 * Registers the envelopes in `schemas`.
 */
function webhooksOf(schemas: Map<string, z.ZodType>): Record<string, JsonObject> {
  return Object.fromEntries(
    [...listedEvents, ...listedOptInEvents].map(({ type, description }) => {
      const name = eventComponentName(type);
      schemas.set(name, eventEnvelopes[type]);
      const operation = {
        operationId: `on${name.slice(0, -'Event'.length)}`,
        summary: type,
        description,
        // Deliveries carry no API key: receivers check `Service-Signature` instead.
        security: [],
        parameters: deliveryHeaders(type),
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
        responses: deliveryResponses,
      };
      return [type, { post: operation }];
    }),
  );
}

/**
 * Whom an OpenAPI document is for. `integrations`: every operation API keys and OAuth apps
 * may call, the public document. `web-app`: the browser's own operations, which keys and
 * OAuth tokens cannot call: signing up and in (no credential) and what only the person
 * signed in in the web app may do (the session only), such as deleting projects and tasks.
 */
export type OpenApiAudience = 'integrations' | 'web-app';

/** Where the server publishes the document of each audience (no credential needed). */
export const openApiDocumentPaths: Record<OpenApiAudience, string> = {
  integrations: '/api/openapi.json',
  'web-app': '/api/openapi-web-app.json',
};

/** A route that takes a key or an OAuth token is for integrations; one that takes only the session, or no credential, is the web app's. */
export function audienceOf(def: RouteDef): OpenApiAudience {
  return (def.credentials ?? 'bearer') === 'bearer' ? 'integrations' : 'web-app';
}

const schemaRefPrefix = '#/components/schemas/';

/**
 * The named schemas that `roots` refer to, directly or through other named schemas: each
 * document publishes only the schemas of its own operations.
 */
function referencedSchemas(schemas: Record<string, JsonObject>, roots: unknown): Record<string, JsonObject> {
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const name = key === '$ref' && typeof value === 'string' && value.startsWith(schemaRefPrefix) ? value.slice(schemaRefPrefix.length) : undefined;
      if (name === undefined) {
        visit(value);
      } else if (!used.has(name)) {
        used.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit(roots);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
}

/** Who may call: keys, OAuth tokens and web sessions; web sessions only; or anyone. */
function securityOf(def: RouteDef): JsonObject[] {
  if (def.credentials === 'none') return [];
  if (def.credentials === 'session') return [{ session: [] }];
  return [{ apiKey: [] }, { oauth2: [`service:${def.scope}`] }, { session: [] }];
}

/**
 * The security schemes a document's operations name: integrations may call with a key or an
 * OAuth token, and the web app with its session; the web app's own operations take the
 * session only.
 */
function securitySchemesOf(audience: OpenApiAudience, serverUrl: string): Record<string, JsonObject> {
  const session = {
    type: 'apiKey',
    in: 'cookie',
    name: 'gantry_session',
    description:
      'The web session of a person signed in in the browser (set by `POST /api/auth/session`, by verifying the e-mail address or resetting the password, and by the OAuth sign-in page; for browsers, not integrations). Every POST, PUT, PATCH and DELETE it authenticates must send `X-CSRF-Token` (the `csrfToken` of the session) and no foreign `Origin` or `Sec-Fetch-Site`, else 403 with `details.reason = "csrf"`.',
  };
  if (audience === 'web-app') return { session };
  return {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      description: 'A personal API key (`gnt_…`) in `Authorization: Bearer <key>`.',
    },
    session,
    oauth2: {
      type: 'oauth2',
      description: `An OAuth 2.1 access token of an app acting for a person, in \`Authorization: Bearer <token>\`: authorization code with PKCE (S256 only), resource \`${serverUrl}/api\`, dynamic client registration at \`${serverUrl}/api/oauth/register\`, metadata at \`${serverUrl}/.well-known/oauth-authorization-server\`. A token acts exactly like an API key of its scope.`,
      flows: {
        authorizationCode: {
          authorizationUrl: `${serverUrl}/oauth/authorize`,
          tokenUrl: `${serverUrl}/api/oauth/token`,
          refreshUrl: `${serverUrl}/api/oauth/token`,
          scopes: { 'service:read': 'Read everything the person can read', 'service:write': 'Read, create and change (never delete projects or tasks)' },
        },
      },
    },
  };
}

/** What each document says of itself in `info`: its title, and what a schema cannot say. */
function infoOf(audience: OpenApiAudience): { title: string; description: string } {
  const requestLimits = `Request bodies are limited to ${limits.requestBodyMaxBytes} bytes (413 \`payload_too_large\`). Before any field is validated, a request is refused with one 400 \`invalid_request\` if it holds an array of more than ${limits.changesPerChangeSet} items, a string of more than ${limits.descriptionMaxLength} characters or one that is not well-formed Unicode (a lone UTF-16 surrogate), the NUL character, nesting deeper than ${limits.requestBodyMaxDepth} levels, or more than ${limits.requestValuesMax} values in all. A 400 lists at most ${limits.errorFieldsMax} field problems.`;
  if (audience === 'web-app') {
    return {
      title: 'Gantry web app API',
      description: [
        'The operations of the web app itself, for browsers rather than integrations: signing up and in, which take no credential, and what only the person signed in in the web app may do, which takes the `session` cookie, such as deleting projects and tasks, managing API keys or disconnecting apps.',
        `Those that take the session refuse API keys and OAuth tokens: 401 \`unauthorized\`, and for a deletion 403 \`forbidden\` with \`details.reason = "destructive"\`. What keys and OAuth apps may call is the public document, \`${openApiDocumentPaths.integrations}\`; the session may call each of its operations too.`,
        requestLimits,
      ].join('\n\n'),
    };
  }
  return {
    title: 'Gantry API',
    description: [
      'Projects, tasks, dependencies and a scheduling engine that recomputes dates, float and the critical path after every write.',
      `Rate limits per API key, sliding one-minute window: ${limits.readRequestsPerMinute} reads and ${limits.writeRequestsPerMinute} writes.`,
      requestLimits,
      `Keys and OAuth apps can never delete projects or tasks: the API has no such operation, and any attempt answers 403 \`forbidden\` with \`details.reason = "destructive"\`. Deleting, like signing in and the person's own settings, is done in the web app, whose operations are described apart (\`${openApiDocumentPaths['web-app']}\`).`,
      'Subscribed webhooks receive the events under `webhooks`: signed JSON envelopes, delivered at least once and unordered.',
    ].join('\n\n'),
  };
}

/**
 * Builds the OpenAPI 3.1 document of the operations of `routeList` meant for `audience` from
 * the very schemas the server validates with, so the document cannot drift from the behaviour.
 */
export function buildOpenApiDocument(audience: OpenApiAudience, routeList: readonly RouteDef[], serverUrl: string): JsonObject {
  const operations = routeList.filter((def) => audienceOf(def) === audience);
  const requestSchemas = new Map<string, z.ZodType>();
  const errorTable = Object.entries(errorCatalogue).map(([code, entry]) => `- \`${code}\` (${entry.status}): ${entry.description}`);
  const responseSchemas = new Map<string, z.ZodType>([
    ['Error', ErrorBody.describe(`Every error: a stable code and optional details. The codes:\n\n${errorTable.join('\n')}`)],
    ...Object.entries(models),
  ]);
  const paths: Record<string, Record<string, JsonObject>> = {};
  // Receivers of webhooks are integrations.
  const webhooks = audience === 'integrations' ? webhooksOf(responseSchemas) : undefined;

  for (const def of operations) {
    if (def.body) requestSchemas.set(def.body.name, def.body.schema);
    const noContent = def.response.status === 204;
    const { media } = def.response;
    if (!noContent && !media) responseSchemas.set(def.response.name, def.response.schema);

    const success = noContent
      ? { description: def.summary }
      : media
        ? { description: def.summary, content: Object.fromEntries(media.map((type) => [type, { schema: { type: 'string' } }])) }
        : { description: def.summary, content: { 'application/json': { schema: { $ref: `#/components/schemas/${def.response.name}` } } } };
    const responses: Record<string, JsonObject> = { [def.response.status]: success };
    if (def.response.alsoStatus) responses[def.response.alsoStatus] = success;
    const codes = new Set<ErrorCode>([
      ...(def.credentials === 'none' ? commonErrors.filter((code) => code !== 'unauthorized') : commonErrors),
      ...(def.scope === 'write' ? writeErrors : []),
      ...def.errors,
    ]);
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) {
      const status = errorCatalogue[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
      const described = statusCodes.map((code) => errorResponse(code));
      responses[status] = {
        ...described[0],
        description: described.map((response) => response.description).join(' '),
      };
    }

    const operation: JsonObject = {
      operationId: def.operationId,
      tags: [def.tag],
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      'x-required-scope': def.scope,
      security: securityOf(def),
      parameters: [...parametersOf(def.params, 'path'), ...parametersOf(def.query, 'query')],
      responses,
    };
    if (def.body) {
      const files = (def.body.file?.mediaTypes ?? []).map((type) => [type, { schema: { type: 'string' } }]);
      operation.requestBody = {
        required: def.body.required,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${def.body.name}` } }, ...Object.fromEntries(files) },
      };
    }
    paths[def.path] = { ...paths[def.path], [def.method.toLowerCase()]: operation };
  }

  return {
    openapi: '3.1.0',
    info: { ...infoOf(audience), version: API_VERSION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: serverUrl }],
    security: audience === 'integrations' ? [{ apiKey: [] }] : [{ session: [] }],
    tags: [...new Set(operations.map((def) => def.tag))].map((name) => ({ name, description: operationTags[name] })),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      securitySchemes: securitySchemesOf(audience, serverUrl),
      schemas: referencedSchemas({ ...componentsOf(requestSchemas, 'input'), ...componentsOf(responseSchemas, 'output') }, { paths, webhooks }),
    },
  };
}
