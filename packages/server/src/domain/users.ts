import { randomUUID } from 'node:crypto';
import { limits, type User } from '@gantry/contract';
import type { Queries, UserRow } from '../store/store.js';
import { nowIso, type Actor, type DomainContext } from './context.js';
import { conflict, invalid, notFound } from './errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { tooLong } from './validation.js';

export interface CreateUserInput {
  email: string;
  name?: string | null;
  password?: string | null;
  locale?: string;
  /** Made by an administrator (the CLI), who vouches for the address: it can sign in at once. */
  emailVerified?: boolean;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function presentUser(row: Pick<UserRow, 'id' | 'email' | 'name' | 'avatar_url' | 'locale' | 'email_verified'>): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatarUrl: row.avatar_url,
    locale: row.locale,
    emailVerified: row.email_verified === 1,
  };
}

/** The name people see: the user's name, else the e-mail address. */
export function displayName(row: Pick<UserRow, 'name' | 'email'>): string {
  return row.name ?? row.email;
}

/**
 * Creates the user and the user's personal workspace (owned by the user) in one
 * transaction; `inTransaction` adds to it (a sign-up's verification mail). The password is
 * hashed before the transaction begins, so the slow hash never holds the store.
 */
export async function createUser(ctx: DomainContext, input: CreateUserInput, options: { inTransaction?: (tx: Queries, row: UserRow) => Promise<void> } = {}): Promise<User> {
  const email = normalizeEmail(input.email);
  const fields = [];
  if (!emailPattern.test(email)) fields.push({ path: 'email', message: 'must be an e-mail address' });
  else fields.push(...tooLong('email', email, limits.emailMaxLength));
  fields.push(...tooLong('name', input.name?.trim(), limits.nameMaxLength));
  if (input.password !== undefined && input.password !== null && (input.password.length < limits.passwordMinLength || input.password.length > limits.passwordMaxLength)) {
    fields.push({ path: 'password', message: `must have ${limits.passwordMinLength}-${limits.passwordMaxLength} characters` });
  }
  if (fields.length > 0) throw invalid(fields);

  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const now = nowIso(ctx);
  const row: UserRow = {
    id: randomUUID(),
    email,
    name: input.name?.trim() || null,
    avatar_url: null,
    locale: input.locale ?? 'en',
    email_verified: input.emailVerified ? 1 : 0,
    password_hash: passwordHash,
    created_at: now,
    updated_at: now,
  };
  await ctx.store.transaction(async (tx) => {
    if (await tx.users.findByEmail(email)) throw conflict(`a user with e-mail ${email} already exists`, [{ path: 'email', message: 'already registered' }]);
    await tx.users.insert(row);
    const workspaceId = randomUUID();
    await tx.workspaces.insert({ id: workspaceId, name: 'Personal', is_personal: 1, created_by: row.id, created_at: now, updated_at: now });
    await tx.workspaces.putMember({ workspace_id: workspaceId, user_id: row.id, role: 'owner', created_at: now });
    await options.inTransaction?.(tx, row);
  });
  return presentUser(row);
}

/** The user an actor acts for (`GET /api/auth/me`). */
export async function getCurrentUser(ctx: DomainContext, actor: Actor): Promise<User> {
  const row = await ctx.store.q.users.findById(actor.userId);
  if (!row) throw notFound('user');
  return presentUser(row);
}

/** Compared against when no such user exists, so that a wrong e-mail takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;

/** The user these sign-in credentials belong to, or null (unknown e-mail, no password set, wrong password). */
export async function verifySignIn(ctx: DomainContext, email: string, password: string): Promise<UserRow | null> {
  const user = await ctx.store.q.users.findByEmail(normalizeEmail(email));
  if (!user?.password_hash) {
    await verifyPassword(password, await (decoyHash ??= hashPassword('decoy password')));
    return null;
  }
  return (await verifyPassword(password, user.password_hash)) ? user : null;
}
