import { createHash } from 'node:crypto';
import type { Actor, DomainContext } from './context.js';
import { nowIso } from './context.js';
import { conflict, invalid } from './errors.js';

/** How long a key is remembered; a retry after that runs again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/**
 * `Idempotency-Key` on POST, as Stripe does it: the first request with a key runs and its
 * success is stored; a retry with the same key and the same request gets the stored
 * response again instead of running twice. Keys are per user, kept 24 hours.
 */
export class IdempotentRequest {
  private constructor(
    private readonly ctx: DomainContext,
    private readonly userId: string,
    private readonly key: string,
  ) {}

  /**
   * Claims the key for this request, or returns the response stored for it. 409 when the
   * key is in use by a request still running (or one that never completed), or was used
   * with a different request.
   */
  static async begin(ctx: DomainContext, actor: Actor, key: string, request: { method: string; path: string; body: unknown }): Promise<IdempotentRequest | StoredResponse> {
    if (key.length === 0 || key.length > 255) throw invalid([{ path: 'headers.idempotency-key', message: 'must be 1-255 characters' }]);
    const fingerprint = createHash('sha256').update(`${request.method} ${request.path}\n${JSON.stringify(request.body ?? null)}`).digest('hex');
    const outbox = ctx.store.q.outbox;
    const now = ctx.clock.now();
    await outbox.purgeIdempotency(new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString());
    const claimed = await outbox.claimIdempotency({ user_id: actor.userId, key, fingerprint, status: null, response: null, created_at: nowIso(ctx) });
    if (claimed) return new IdempotentRequest(ctx, actor.userId, key);
    const existing = await outbox.findIdempotency(actor.userId, key);
    if (existing && existing.fingerprint !== fingerprint) {
      throw conflict('this Idempotency-Key was already used with a different request; use a new key for a new request');
    }
    if (!existing || existing.status === null || existing.response === null) {
      throw conflict('a request with this Idempotency-Key is still running, or stopped before it completed; check the result before retrying with a new key');
    }
    return { status: existing.status, body: JSON.parse(existing.response) as unknown };
  }

  /** Stores the success to replay. */
  async complete(status: number, body: unknown): Promise<void> {
    await this.ctx.store.q.outbox.completeIdempotency(this.userId, this.key, status, JSON.stringify(body));
  }

  /** Forgets the key after a failure, so that a retry runs again. */
  async release(): Promise<void> {
    await this.ctx.store.q.outbox.releaseIdempotency(this.userId, this.key);
  }
}
