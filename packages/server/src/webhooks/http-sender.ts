import { performance } from 'node:perf_hooks';
import { Agent, fetch as undiciFetch, request } from 'undici';
import {
  checkWebhookUrl,
  guardedLookup,
  systemResolver,
  WEBHOOK_DESTINATION_ERROR_CODE,
} from './destination-guard.js';
import type { DomainContext } from '../domain/context.js';
import type { AttemptOutcome } from '../domain/webhooks/deliveries.js';
import type { LookupResolver } from './destination-guard.js';

// The only code that sends HTTP requests to addresses users name: webhook deliveries, and
// (`guardedFetch`) OAuth client metadata documents. Every request goes through an undici
// Agent whose connector resolves names with `guardedLookup`, so the socket connects to the
// address that was judged public; IP-literal URLs never reach a lookup, so they are judged
// by `checkWebhookUrl` before each send.

/** docs/api.md › Limits: the receiver must answer within 10 seconds. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Response body bytes read at most; the rest is discarded and the connection closed. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Characters (code points) of the response body kept for the delivery log. */
const EXCERPT_CHARS = 1_000;
const HTTP_GONE = 410;

/** One signed delivery attempt, ready to send. */
export interface WebhookRequest {
  /** The subscription URL; re-checked with `checkWebhookUrl` on every send. */
  url: string;
  /** The exact raw body that was signed (sent UTF-8 encoded, byte for byte). */
  body: string;
  /** Sent as given (`Content-Type`, `Service-Signature` …); `Content-Length` is computed. */
  headers: Record<string, string>;
}

/** How to send; one shared connection pool is kept per distinct set of options. */
export interface SendOptions {
  /** Development/tests only: permit `http:` and private, loopback … destinations. */
  allowPrivate: boolean;
  /** Whole-request deadline (connect, headers and body), milliseconds; default 10 000. */
  timeoutMs?: number;
  /** Name resolution; default `dns.promises.lookup(…, { all: true })`. */
  resolver?: LookupResolver;
  /** Tests only: the certificate authority of a loopback HTTPS server (PEM), trusted besides the system's. */
  ca?: string;
}

/** Outcome of one attempt, as recorded in the delivery log (the domain's type). */
export type SendResult = AttemptOutcome;

const agents = new Map<LookupResolver, Map<string, Agent>>();

function agentFor(allowPrivate: boolean, timeoutMs: number, resolver: LookupResolver, ca?: string): Agent {
  let byOptions = agents.get(resolver);
  if (byOptions === undefined) {
    byOptions = new Map();
    agents.set(resolver, byOptions);
  }
  const key = `${allowPrivate}:${timeoutMs}:${ca ?? ''}`;
  let agent = byOptions.get(key);
  if (agent === undefined) {
    agent = new Agent({
      // Net/TLS connect with our lookup: the socket uses exactly the addresses judged there.
      connect: { lookup: guardedLookup(resolver, { allowPrivate }), timeout: timeoutMs, ...(ca ? { ca } : {}) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // No redirect interceptor is composed in: undici v7 never follows redirects without
      // one, so a 3xx is returned to us as is: redirects are never followed.
    });
    byOptions.set(key, agent);
  }
  return agent;
}

/**
 * Releases every pooled connection of every Agent created by {@link sendWebhook}. Later
 * sends create fresh Agents. Call at worker shutdown and after tests.
 */
export async function close(): Promise<void> {
  const all = [...agents.values()].flatMap((byOptions) => [...byOptions.values()]);
  agents.clear();
  await Promise.all(all.map((agent) => agent.close()));
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Finds the most specific `code` along an error's `cause` chain (undici wraps socket errors). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

function describeError(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if ((current as NodeJS.ErrnoException).code === WEBHOOK_DESTINATION_ERROR_CODE) return current.message;
    current = current.cause;
  }
  if (!(error instanceof Error)) return String(error);
  const code = errorCodes(error)[0];
  return code !== undefined && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}

function excerptOf(bytes: Uint8Array[]): string {
  const text = new TextDecoder('utf-8').decode(Buffer.concat(bytes));
  // Slice by code points, not UTF-16 units, so no surrogate pair is cut in half.
  return Array.from(text.slice(0, EXCERPT_CHARS * 2)).slice(0, EXCERPT_CHARS).join('');
}

/**
 * Sends one webhook delivery: `POST` of `request.body` with `request.headers` to
 * `request.url`, never following redirects.
 *
 * - The URL is re-checked with `checkWebhookUrl`; a host name is resolved by the guarded
 *   lookup, which refuses the connection if any address is not public (unless
 *   `allowPrivate`). A refusal never opens a socket.
 * - Any 2xx is success; a 3xx is a failure carrying its status (the `Location` is not
 *   visited); 410 also sets `gone`.
 * - `timeoutMs` bounds the whole attempt, from connecting until the body has been read;
 *   exceeding it gives `error: 'timeout'` (with `status` if headers had arrived).
 * - At most 64 KiB of the response body is read; the excerpt is its first 1 000 characters.
 *
 * Never throws or rejects: refusals, network errors and timeouts are results.
 */
export async function sendWebhook(webhook: WebhookRequest, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const failure = (error: string, status: number | null = null, responseExcerpt = ''): SendResult => ({
    ok: false,
    status,
    responseExcerpt,
    durationMs: elapsed(),
    error,
    gone: status === HTTP_GONE,
  });

  const checked = checkWebhookUrl(webhook.url, { allowPrivate: options.allowPrivate });
  if (!checked.ok) return failure(`webhook destination refused: ${checked.reason}`);
  const timeoutMs =
    options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs) && options.timeoutMs > 0
      ? options.timeoutMs
      : DEFAULT_WEBHOOK_TIMEOUT_MS;
  const dispatcher = agentFor(options.allowPrivate, timeoutMs, options.resolver ?? systemResolver);

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  let status: number | null = null;
  const chunks: Uint8Array[] = [];
  try {
    const response = await request(checked.url, {
      dispatcher,
      method: 'POST',
      headers: webhook.headers,
      body: webhook.body,
      signal: controller.signal,
    });
    status = response.statusCode;
    let received = 0;
    for await (const chunk of response.body) {
      const bytes = chunk as Uint8Array;
      chunks.push(bytes);
      received += bytes.byteLength;
      // Leaving the loop destroys the body stream, closing the connection: a receiver
      // cannot make the worker download an unbounded answer.
      if (received >= MAX_RESPONSE_BYTES) break;
    }
    const responseExcerpt = excerptOf(chunks);
    if (status >= 200 && status < 300) {
      return { ok: true, status, responseExcerpt, durationMs: elapsed(), error: null, gone: false };
    }
    const error =
      status >= 300 && status < 400 ? `redirect not followed (HTTP ${status})` : `unexpected HTTP status ${status}`;
    return failure(error, status, responseExcerpt);
  } catch (error) {
    const isTimeout = timedOut || errorCodes(error).some((code) => TIMEOUT_CODES.has(code));
    return failure(isTimeout ? 'timeout' : describeError(error), status, excerptOf(chunks));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A `fetch` for the service's other requests to addresses users name (OAuth client
 * metadata documents): the URL rules and the connect-time address guard of webhook
 * deliveries, redirects never followed. A refused destination rejects before any socket
 * is opened.
 */
export function guardedFetch(options: SendOptions): NonNullable<DomainContext['publicFetch']> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  return async (input, init = {}) => {
    const checked = checkWebhookUrl(input instanceof Request ? input.url : String(input), { allowPrivate: options.allowPrivate });
    if (!checked.ok) throw Object.assign(new Error(`destination refused: ${checked.reason}`), { code: WEBHOOK_DESTINATION_ERROR_CODE });
    const dispatcher = agentFor(options.allowPrivate, timeoutMs, options.resolver ?? systemResolver, options.ca);
    // The caller's own dispatcher, if any, is replaced: ours is the one that guards.
    const response = await undiciFetch(checked.url, { ...(init as object), dispatcher, redirect: 'manual' });
    return response as unknown as Response;
  };
}
