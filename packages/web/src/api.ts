import { ApiError, client, describeError } from './client';

export { ApiError, describeError };

/** The session's CSRF token, sent with every request that changes something (docs/api.md › Web sessions). */
export const setCsrfToken = client.setCsrfToken;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Calls the REST API by method and path: what the pages not yet moved to the typed client
 * (`call` in client.ts, issue 28) still use. Same session, CSRF token and errors.
 */
export function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  return client.request(method, path, body) as Promise<T>;
}
