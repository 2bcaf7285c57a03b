import { randomBytes } from 'node:crypto';
import type { MePatch, User } from '@gantry/contract';
import type { Queries, UserRow } from '../store/store.js';
import { nowIso, type Actor, type ClientInfo, type DomainContext } from './context.js';
import { AppError, invalid, notFound } from './errors.js';
import { queueMail } from './mail.js';
import { hashPassword } from './passwords.js';
import { secretDigest } from './secrets.js';
import { startSession, type StartedSession } from './sessions.js';
import { createUser, normalizeEmail, presentUser, verifySignIn } from './users.js';

const minute = 60 * 1000;

function rateLimited(waitMs: number): AppError {
  const retryAfterSec = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError('rate_limited', `too many attempts; retry in ${Math.ceil(retryAfterSec / 60)} minutes`, { retryAfterSec });
}

/** Counts one request without a credential from this client address: 429 when its budget is spent. */
export async function takeAddress(ctx: DomainContext, client: ClientInfo): Promise<void> {
  const decision = await ctx.accountLimits?.requestsPerAddress.take(client.address);
  if (decision && !decision.allowed) throw rateLimited(decision.retryAfterMs);
}

type TokenPurpose = 'verify_email' | 'reset_password';
const tokenTtlMs: Record<TokenPurpose, number> = { verify_email: 24 * 60 * minute, reset_password: 60 * minute };
const tokenPage: Record<TokenPurpose, string> = { verify_email: 'verify-email', reset_password: 'reset-password' };

/** A single-use link to a page of the web app, its token stored as a digest; `next`: the page the web app opens after it. */
async function issueLink(ctx: DomainContext, tx: Queries, userId: string, purpose: TokenPurpose, next: string | undefined): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await tx.sessions.insertToken({
    digest: secretDigest(token),
    purpose,
    user_id: userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + tokenTtlMs[purpose]).toISOString(),
    used_at: null,
  });
  return `${ctx.baseUrl}/${tokenPage[purpose]}?token=${token}${next === undefined ? '' : `&next=${encodeURIComponent(next)}`}`;
}

const mails = {
  verify_email: (link: string) => ({
    subject: 'Confirm your e-mail address for Gantry',
    text: `Open this link to confirm your e-mail address and sign in to Gantry:\n\n${link}\n\nThe link works once, for 24 hours. If you did not sign up, ignore this message.\n`,
  }),
  account_exists: (link: string) => ({
    subject: 'You already have a Gantry account',
    text: `Someone (you, we hope) tried to sign up to Gantry with this address, which already has an account.\n\nIf you forgot your password, set a new one here:\n\n${link}\n\nThe link works once, for 1 hour. If it was not you, ignore this message: nothing changed.\n`,
  }),
  reset_password: (link: string) => ({
    subject: 'Set a new Gantry password',
    text: `Open this link to set a new password for Gantry:\n\n${link}\n\nThe link works once, for 1 hour. If you did not ask for it, ignore this message: your password stays as it is.\n`,
  }),
};

/**
 * Whether `email` may be sent one more account mail (counted), false when it was mailed
 * too often lately: the caller's answer stays the same either way. Asked before the
 * transaction that queues the mail, as the count may need a connection of its own.
 */
async function mayMail(ctx: DomainContext, email: string): Promise<boolean> {
  return !ctx.accountLimits || (await ctx.accountLimits.mailsPerRecipient.take(email)).allowed;
}

/** Mails the user a link in a transaction of its own, unless the recipient was mailed too often lately (`mayMail`). */
async function mailLinkIfAllowed(ctx: DomainContext, user: Pick<UserRow, 'id' | 'email'>, purpose: TokenPurpose, mail: keyof typeof mails, next?: string): Promise<void> {
  if (await mayMail(ctx, user.email)) await ctx.store.transaction((tx) => mailLink(ctx, tx, user, purpose, mail, next));
}

/** Mails the user a link (in `tx`). */
async function mailLink(ctx: DomainContext, tx: Queries, user: Pick<UserRow, 'id' | 'email'>, purpose: TokenPurpose, mail: keyof typeof mails, next?: string): Promise<void> {
  const link = await issueLink(ctx, tx, user.id, purpose, next);
  await queueMail(tx, nowIso(ctx), [{ to: user.email, ...mails[mail](link) }]);
}

export interface SignUpInput {
  email: string;
  password: string;
  name?: string;
  locale?: string;
  /** The page of the web app the mailed link leads to once used (an invite link, say). */
  next?: string;
}

/**
 * Creates an unverified account with its personal workspace and mails a verification
 * link. An address that already has an account is mailed a password-reset link instead;
 * the caller cannot tell the two apart (same answer, and the password is hashed either way).
 * Either link carries `next`, for the web app to go on there.
 */
export async function signUp(ctx: DomainContext, input: SignUpInput, client: ClientInfo): Promise<void> {
  await takeAddress(ctx, client);
  const email = normalizeEmail(input.email);
  const existing = await ctx.store.q.users.findByEmail(email);
  if (existing) {
    await hashPassword(input.password);
    await mailLinkIfAllowed(ctx, existing, 'reset_password', 'account_exists', input.next);
    return;
  }
  const mailing = await mayMail(ctx, email);
  try {
    await createUser(ctx, { email, password: input.password, name: input.name ?? null, locale: input.locale }, { inTransaction: async (tx, user) => (mailing ? mailLink(ctx, tx, user, 'verify_email', 'verify_email', input.next) : undefined) });
  } catch (error) {
    // Signed up meanwhile by a concurrent request: that one mails the link.
    if (!(error instanceof AppError && error.code === 'conflict')) throw error;
  }
}

export interface SignedIn extends StartedSession {
  user: User;
}

const badToken = (path: string) => invalid([{ path, message: 'is not valid: it is unknown, expired or already used' }]);

/** Confirms the address with a mailed token and signs the person in, all in one transaction. */
export async function verifyEmail(ctx: DomainContext, token: string, client: ClientInfo): Promise<SignedIn> {
  await takeAddress(ctx, client);
  return ctx.store.transaction(async (tx) => {
    const used = await tx.sessions.useToken(secretDigest(token), 'verify_email', nowIso(ctx));
    if (!used) throw badToken('token');
    await tx.users.update(used.user_id, { email_verified: 1, updated_at: nowIso(ctx) });
    return signedIn(ctx, tx, used.user_id, client);
  });
}

async function signedIn(ctx: DomainContext, tx: Queries, userId: string, client: ClientInfo): Promise<SignedIn> {
  const user = await tx.users.findById(userId);
  if (!user) throw notFound('user');
  const session = await startSession(ctx, userId, { userAgent: client.userAgent }, tx);
  return { ...session, user: presentUser(user) };
}

/**
 * The user these credentials belong to: 429 when this address or this e-mail tried too
 * often, 401 when they are not right, 403 `email_unverified` (and a fresh verification
 * link is mailed) when the address is not confirmed yet. The one sign-in of every adapter.
 */
export async function checkSignIn(ctx: DomainContext, email: string, password: string, client: ClientInfo): Promise<UserRow> {
  const account = normalizeEmail(email);
  const limits = ctx.accountLimits;
  const waitMs = limits ? Math.max(await limits.failedSignInsPerEmail.waitMs(account), (await limits.requestsPerAddress.take(client.address)).retryAfterMs) : 0;
  if (waitMs > 0) throw rateLimited(waitMs);
  const user = email && password ? await verifySignIn(ctx, account, password) : null;
  if (!user) {
    await limits?.failedSignInsPerEmail.take(account);
    throw new AppError('unauthorized', 'the e-mail or the password is not right');
  }
  if (user.email_verified !== 1) {
    await mailLinkIfAllowed(ctx, user, 'verify_email', 'verify_email');
    throw new AppError('forbidden', 'confirm your e-mail address first: a new link was mailed to you', { reason: 'email_unverified' });
  }
  return user;
}

/** Signs in with e-mail and password (`checkSignIn`), starting a web session. */
export async function signIn(ctx: DomainContext, email: string, password: string, client: ClientInfo): Promise<SignedIn> {
  const user = await checkSignIn(ctx, email, password, client);
  return signedIn(ctx, ctx.store.q, user.id, client);
}

/** Mails a password-reset link when the address has an account; the same answer when it has not. */
export async function requestPasswordReset(ctx: DomainContext, email: string, client: ClientInfo): Promise<void> {
  await takeAddress(ctx, client);
  const user = await ctx.store.q.users.findByEmail(normalizeEmail(email));
  if (user) await mailLinkIfAllowed(ctx, user, 'reset_password', 'reset_password');
}

/**
 * Sets the new password with a mailed token: the address counts as verified (the link
 * reached it), every other web session of the person ends, and this browser is signed in.
 */
export async function completePasswordReset(ctx: DomainContext, token: string, password: string, client: ClientInfo): Promise<SignedIn> {
  await takeAddress(ctx, client);
  const passwordHash = await hashPassword(password);
  return ctx.store.transaction(async (tx) => {
    const now = nowIso(ctx);
    const used = await tx.sessions.useToken(secretDigest(token), 'reset_password', now);
    if (!used) throw badToken('token');
    await tx.users.update(used.user_id, { password_hash: passwordHash, email_verified: 1, updated_at: now });
    await tx.sessions.deleteForUser(used.user_id, null);
    return signedIn(ctx, tx, used.user_id, client);
  });
}

/** Changes the person's own name, avatar or language (`PATCH /api/auth/me`). */
export async function updateMe(ctx: DomainContext, actor: Actor, patch: MePatch): Promise<User> {
  await ctx.store.q.users.update(actor.userId, {
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.avatarUrl !== undefined ? { avatar_url: patch.avatarUrl } : {}),
    ...(patch.locale !== undefined ? { locale: patch.locale } : {}),
    updated_at: nowIso(ctx),
  });
  const user = await ctx.store.q.users.findById(actor.userId);
  if (!user) throw notFound('user');
  return presentUser(user);
}
