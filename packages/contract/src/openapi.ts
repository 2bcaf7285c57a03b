import { z } from 'zod';
import { ErrorBody } from './common.js';
import { errorCatalogue, type ErrorCode } from './errors.js';
import { API_VERSION, limits } from './limits.js';
import { Member } from './resources/members.js';
import { Project, ProjectListItem } from './resources/projects.js';
import { Assignee, Conflict, Dependency, PlanTask, Task } from './resources/tasks.js';
import { User } from './resources/users.js';
import { Delivery, Webhook } from './resources/webhooks.js';
import { Workspace } from './resources/workspaces.js';
import type { RouteDef } from './routes.js';

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

/**
 * Builds the OpenAPI 3.1 document of the given operations from the very schemas the
 * server validates with, so the document cannot drift from the behaviour.
 */
export function buildOpenApiDocument(routeList: readonly RouteDef[], serverUrl: string): JsonObject {
  const requestSchemas = new Map<string, z.ZodType>();
  const errorTable = Object.entries(errorCatalogue).map(([code, entry]) => `- \`${code}\` (${entry.status}): ${entry.description}`);
  const responseSchemas = new Map<string, z.ZodType>([
    ['Error', ErrorBody.describe(`Every error: a stable code and optional details. The codes:\n\n${errorTable.join('\n')}`)],
    ...Object.entries(models),
  ]);
  const paths: Record<string, Record<string, JsonObject>> = {};

  for (const def of routeList) {
    if (def.body) requestSchemas.set(def.body.name, def.body.schema);
    responseSchemas.set(def.response.name, def.response.schema);

    const success = {
      description: def.summary,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${def.response.name}` } } },
    };
    const responses: Record<string, JsonObject> = { [def.response.status]: success };
    if (def.response.alsoStatus) responses[def.response.alsoStatus] = success;
    const codes = new Set<ErrorCode>([
      ...commonErrors,
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
      parameters: [...parametersOf(def.params, 'path'), ...parametersOf(def.query, 'query')],
      responses,
    };
    if (def.body) {
      operation.requestBody = {
        required: def.body.required,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${def.body.name}` } } },
      };
    }
    paths[def.path] = { ...paths[def.path], [def.method.toLowerCase()]: operation };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Gantry API',
      version: API_VERSION,
      description: [
        'Projects, tasks, dependencies and a scheduling engine that recomputes dates, float and the critical path after every write.',
        `Rate limits per API key, sliding one-minute window: ${limits.readRequestsPerMinute} reads and ${limits.writeRequestsPerMinute} writes.`,
        `Request bodies are limited to ${limits.requestBodyMaxBytes} bytes.`,
        'Keys and OAuth apps can never delete projects or tasks: any such attempt answers 403 `forbidden` with `details.reason = "destructive"`.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    tags: [...new Set(routeList.map((def) => def.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API key (`gnt_…`) in `Authorization: Bearer <key>`.',
        },
      },
      schemas: {
        ...componentsOf(requestSchemas, 'input'),
        ...componentsOf(responseSchemas, 'output'),
      },
    },
  };
}
