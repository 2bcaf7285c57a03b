import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { PlanCache } from './planning/plan-cache.js';
import type { VersionedMemo } from './memo.js';
import type { ReadCache } from './projects/read-cache.js';

/** What every domain function needs, passed explicitly (no service locator). */
export interface DomainContext {
  store: Store;
  clock: Clock;
  /** Public address of the service, for links such as a task's `url`. */
  baseUrl: string;
  /** Recently written plans (one per process); without it every write reads its plan. */
  planCache?: PlanCache;
  /** Serialised plans for the full-project read (one per process). */
  readCache?: ReadCache;
  /** Hot reads reused until the next write (one per process). */
  memo?: VersionedMemo;
  /** The policy for webhook destinations (public https only, unless configured otherwise). */
  webhookDestinations?: { check(url: string): Promise<{ ok: true; url: string } | { ok: false; reason: string }> };
}

/**
 * Who is acting. Through the API: the key's owner, narrowed by the key's scope and
 * workspace restriction. A key never acts as more than its owner.
 */
export interface Actor {
  userId: string;
  /** Shown in event envelopes (`actor.name`). */
  name: string;
  scope: 'read' | 'write';
  /** Set for workspace-restricted keys: nothing outside this workspace is visible. */
  workspaceId: string | null;
  apiKeyId: string | null;
}

export function nowIso(ctx: Pick<DomainContext, 'clock'>): string {
  return ctx.clock.now().toISOString();
}
