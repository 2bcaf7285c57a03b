import { randomUUID } from 'node:crypto';
import type { Actor, DomainContext } from '../../src/domain/context.js';
import { displayName, normalizeEmail } from '../../src/domain/users.js';

/**
 * The actor of a person signed in in the web app (a `session` credential), for domain-level
 * tests of the operations only a session may run (HTTP tests sign in instead:
 * `test/support/sessions.ts › signedInPerson`, `signIn`).
 */
export async function sessionActor(ctx: Pick<DomainContext, 'store'>, email: string): Promise<Actor> {
  const user = await ctx.store.q.users.findByEmail(normalizeEmail(email));
  if (!user) throw new Error(`no user ${email}`);
  return { userId: user.id, name: displayName(user), scope: 'write', workspaceId: null, credential: { kind: 'session', id: randomUUID() } };
}

/** The same person acting through an OAuth app (a grant's credential): never allowed to delete. */
export function throughApp(actor: Actor): Actor {
  return { ...actor, credential: { kind: 'oauth', id: randomUUID(), clientId: 'https://app.example/client.json', clientName: 'Some app' } };
}
