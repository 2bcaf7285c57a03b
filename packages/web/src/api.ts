/** A refused request: the API's stable error code, its message and the fields it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: { path: string; message: string }[] = [],
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The message for one field of a form, if the API named it. */
  field(path: string): string | undefined {
    return this.fields.find((field) => field.path === path)?.message;
  }
}

let csrfToken: string | null = null;

/** The session's CSRF token, sent with every request that changes something (docs/api.md › Web sessions). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Calls the REST API as the signed-in person: the session cookie goes along by itself,
 * the CSRF token in its header. Answers the parsed body, or throws an ApiError.
 */
export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  if (response.status === 204) return undefined as T;
  const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    const details = (data?.details ?? {}) as Record<string, unknown>;
    const fields = Array.isArray(details.fields) ? (details.fields as { path: string; message: string }[]) : [];
    throw new ApiError(response.status, String(data?.error ?? 'server_error'), String(data?.message ?? response.statusText), fields, details);
  }
  return data as T;
}

/** What to show a person for a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.fields.map((field) => `${field.path}: ${field.message}`);
    return fields.length > 0 ? fields.join('; ') : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
