import type { Scope } from '@gantry/contract';
import type { Clock } from '../clock.js';
import type { Store } from '../store/store.js';
import type { AccountLimits } from './account-limits.js';
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
  /**
   * Requests to addresses users name other than webhooks (OAuth client metadata
   * documents), through the same destination guard; without it, such documents are not fetched.
   */
  publicFetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** Sign-in, sign-up and reset attempts, one set per process shared by every adapter; without it, unlimited (the CLI). */
  accountLimits?: AccountLimits;
  /** Told the engine's time (seconds) for each plan write, for the service's metrics. */
  observeRecalculation?: (seconds: number) => void;
}

/** Who is calling without a credential, for the limits of sign-ups and sign-ins and a new session's record. */
export interface ClientInfo {
  /** The client's IP address. */
  address: string;
  userAgent: string | null;
}

/**
 * What authenticated a call. Each credential has its own rate-limit budget and appears in
 * the audit log: an API key; an OAuth grant (a person's consent to one app), whose access
 * tokens all count as one; or the person's own web session (by its id).
 */
export type Credential =
  | { kind: 'api_key'; id: string }
  | { kind: 'oauth'; id: string; clientId: string; clientName: string }
  | { kind: 'session'; id: string };

/**
 * Who is acting, whatever the credential: its user, narrowed by the credential's scope
 * and workspace restriction. A credential never acts as more than its user.
 */
export interface Actor {
  userId: string;
  /** Shown in event envelopes (`actor.name`). */
  name: string;
  scope: Scope;
  /** Set for workspace-restricted credentials: nothing outside this workspace is visible. */
  workspaceId: string | null;
  credential: Credential;
}

/** The OAuth app acting for the person, named in the events of its writes; null when the person acts directly. */
export function actingClient(actor: Partial<Pick<Actor, 'credential'>>): { id: string; name: string } | null {
  return actor.credential?.kind === 'oauth' ? { id: actor.credential.clientId, name: actor.credential.clientName } : null;
}

/** The key an actor's requests are counted under: per credential, never shared between two. */
export function rateLimitIdentity(actor: Actor): string {
  return `${actor.credential.kind}:${actor.credential.id}`;
}

export function nowIso(ctx: Pick<DomainContext, 'clock'>): string {
  return ctx.clock.now().toISOString();
}
