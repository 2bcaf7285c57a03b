import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Credential } from '../domain/context.js';
import type { Store } from '../store/store.js';
import { isRead } from './auth.js';

export interface AuditEntry {
  credential: Credential;
  userId: string;
  method: string;
  path: string;
  status: number;
  requestId: string;
  durationMs: number;
  at: Date;
}

/**
 * A UUIDv7: the entry's time in milliseconds first, then random bits. Entries written in
 * time order land at the end of the primary-key index, instead of on a random page of it
 * (a random UUID costs a page search and, often, a split per row).
 */
export function timeOrderedId(ms: number): string {
  const time = ms.toString(16).padStart(12, '0');
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: keep the random digits and the variant
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** An entry waiting to be written: one call, or a burst of identical reads. */
interface PendingEntry {
  entry: AuditEntry;
  calls: number;
}

/**
 * Records every authenticated call. Entries are written in batches (every 200 ms or
 * 500 entries) so that logging a read never costs the read a write transaction;
 * `flush()` on shutdown writes the rest. Identical reads (same credential, method, path
 * and status) within one batch share an entry that counts them (`calls`), with the first
 * call's time and request id and the longest duration: a client polling in a loop costs
 * the log a row per batch, not a row per read. Every write is an entry of its own.
 */
export class AuditLog {
  private pending: PendingEntry[] = [];
  /** The pending entries of reads, by what makes two reads identical. */
  private reads = new Map<string, PendingEntry>();
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly log: FastifyBaseLogger,
    intervalMs = 200,
    private readonly batchSize = 500,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(entry: AuditEntry): void {
    if (isRead(entry.method)) {
      const { credential } = entry;
      const key = `${credential.kind} ${credential.id} ${entry.userId} ${entry.method} ${entry.status} ${entry.path}`;
      const burst = this.reads.get(key);
      if (burst) {
        burst.calls += 1;
        burst.entry.durationMs = Math.max(burst.entry.durationMs, entry.durationMs);
        return;
      }
      const first = { entry, calls: 1 };
      this.reads.set(key, first);
      this.pending.push(first);
    } else {
      this.pending.push({ entry, calls: 1 });
    }
    if (this.pending.length >= this.batchSize) void this.flush();
  }

  /** Writes everything recorded so far; resolves when it is stored. */
  flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.reads = new Map();
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.store.q.apiKeys.insertAuditEntries(
          batch.map(({ entry, calls }) => ({
            id: timeOrderedId(entry.at.getTime()),
            credential_kind: entry.credential.kind,
            credential_id: entry.credential.id,
            client_id: entry.credential.kind === 'oauth' ? entry.credential.clientId : null,
            user_id: entry.userId,
            method: entry.method,
            path: entry.path,
            status: entry.status,
            request_id: entry.requestId,
            duration_ms: entry.durationMs,
            created_at: entry.at.toISOString(),
            calls,
          })),
        );
      } catch (error) {
        this.log.error({ err: error, lost: batch.reduce((sum, pending) => sum + pending.calls, 0) }, 'could not write audit log entries');
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
