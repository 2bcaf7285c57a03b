import type { FastifyBaseLogger } from 'fastify';
import type { DomainContext } from '../domain/context.js';
import { purgeExpired } from '../domain/retention.js';
import { claimDueDeliveries, disableGoneWebhook, dispatchEvents, recordAttempts, webhookToSend, type AttemptOutcome, type ClaimedDelivery } from '../domain/webhooks/deliveries.js';
import { isStoreUnavailable } from '../store/store.js';
import type { LookupResolver } from './destination-guard.js';
import { sendWebhook } from './http-sender.js';
import { signPayload } from './signing.js';

export interface WebhookWorkerOptions {
  ctx: DomainContext;
  log: FastifyBaseLogger;
  /** Seconds before attempt 1, 2, …: `GANTRY_WEBHOOK_RETRY_DELAYS`. */
  retryDelaysSec: readonly number[];
  allowPrivate: boolean;
  /** How often to look for work when idle. */
  pollMs?: number;
  /** Deliveries sent at once, and so claimed per round (default 32). */
  concurrency?: number;
  /**
   * Deliveries claimed per round, when more than `concurrency` (tests that follow one
   * round in order). Those whose lease runs out before their turn wait for the next claim.
   */
  batchSize?: number;
  timeoutMs?: number;
  /** How long a claimed delivery is held (default 60 s, far above the 10 s send timeout). */
  leaseMs?: number;
  /** Tests inject name resolution; production uses the system resolver. */
  resolver?: LookupResolver;
}

/** The attempt of a delivery whose webhook was turned off or deleted before its turn. */
const notSent: AttemptOutcome = { ok: false, status: null, responseExcerpt: '', durationMs: 0, error: 'not sent: the webhook was disabled or deleted meanwhile', gone: false, notSent: true };

/** A delivery lease outlives the 10 s send timeout by far, so one attempt is sent once. */
const DEFAULT_LEASE_MS = 60_000;
const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
const STORE_RETRY_MS = 1000;
const MAX_ROUNDS_AT_ONCE = 4;

/**
 * The webhook worker: fans new outbox events out to deliveries, then claims due
 * deliveries, signs each with its webhook's current secret, sends it (guarded destination,
 * 10 s, no redirects) and records the attempt. Runs inside `gantry serve` or alone as
 * `gantry worker`; several workers share the work through leases in the store.
 */
export class WebhookWorker {
  private readonly rounds = new Set<Promise<number>>();
  /** Ends the pauses in progress, when the worker stops. */
  private readonly wakers = new Set<() => void>();
  private current: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private lastPurge = 0;
  /** Whether the last round found the database unreachable (warned once per outage). */
  private storeAway = false;

  constructor(private readonly options: WebhookWorkerOptions) {}

  /**
   * Runs rounds until stopped. A round lasts as long as its slowest receiver (up to the
   * send timeout), so the next one starts after a poll interval even while it is still
   * sending: a receiver that hangs holds up nobody else's deliveries. At most
   * MAX_ROUNDS_AT_ONCE are in flight.
   */
  start(): void {
    const pollMs = this.options.pollMs ?? 100;
    const loop = async () => {
      while (!this.stopped) {
        const round = this.guardedRound(pollMs);
        this.rounds.add(round);
        void round.then(() => this.rounds.delete(round));
        const poll = this.pause(pollMs);
        const waitMs = await Promise.race([round, poll.done.then(() => 0)]);
        poll.cancel();
        if (this.rounds.size >= MAX_ROUNDS_AT_ONCE) await Promise.race(this.rounds);
        if (waitMs > 0) await this.pause(waitMs).done;
      }
    };
    this.current = loop();
  }

  /** One round that never throws: resolves how long to wait before the next (0 when it found work). */
  private async guardedRound(pollMs: number): Promise<number> {
    try {
      const busy = await this.runOnce();
      this.storeAway = false;
      return busy ? 0 : pollMs;
    } catch (error) {
      const away = isStoreUnavailable(error);
      if (!away) this.options.log.error({ err: error }, 'webhook worker round failed');
      else if (!this.storeAway) this.options.log.warn({ err: error }, 'the database cannot be reached: deliveries wait until it is back');
      this.storeAway = away;
      // Nothing is lost meanwhile (events wait in the outbox, claimed deliveries' leases run out): retry calmly.
      return away ? STORE_RETRY_MS : pollMs;
    }
  }

  /** Waits `ms`, or less when the worker stops or the pause is cancelled (its timer then goes at once). */
  private pause(ms: number): { done: Promise<void>; cancel(): void } {
    let wake = () => undefined as void;
    const done = new Promise<void>((resolve) => {
      wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
    });
    const timer = setTimeout(wake, ms);
    this.wakers.add(wake);
    return { done, cancel: wake };
  }

  /** One round: dispatch, deliver what is due, and hourly drop old logs and whatever else has expired. Resolves true when it found work. */
  async runOnce(): Promise<boolean> {
    const { ctx } = this.options;
    // Most rounds find nothing to do: one read tells, instead of two write transactions
    // that would take the write lock (and, on SQLite, make every cached read be read again).
    const work = await ctx.store.q.webhooks.pendingWork(ctx.clock.now().toISOString());
    const dispatched = work.events ? await dispatchEvents(ctx) : 0;
    // A round claims what it sends at once, so it lasts about one send timeout: far less
    // than the lease, which another worker would otherwise take over while this one still sends.
    const limit = this.options.batchSize ?? this.concurrency;
    const claimed = work.deliveries || dispatched > 0 ? await claimDueDeliveries(ctx, limit, this.options.leaseMs ?? DEFAULT_LEASE_MS) : [];
    if (claimed.length > 0) await recordAttempts(ctx, await this.sendAll(claimed), this.options.retryDelaysSec);
    const now = ctx.clock.now().getTime();
    if (now - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = now;
      await ctx.store.q.webhooks.purgeBefore(new Date(now - RETENTION_MS).toISOString());
      await purgeExpired(ctx);
    }
    return dispatched > 0 || claimed.length > 0;
  }

  private get concurrency(): number {
    return this.options.concurrency ?? 32;
  }

  private async sendAll(claimed: ClaimedDelivery[]) {
    const results: { claimed: ClaimedDelivery; outcome: AttemptOutcome; at: Date }[] = [];
    const queue = [...claimed];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        // Past its lease, another worker may have claimed it: sending too would send it twice.
        if (this.options.ctx.clock.now().toISOString() >= (next.delivery.lease_until ?? '')) continue;
        results.push(await this.send(next));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
    return results;
  }

  private async send(claimed: ClaimedDelivery): Promise<{ claimed: ClaimedDelivery; outcome: AttemptOutcome; at: Date }> {
    const { ctx } = this.options;
    const at = ctx.clock.now();
    const { delivery } = claimed;
    // The webhook as it is now, not as claimed: a round takes up to the send timeout per
    // delivery, and a rotation, a deletion or a 410 meanwhile must count at once. When the
    // store does not answer, the claimed one is sent: the round's attempts must be recorded.
    const webhook = await webhookToSend(ctx, claimed.webhook.id).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'webhook delivery: could not read the webhook again; sending as claimed');
      return claimed.webhook;
    });
    if (!webhook) return { claimed, outcome: notSent, at };
    const outcome = await sendWebhook(
      {
        url: webhook.url,
        body: delivery.payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Gantry-Webhooks/1',
          'service-event': delivery.event_type,
          'service-event-id': delivery.event_id,
          'service-delivery': delivery.id,
          'service-signature': signPayload(webhook.secret, delivery.payload, Math.floor(at.getTime() / 1000)),
        },
      },
      { allowPrivate: this.options.allowPrivate, timeoutMs: this.options.timeoutMs, resolver: this.options.resolver },
    );
    // When this fails, recording the attempt disables the webhook all the same.
    if (outcome.gone) await disableGoneWebhook(ctx, webhook.id).catch((error: unknown) => this.options.log.warn({ err: error }, 'webhook delivery: could not disable a gone webhook yet'));
    return { claimed, outcome, at };
  }

  /** Stops after the rounds in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of this.wakers) wake();
    await this.current;
    await Promise.all(this.rounds);
  }
}
