import { takesDryRun } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../domain/context.js';
import { FileDownload, perform, RawJson, requireScope, type Operation } from '../domain/operation.js';
import { operations } from '../domain/operations.js';
import { invalid } from '../domain/errors.js';
import { sessionCookie } from '../domain/sessions.js';
import { authenticate, authenticatePerson, clientInfo, enforceRateLimit, refuseBearerDeletion, type RateLimiters } from './auth.js';

/** A request body sent as a file (`Content-Type: application/xml`), not as JSON. */
export class FileBody {
  constructor(readonly text: string) {}
}

/** The JSON body an operation reads: a file sent as the body becomes its file field; routes without one refuse it. */
function bodyOf(def: Operation['def'], body: unknown): unknown {
  if (!(body instanceof FileBody)) return body;
  if (!def.body?.file) throw invalid([{ path: 'headers.content-type', message: 'request bodies must be sent as application/json' }]);
  return { [def.body.file.field]: body.text };
}

export interface RouteDeps {
  ctx: DomainContext;
  limiters: RateLimiters;
}

/**
 * Binds every operation of the domain's table to its contract route. Before the body is
 * even read: the credential is authenticated (401), counted against its rate limit (429)
 * and checked for the operation's scope (403 — `perform` checks it again, so no adapter
 * can skip it); a deletion sent with an API key or OAuth token is refused (403 destructive). Then `perform` validates (404/400), runs and answers; `Idempotency-Key`
 * makes a POST safe to retry.
 */
export function bindOperations(app: FastifyInstance, deps: RouteDeps): void {
  for (const operation of Object.values(operations) as Operation[]) {
    const { def } = operation;
    const dryRunnable = takesDryRun(def);
    app.route({
      method: def.method,
      url: def.path.replace(/\{(\w+)\}/g, ':$1'),
      // Read by the error handler: a body over the limit is a problem of the file it carries.
      config: { fileField: def.body?.file?.field },
      onRequest: async (request, reply) => {
        // Without a credential (signing up and in): limited per client address by the domain.
        if (def.credentials === 'none') return;
        // A deletion with a bearer credential is refused as such (403), not as a missing session (401).
        if (def.destructive && request.headers.authorization !== undefined) return refuseBearerDeletion(deps.ctx, deps.limiters, request, reply);
        const actor = def.credentials === 'session' ? await authenticatePerson(deps.ctx, request) : await authenticate(deps.ctx, request);
        await enforceRateLimit(deps.limiters, actor, request, reply);
        requireScope(actor, def.scope);
      },
      handler: async (request, reply) => {
        const idempotencyKey = request.headers['idempotency-key'];
        const outcome = await perform(
          deps.ctx,
          request.actor,
          operation,
          { params: request.params, query: request.query, body: bodyOf(def, request.body) },
          {
            idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
            dryRun: dryRunnable && (request.query as { dryRun?: unknown }).dryRun === 'true',
            client: clientInfo(request),
            requestTarget: request.url,
          },
        );
        if (outcome.replayed) reply.header('idempotent-replayed', 'true');
        if (outcome.session !== undefined) reply.header('set-cookie', sessionCookie(deps.ctx.baseUrl, outcome.session?.token ?? null)).header('cache-control', 'no-store');
        if (outcome.status === 204) return reply.code(204).send();
        if (outcome.body instanceof RawJson) return reply.code(outcome.status).type('application/json; charset=utf-8').send(outcome.body.bytes);
        if (outcome.body instanceof FileDownload) {
          const { bytes, mediaType, filename } = outcome.body;
          // The name is ASCII (a project key and an extension): no RFC 5987 form needed.
          return reply.code(outcome.status).type(mediaType).header('content-disposition', `attachment; filename="${filename}"`).send(bytes);
        }
        return reply.code(outcome.status).send(outcome.body);
      },
    });
  }
}
