import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { API_VERSION, type Scope } from '@gantry/contract';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, DomainContext } from '../domain/context.js';
import { AppError } from '../domain/errors.js';
import { buildMcpServer, scopeOfTool, type McpCaller } from './server.js';

/** What the HTTP app lends the MCP endpoint: its one authentication and its rate limits. */
export interface McpHttp {
  /** The app's authentication of a request, for the MCP resource (401 otherwise); sets `request.actor`, so the call is audited. */
  authenticate(request: FastifyRequest, resource: 'mcp'): Promise<Actor>;
  /** Counts the call against the credential's read or write budget (429 when spent). */
  rateLimit(actor: Actor, request: FastifyRequest, reply: FastifyReply, kind: 'read' | 'write'): Promise<void>;
}

/** OAuth scopes as MCP clients ask for them; `service:write` includes `service:read`. */
const oauthScope = { read: 'service:read', write: 'service:write' } as const;

/**
 * The MCP endpoint at `/mcp`: Streamable HTTP, stateless (no session is held between
 * requests, so any server process answers any request). 2026-07-28 clients are served per
 * request (`server/discover`, the version in every request); 2025-11-25 clients get the
 * `initialize` handshake, each request answered by a fresh server from the same factory.
 *
 * Before the SDK sees a request: the `Origin`, when a browser sends one, must be the
 * service's own (403), then authentication (401 with a `WWW-Authenticate` challenge
 * naming the protected-resource metadata), the rate limit (a `tools/call` of a write tool
 * counts as a write, anything else as a read; each message of a batch counts), and the scope of the tool called (403
 * `insufficient_scope` challenge, so a client can ask for more).
 */
export async function mcpRoutes(app: FastifyInstance, ctx: DomainContext, http: McpHttp): Promise<void> {
  const resourceMetadata = `${ctx.baseUrl}/.well-known/oauth-protected-resource/mcp`;
  const allowedOrigin = new URL(ctx.baseUrl).origin;
  const handler = createMcpHandler(({ authInfo }) => buildMcpServer(authInfo?.extra?.caller as McpCaller, API_VERSION), {
    legacy: 'stateless',
    onerror: (error) => app.log.debug({ err: error }, 'MCP request refused'),
  });
  app.addHook('onClose', () => handler.close());

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/mcp',
    handler: async (request, reply) => {
      // DNS-rebinding defence (MCP transport spec): a browser page of another origin is refused.
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== allowedOrigin) {
        return reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32003, message: `requests from the origin ${origin} are not accepted`, data: { error: 'forbidden', reason: 'origin' } } });
      }
      let actor: Actor;
      try {
        actor = await http.authenticate(request, 'mcp');
      } catch (error) {
        if (error instanceof AppError && error.code === 'unauthorized') {
          const presented = request.headers.authorization !== undefined;
          reply.header(
            'www-authenticate',
            `Bearer ${presented ? 'error="invalid_token", ' : ''}resource_metadata="${resourceMetadata}", scope="${oauthScope.read} ${oauthScope.write}"`,
          );
        }
        throw error;
      }
      // Each message of a batch (2025-03-26 clients) counts, as it would sent alone.
      const scopes = (Array.isArray(request.body) && request.body.length > 0 ? request.body : [request.body]).map(scopeOfCall);
      for (const scope of scopes) await http.rateLimit(actor, request, reply, scope ?? 'read');
      if (scopes.includes('write') && actor.scope !== 'write') {
        const message = 'this credential is read-only; the tool needs the service:write scope';
        return reply
          .code(403)
          .header('www-authenticate', `Bearer error="insufficient_scope", scope="${oauthScope.write}", resource_metadata="${resourceMetadata}", error_description="${message}"`)
          .send({ jsonrpc: '2.0', id: requestId(request.body), error: { code: -32003, message, data: { error: 'forbidden', reason: 'insufficient_scope', scope: oauthScope.write } } });
      }

      const caller: McpCaller = { ctx, actor, log: request.log };
      const authInfo: AuthInfo = { token: '', clientId: actor.credential.id, scopes: scopesOf(actor), extra: { caller } };
      const closed = new AbortController();
      reply.raw.on('close', () => closed.abort());
      const response = await handler.fetch(webRequest(request, ctx.baseUrl, closed.signal), { authInfo, parsedBody: request.body ?? undefined });
      reply.code(response.status);
      response.headers.forEach((value, name) => void (framing.has(name) ? undefined : reply.header(name, value)));
      if (!response.body) return reply.send();
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) return reply.send(Readable.fromWeb(response.body as WebReadableStream));
      return reply.send(Buffer.from(await response.arrayBuffer()));
    },
  });
}

function scopesOf(actor: Actor): string[] {
  return actor.scope === 'write' ? [oauthScope.read, oauthScope.write] : [oauthScope.read];
}

/** The scope the tool a JSON-RPC `tools/call` names needs (undefined for any other message, or an unknown tool). */
function scopeOfCall(body: unknown): Scope | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  return message.method === 'tools/call' ? scopeOfTool(message.params?.name) : undefined;
}

function requestId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Headers about one HTTP message and its connection, which Node sets itself: not passed between the app and the SDK. */
const framing = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);

/** The request as the SDK's web-standard face takes it; the body, already parsed by the app, is passed beside it. */
function webRequest(request: FastifyRequest, baseUrl: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !framing.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`${baseUrl}${request.url}`, { method: request.method, headers, signal });
}
