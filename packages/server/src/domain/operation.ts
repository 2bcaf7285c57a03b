import { createHash } from 'node:crypto';
import type { RouteDef, Scope } from '@gantry/contract';
import type { z } from 'zod';
import type { Actor, ClientInfo, DomainContext } from './context.js';
import { nowIso } from './context.js';
import { AppError, conflict, destructiveRefused, forbidden, invalid, notFound } from './errors.js';
import { boundsProblems, fieldProblems } from './validation.js';

type Output<T> = T extends z.ZodType ? z.output<T> : undefined;

/** An operation's input, parsed with the contract's schemas. */
export interface OperationInput<D extends RouteDef> {
  params: Output<NonNullable<D['params']>>;
  query: Output<NonNullable<D['query']>>;
  body: NonNullable<D['body']> extends { schema: infer B } ? Output<B> : undefined;
}

/** A result with a success status other than the operation's default one (a change set answers 200, not 201). */
export class WithStatus<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

/** A result already serialised as UTF-8 JSON (e.g. from a cache). */
export class RawJson {
  constructor(readonly bytes: Buffer) {}
}

/** A result that is a file to download (an export): its bytes, media type and the file name to save it as. */
export class FileDownload {
  constructor(
    readonly bytes: Buffer,
    readonly mediaType: string,
    readonly filename: string,
  ) {}
}

/**
 * A result that signs the browser in (`token`: the new web session's cookie value) or out
 * (null): the adapter sets or clears the session cookie. Never stored for replay.
 */
export class WithSession<T> {
  constructor(
    readonly session: { token: string } | null,
    readonly body: T,
  ) {}
}

type Body<D extends RouteDef> = z.input<D['response']['schema']>;
export type OperationResult<D extends RouteDef> = Body<D> | WithStatus<Body<D>> | RawJson | WithSession<Body<D>> | FileDownload;

/**
 * One operation of the service: its contract (name, scope, schemas) and the domain
 * function that does it. Every adapter — REST today, MCP tools and the web app next —
 * runs operations through `perform`, which is where scope, validation and idempotency are
 * enforced; roles are checked by the domain functions themselves.
 */
export interface Operation<D extends RouteDef = RouteDef> {
  readonly def: D;
  /** `actor` is null exactly for operations without credentials (`credentials: 'none'`). */
  run(ctx: DomainContext, actor: Actor | null, input: OperationInput<D>, client: ClientInfo): Promise<OperationResult<D>>;
}

export function defineOperation<D extends RouteDef>(def: D, run: (ctx: DomainContext, actor: Actor, input: OperationInput<D>) => Promise<OperationResult<D>>): Operation<D> {
  return {
    def,
    run: (ctx, actor, input) => {
      if (!actor) throw new AppError('unauthorized', 'a credential is required');
      return run(ctx, actor, input);
    },
  };
}

/** An operation anyone may call without a credential (signing up and in): it learns who calls only from `client`. */
export function definePublicOperation<D extends RouteDef>(def: D, run: (ctx: DomainContext, input: OperationInput<D>, client: ClientInfo) => Promise<OperationResult<D>>): Operation<D> {
  if (def.credentials !== 'none') throw new Error(`${def.operationId} needs a credential: define it with defineOperation`);
  return { def, run: (ctx, _actor, input, client) => run(ctx, input, client) };
}

/** 403 unless the actor's credential allows the scope (`write` includes `read`). */
export function requireScope(actor: Actor, needed: Scope): void {
  if (needed === 'write' && actor.scope !== 'write') {
    throw forbidden('insufficient_scope', 'this credential is read-only; a write credential is needed');
  }
}

/**
 * What the credential may do beyond its scope: API keys and OAuth tokens never delete
 * projects or tasks (403 `destructive`), nor run the person's own operations
 * (`credentials: 'session'`: their keys, connected apps, joining a project, turning a
 * webhook back on; 403 `session_required`), whatever adapter they come through.
 */
export function requireCredential(actor: Actor, def: RouteDef): void {
  if (actor.credential.kind === 'session') return;
  if (def.destructive) throw destructiveRefused();
  if (def.credentials === 'session') throw forbidden('session_required', 'only the signed-in person can do this, in the web app; API keys and OAuth apps cannot');
}

/** Input as an adapter received it, before any validation. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/**
 * Validates raw input against the operation's schemas: a path id that is not valid names
 * nothing (404); every other problem — of the query and the body at once — is one 400.
 * Input beyond what any schema accepts (`boundsProblems`) is refused before the schemas
 * see it, so the work a request causes stays bounded whatever it holds.
 */
function parseInput<D extends RouteDef>(def: D, raw: RawInput): OperationInput<D> {
  const params = def.params?.safeParse(raw.params ?? {});
  if (params && !params.success) throw notFound();
  const bounds = [...boundsProblems(raw.query, 'query'), ...boundsProblems(raw.body, 'body', def.body?.longestString)];
  if (bounds.length > 0) throw invalid(bounds);
  // No body at all is an empty object; a body that is not an object (`null` included) is refused.
  const rawBody = raw.body === undefined ? {} : raw.body;
  if (def.body && (typeof rawBody !== 'object' || rawBody === null || Array.isArray(rawBody))) throw invalid([{ path: 'body', message: 'must be a JSON object' }]);
  const query = def.query?.safeParse(raw.query ?? {});
  const body = def.body ? (def.body.pick?.(rawBody) ?? def.body.schema).safeParse(rawBody) : undefined;
  const problems = [...(query?.error ? fieldProblems(query.error, 'query') : []), ...(body?.error ? fieldProblems(body.error, 'body') : [])];
  if (problems.length > 0) throw invalid(problems);
  return { params: params?.data, query: query?.data, body: body?.data } as OperationInput<D>;
}

/**
 * What an operation answered: its status, its body (or bytes), whether it is a stored
 * answer replayed, and whether it signs the browser in (`{token}`) or out (null).
 */
export interface Outcome {
  status: number;
  body: unknown;
  replayed: boolean;
  session?: { token: string } | null;
}

function outcomeOf(def: RouteDef, result: unknown): Outcome {
  if (result instanceof WithStatus) return { status: result.status, body: result.body, replayed: false };
  if (result instanceof WithSession) return { status: def.response.status, body: result.body, replayed: false, session: result.session };
  return { status: def.response.status, body: result, replayed: false };
}

/** Whom an adapter serves when it cannot tell (the CLI, MCP over a credential). */
const unknownClient: ClientInfo = { address: 'unknown', userAgent: null };

/** Carries a dry run's outcome out of the unit of work it rolls back. */
class DryRunRollback extends Error {
  constructor(readonly outcome: Outcome) {
    super('dry run: rolled back');
  }
}

/**
 * Runs the operation as one unit of work and rolls it back: everything it writes, the
 * events it appends (so no webhook) and the post-commit work it registers (the plan and
 * read caches) are dropped with the transaction; only its answer is kept.
 */
async function dryRun(ctx: DomainContext, actor: Actor | null, operation: Operation, input: OperationInput<RouteDef>): Promise<Outcome> {
  try {
    await ctx.store.unitOfWork(async (store) => {
      throw new DryRunRollback(outcomeOf(operation.def, await operation.run({ ...ctx, store }, actor, input, unknownClient)));
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.outcome;
    throw error;
  }
  throw new Error('unreachable: a dry run always rolls back');
}

/** How long an idempotency key is remembered; a retry after that runs again. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The formula of the fingerprints this version stores with the keys it claims: the operation, its path parameters and the body, whatever the adapter. */
const FINGERPRINT_FORMULA = 2;

function fingerprintOf(def: RouteDef, raw: RawInput): string {
  return sha256(`${def.operationId}\n${JSON.stringify(raw.params ?? null)}\n${JSON.stringify(raw.body ?? null)}`);
}

/**
 * The request's fingerprint by the formula a key was claimed under (stored with the key),
 * so that a key used before an upgrade that changed the formula still replays. Formula 1,
 * before operations were one table, hashed the HTTP method and request target (path and
 * query) with the body. Null when the request cannot be fingerprinted that way (formula 1
 * outside HTTP, or a newer version's formula): it is then another request.
 */
function fingerprintUnder(formula: number, def: RouteDef, raw: RawInput, requestTarget: string | undefined): string | null {
  if (formula === FINGERPRINT_FORMULA) return fingerprintOf(def, raw);
  if (formula === 1 && requestTarget !== undefined) return sha256(`${def.method} ${requestTarget}\n${JSON.stringify(raw.body ?? null)}`);
  return null;
}

/**
 * Runs an operation for an actor: scope and, for a deletion, the credential (403), input
 * validation (404/400), then the domain function, which checks roles and writes.
 *
 * With an `idempotencyKey` (create operations only, as Stripe does it), the first request
 * with a key runs and its success is stored; a retry with the same key and input gets the
 * stored answer instead of running twice; the same key with other input is 409. The key
 * is claimed, the operation runs and its answer is recorded in one unit of work: a
 * request that fails or never completes leaves no claim behind, and a concurrent retry
 * waits for the first to commit, then replays it. Keys are per user, kept 24 hours.
 *
 * With `dryRun`, the operation runs in full — the same checks, validation, recalculation
 * and events — inside a transaction that is then rolled back: the answer says what the
 * write would do, and nothing of it is saved, announced or cached (an idempotency key is
 * ignored: there is nothing to replay).
 */
export async function perform(
  ctx: DomainContext,
  actor: Actor | null,
  operation: Operation,
  raw: RawInput,
  options: {
    idempotencyKey?: string;
    dryRun?: boolean;
    client?: ClientInfo;
    /** The HTTP request-target (path and query) as received: keys claimed under fingerprint formula 1 are compared with it. */
    requestTarget?: string;
  } = {},
): Promise<Outcome> {
  const { def } = operation;
  const client = options.client ?? unknownClient;
  if (def.credentials !== 'none') {
    if (!actor) throw new AppError('unauthorized', 'a credential is required');
    requireCredential(actor, def);
    requireScope(actor, def.scope);
  }
  const input = parseInput(def, raw);
  if (options.dryRun) return dryRun(ctx, actor, operation, input);
  const { idempotencyKey } = options;
  // Without a credential there is no one to remember a key for (and a session's token is never stored).
  if (idempotencyKey === undefined || def.method !== 'POST' || !actor) return outcomeOf(def, await operation.run(ctx, actor, input, client));
  if (idempotencyKey.length === 0 || idempotencyKey.length > 255) throw invalid([{ path: 'headers.idempotency-key', message: 'must be 1-255 characters' }]);
  const fingerprint = fingerprintOf(def, raw);

  return ctx.store.unitOfWork(async (store) => {
    const idempotency = store.q.outbox;
    await idempotency.purgeIdempotency(new Date(ctx.clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString());
    const claim = { user_id: actor.userId, key: idempotencyKey, fingerprint, fingerprint_formula: FINGERPRINT_FORMULA, status: null, response: null, created_at: nowIso(ctx) };
    if (!(await idempotency.claimIdempotency(claim))) {
      const existing = await idempotency.findIdempotency(actor.userId, idempotencyKey);
      if (existing?.status == null || existing.response === null) {
        // Claimed but never answered: left by a request that stopped under an older version
        // (a claim now commits only with its answer). Nothing was done under it: take it over.
        await idempotency.releaseIdempotency(actor.userId, idempotencyKey);
        await idempotency.claimIdempotency(claim);
      } else if (existing.fingerprint !== fingerprintUnder(existing.fingerprint_formula, def, raw, options.requestTarget)) {
        throw conflict('this Idempotency-Key was already used with a different request; use a new key for a new request');
      } else {
        return { status: existing.status, body: JSON.parse(existing.response) as unknown, replayed: true };
      }
    }
    const outcome = outcomeOf(def, await operation.run({ ...ctx, store }, actor, input, client));
    const response = outcome.body instanceof RawJson ? outcome.body.bytes.toString('utf8') : JSON.stringify(outcome.body);
    await idempotency.completeIdempotency(actor.userId, idempotencyKey, outcome.status, response);
    return outcome;
  });
}
