/**
 * The error catalogue: every stable `error` code the API can answer with, its HTTP
 * status and what it means. The server maps errors to HTTP only through this table,
 * and a test checks it against the OpenAPI document and docs/api.md.
 */
export const errorCatalogue = {
  invalid_request: {
    status: 400,
    description:
      'Malformed request: bad JSON, a body that is not a JSON object, wrong content type, input beyond the request limits, or a field that fails validation. `details.fields` lists the problems as `{path, message}` (at most 100; `details.fieldsOmitted` counts the rest).',
  },
  unauthorized: {
    status: 401,
    description: 'The credential (API key, OAuth access token or web session) is missing, invalid, revoked or expired, or the e-mail and password of a sign-in are not right.',
  },
  forbidden: {
    status: 403,
    description: 'The key scope or the caller\'s role does not allow this (a read-only key writing, a viewer editing, a key or app deleting). `details.reason` says which: `insufficient_scope`, `insufficient_role`, `workspace_restricted`, `destructive`, `session_required` (only the signed-in person may do it), `invite_for_another_email`, `csrf` (a web-session write without the session\'s `X-CSRF-Token`, or from another site: a foreign `Origin` or `Sec-Fetch-Site`) or `email_unverified` (signing in before verifying the e-mail address).',
  },
  not_found: {
    status: 404,
    description: 'Not found, or not visible to the caller.',
  },
  conflict: {
    status: 409,
    description:
      'The request conflicts with the current state (for example a project key already used in the workspace, a key that is locked, or a calendar something works on being deleted: `details.usedBy`).',
  },
  dependency_cycle: {
    status: 409,
    description: 'The dependency would close a cycle. `details.cycles` lists cycles as `{path, taskIds, taskNames}`: shortest cycles, chosen so that every link on a cycle is in one of them (not every cycle: their number can grow exponentially).',
  },
  payload_too_large: {
    status: 413,
    description: 'The request body is larger than the documented limit (`details.limitBytes`).',
  },
  limit_exceeded: {
    status: 422,
    description: 'A documented quota would be exceeded (`details.limit`).',
  },
  rate_limited: {
    status: 429,
    description: 'Rate limit exceeded. Wait `Retry-After` seconds (`details.retryAfterSec`) before retrying.',
  },
  server_error: {
    status: 500,
    description: 'Server-side fault; retry with exponential backoff.',
  },
  service_unavailable: {
    status: 503,
    description: 'The service is shutting down or its store cannot be reached; retry with exponential backoff.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** One problem with a request field, as listed in `details.fields`. */
export interface FieldProblem {
  /** Dotted path into the request (`body.name`, `query.limit`, `createTasks[3].durationMin`). */
  path: string;
  message: string;
}
