import type { RouteDef, RouteName, Routes } from '@gantry/contract';
import routeTable from 'virtual:api-routes';
import type { z } from 'zod';

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

/** What to show a person for a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = error.fields.map((field) => `${field.path}: ${field.message}`);
    return fields.length > 0 ? fields.join('; ') : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

// A route's parts as the caller writes them. A part the route does not have is `never`: the
// route's definition leaves its schema at the default, whose keys are any string.
type Declared<Schema> = Schema extends z.ZodType ? (string extends keyof z.input<Schema> ? never : z.input<Schema>) : never;
type ParamsOf<Route> = Route extends RouteDef<infer Params, z.ZodObject, z.ZodType, z.ZodType> ? Declared<Params> : never;
type QueryOf<Route> = Route extends RouteDef<z.ZodObject, infer Query, z.ZodType, z.ZodType> ? Declared<Query> : never;
type BodyOf<Route> = Route extends { body?: { schema: infer Body } } ? (unknown extends z.input<Body & z.ZodType> ? never : z.input<Body & z.ZodType>) : never;
type Optional<Key extends string, Value> = [Value] extends [never] ? { [K in Key]?: never } : { [K in Key]: Value };

/** What a call of the route sends: its path parameters, query and body, each only where the route has one. */
export type CallInput<Name extends RouteName> = Optional<'params', ParamsOf<Routes[Name]>> &
  Partial<Optional<'query', QueryOf<Routes[Name]>>> &
  Optional<'body', BodyOf<Routes[Name]>>;
/** What the route answers on success. */
export type CallResult<Name extends RouteName> = z.output<Routes[Name]['response']['schema']>;

/** Calls one route of the contract by its name, with the types of its request and answer. */
export type Call = <Name extends RouteName>(name: Name, ...input: keyof CallInput<Name> extends never ? [] : Partial<CallInput<Name>> extends CallInput<Name> ? [CallInput<Name>?] : [CallInput<Name>]) => Promise<CallResult<Name>>;
/** The address of a GET route with its parameters and query, for what the browser fetches itself (a download link). */
export type Href = <Name extends RouteName>(name: Name, input: Omit<CallInput<Name>, 'body'>) => string;

export interface ClientOptions {
  /** Where the API is: the page's own origin in the browser. */
  baseUrl?: string;
  /** Headers sent with every call (a test's session cookie). */
  headers?: Record<string, string>;
}

/** The API as the signed-in person: the session cookie goes along by itself, the CSRF token in its header. */
export interface Client {
  call: Call;
  href: Href;
  /** The session's CSRF token, sent with every request that changes something (docs/api.md › Web sessions). */
  setCsrfToken(token: string | null): void;
}

/** The route's path with its parameters filled in, and its query. */
function urlOf(template: string, params: Record<string, unknown> = {}, query: Record<string, unknown> = {}): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

export function createClient(options: ClientOptions = {}): Client {
  let csrfToken: string | null = null;
  const request = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
    const response = await fetch(`${options.baseUrl ?? ''}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return undefined;
    const data = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok) {
      const details = (data?.details ?? {}) as Record<string, unknown>;
      const fields = Array.isArray(details.fields) ? (details.fields as { path: string; message: string }[]) : [];
      throw new ApiError(response.status, String(data?.error ?? 'server_error'), String(data?.message ?? response.statusText), fields, details);
    }
    return data;
  };
  const call = (name: RouteName, input: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } = {}) => {
    const [method, template] = routeTable[name];
    return request(method, urlOf(template, input.params, input.query), input.body);
  };
  const href = (name: RouteName, input: { params?: Record<string, unknown>; query?: Record<string, unknown> }) =>
    `${options.baseUrl ?? ''}${urlOf(routeTable[name][1], input.params, input.query)}`;
  return {
    call: call as Call,
    href: href as Href,
    setCsrfToken: (token) => {
      csrfToken = token;
    },
  };
}

/** The web app's client: same origin, the session's cookie. */
export const client = createClient();
export const call = client.call;
export const href = client.href;
