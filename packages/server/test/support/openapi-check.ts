import { buildOpenApiDocument, openApiDocumentPaths, routes, type OpenApiAudience } from '@gantry/contract';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Operation = { responses: Record<string, { content?: { 'application/json': { schema: { $ref: string } } } }> };
type Delivery = {
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Delivery }>;
  components: { schemas: Record<string, unknown> };
};

const audiences = Object.keys(openApiDocumentPaths) as OpenApiAudience[];
/** The documents the server publishes: what integrations may call, and the web app's own operations. */
const openApiDocuments = Object.fromEntries(
  audiences.map((audience) => [audience, buildOpenApiDocument(audience, Object.values(routes), 'http://localhost:3000') as unknown as Doc]),
) as Record<OpenApiAudience, Doc>;
const publicDocument = openApiDocuments.integrations;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const audience of audiences) ajv.addSchema({ $id: audience, components: openApiDocuments[audience].components });

const templates = audiences.flatMap((audience) =>
  Object.keys(openApiDocuments[audience].paths).map((template) => ({
    audience,
    template,
    pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
  })),
);
const cache = new Map<string, ValidateFunction>();

function validatorFor(audience: OpenApiAudience, ref: string): ValidateFunction {
  const key = `${audience}${ref}`;
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.getSchema(key) as ValidateFunction;
    cache.set(key, validate);
  }
  return validate;
}

/**
 * Checks a response against the OpenAPI document: a documented route must document
 * the status, and the body must match its schema; anything else must be an Error body.
 * Returns the problems (empty when it matches).
 */
export function openApiProblems(method: string, pathname: string, status: number, body: unknown): string[] {
  // A path may be in both documents, each with its own methods (`DELETE /api/projects/{projectId}` is the web app's).
  const matches = templates.filter(({ pattern }) => pattern.test(pathname));
  const match = matches.find(({ audience, template }) => openApiDocuments[audience].paths[template]?.[method.toLowerCase()]) ?? matches[0];
  const audience = match?.audience ?? 'integrations';
  const operation = match ? openApiDocuments[match.audience].paths[match.template]?.[method.toLowerCase()] : undefined;
  let ref = '#/components/schemas/Error';
  if (operation) {
    const response = operation.responses[String(status)];
    if (!response) return [`${method} ${match?.template} does not document status ${status}`];
    if (status < 400 && !response.content) return body === null ? [] : [`${method} ${match?.template} documents no body for status ${status}`];
    ref = response.content?.['application/json'].schema.$ref ?? ref;
  } else if (status < 400) {
    return [];
  }
  const validate = validatorFor(audience, ref);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${ref} ${error.instancePath} ${error.message}`);
}

/**
 * Checks a webhook delivery against the document's `webhooks` entry of its type: the
 * documented headers (`headers` as Node gives them, lower-case) and the body. Returns the
 * problems (empty when it matches).
 */
export function webhookProblems(headers: Record<string, string | string[] | undefined>, body: unknown): string[] {
  const type = (body as { type?: unknown } | null)?.type;
  const delivery = typeof type === 'string' ? publicDocument.webhooks?.[type]?.post : undefined;
  if (!delivery) return [`event type ${String(type)} is not documented under webhooks`];
  const problems: string[] = [];
  for (const parameter of delivery.parameters.filter((p) => p.in === 'header')) {
    const value = headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      if (parameter.required) problems.push(`header ${parameter.name} is missing`);
    } else if (!ajv.validate(parameter.schema, value)) {
      problems.push(`header ${parameter.name} ${JSON.stringify(value)} ${ajv.errorsText()}`);
    }
  }
  const ref = delivery.requestBody.content['application/json'].schema.$ref;
  const validate = validatorFor('integrations', ref);
  if (!validate(body)) problems.push(...(validate.errors ?? []).map((error) => `${ref} ${error.instancePath} ${error.message}`));
  return problems;
}
