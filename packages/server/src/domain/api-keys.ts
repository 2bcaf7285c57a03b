import { randomBytes, randomUUID } from 'node:crypto';
import { limits, type ApiKey, type ApiKeyCreate, type Scope } from '@gantry/contract';
import type { z } from 'zod';
import type { ApiKeyRow } from '../store/store.js';
import type { Actor, DomainContext } from './context.js';
import { nowIso } from './context.js';
import { invalid, notFound } from './errors.js';
import { secretDigest } from './secrets.js';
import { displayName, normalizeEmail } from './users.js';
import { tooLong } from './validation.js';

export const API_KEY_PREFIX = 'gnt_';

/** `read`/`write`, or their OAuth-style aliases `service:read`/`service:write`. */
export function parseScope(value: string): Scope | null {
  const scope = value.startsWith('service:') ? value.slice('service:'.length) : value;
  return scope === 'read' || scope === 'write' ? scope : null;
}

export interface ApiKeyInfo {
  id: string;
  name: string | null;
  prefix: string;
  scope: Scope;
  workspaceId: string | null;
  expiresAt: string | null;
  createdAt: string;
}

export interface CreateApiKeyInput {
  email: string;
  scope: string;
  workspaceId?: string | null;
  expiresAt?: string | null;
  name?: string | null;
}

/**
 * Issues a key: `gnt_` + 32 random bytes (base64url). Only its digest is stored; the key
 * is returned once, here. `expiresField` names the expiry in errors, as the caller took it.
 */
export async function createApiKey(ctx: DomainContext, input: CreateApiKeyInput, expiresField = 'expires'): Promise<{ key: string; apiKey: ApiKeyInfo }> {
  const scope = parseScope(input.scope);
  const fields = [];
  if (!scope) fields.push({ path: 'scope', message: 'must be read, write, service:read or service:write' });
  let expiresAt: string | null = null;
  if (input.expiresAt) {
    const parsed = new Date(input.expiresAt);
    if (Number.isNaN(parsed.getTime())) fields.push({ path: expiresField, message: 'must be an ISO 8601 date or date-time' });
    else if (parsed.toISOString() <= nowIso(ctx)) fields.push({ path: expiresField, message: 'must be in the future (the key would never work)' });
    else expiresAt = parsed.toISOString();
  }
  fields.push(...tooLong('name', input.name?.trim(), limits.nameMaxLength));
  if (!scope || fields.length > 0) throw invalid(fields);

  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  const now = nowIso(ctx);
  const apiKey: ApiKeyInfo = {
    id: randomUUID(),
    name: input.name?.trim() || null,
    prefix: key.slice(0, API_KEY_PREFIX.length + 4),
    scope,
    workspaceId: input.workspaceId ?? null,
    expiresAt,
    createdAt: now,
  };
  await ctx.store.transaction(async (tx) => {
    const user = await tx.users.findByEmail(normalizeEmail(input.email));
    if (!user) throw notFound(`user ${input.email}`);
    if (apiKey.workspaceId && !(await tx.workspaces.findMembership(apiKey.workspaceId, user.id))) {
      throw notFound(`workspace ${apiKey.workspaceId} for ${user.email}`);
    }
    await tx.apiKeys.insert({
      id: apiKey.id,
      user_id: user.id,
      name: apiKey.name,
      token_hash: secretDigest(key),
      token_prefix: apiKey.prefix,
      scope,
      workspace_id: apiKey.workspaceId,
      expires_at: expiresAt,
      revoked_at: null,
      created_at: now,
    });
  });
  return { key, apiKey };
}

/** Revokes a key at once; revoking twice is harmless. */
export async function revokeApiKey(ctx: DomainContext, id: string): Promise<void> {
  const found = await ctx.store.q.apiKeys.findById(id);
  if (!found) throw notFound(`API key ${id}`);
  await ctx.store.q.apiKeys.revoke(id, nowIso(ctx));
}

function presentApiKey(row: ApiKeyRow & { last_used_at: string | null }): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.token_prefix,
    scope: row.scope,
    workspaceId: row.workspace_id,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** The person's own keys, newest first, each with its latest call. */
export async function listOwnApiKeys(ctx: DomainContext, actor: Actor): Promise<ApiKey[]> {
  return (await ctx.store.q.apiKeys.listForUser(actor.userId)).map(presentApiKey);
}

/** A key for the person themself (the web app's profile); the CLI creates keys for anyone on the machine. */
export async function createOwnApiKey(ctx: DomainContext, actor: Actor, input: z.output<typeof ApiKeyCreate>): Promise<{ key: string; apiKey: ApiKey }> {
  const user = await ctx.store.q.users.findById(actor.userId);
  if (!user) throw notFound('user');
  const { key, apiKey } = await createApiKey(ctx, { email: user.email, scope: input.scope, workspaceId: input.workspaceId ?? null, expiresAt: input.expiresAt ?? null, name: input.name ?? null }, 'expiresAt');
  return { key, apiKey: { ...apiKey, revokedAt: null, lastUsedAt: null } };
}

/** Revokes one of the person's own keys (again: unchanged); anyone else's is 404. */
export async function revokeOwnApiKey(ctx: DomainContext, actor: Actor, keyId: string): Promise<ApiKey> {
  const row = (await ctx.store.q.apiKeys.listForUser(actor.userId)).find((key) => key.id === keyId);
  if (!row) throw notFound(`API key ${keyId}`);
  if (!row.revoked_at) {
    row.revoked_at = nowIso(ctx);
    await ctx.store.q.apiKeys.revoke(keyId, row.revoked_at);
  }
  return presentApiKey(row);
}

/** The actor a presented token acts as, or null when it is unknown, revoked or expired. */
export async function authenticateApiKey(ctx: DomainContext, token: string): Promise<Actor | null> {
  if (!token.startsWith(API_KEY_PREFIX)) return null;
  const tokenHash = secretDigest(token);
  const lookup = () => ctx.store.q.apiKeys.findByHashWithUser(tokenHash);
  const found = ctx.memo ? await ctx.memo.get(ctx.store, `key:${tokenHash}`, lookup) : await lookup();
  if (!found || found.revoked_at !== null) return null;
  if (found.expires_at !== null && found.expires_at <= nowIso(ctx)) return null;
  return {
    userId: found.user_id,
    name: displayName({ name: found.user_name, email: found.email }),
    scope: found.scope,
    workspaceId: found.workspace_id,
    credential: { kind: 'api_key', id: found.id },
  };
}
