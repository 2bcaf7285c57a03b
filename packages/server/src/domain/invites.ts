import { randomBytes, randomUUID } from 'node:crypto';
import type { Invite, InviteCreate, InvitePreview, Member, Project } from '@gantry/contract';
import type { InviteRow, ProjectRow, Queries } from '../store/store.js';
import { takeAddress } from './accounts.js';
import { nowIso, type Actor, type ClientInfo, type DomainContext } from './context.js';
import { forbidden, notFound } from './errors.js';
import { queueMail, type MailMessage } from './mail.js';
import { grantProjectRole, presentMember, projectMembers } from './members.js';
import { appendEvents } from './outbox.js';
import { requireProject } from './permissions.js';
import { presentProject } from './planning/presenters.js';
import { secretDigest } from './secrets.js';
import { normalizeEmail } from './users.js';

const dayMs = 24 * 60 * 60 * 1000;

function presentInvite(row: InviteRow): Invite {
  return { id: row.id, role: row.role, email: row.email, expiresAt: row.expires_at, createdAt: row.created_at, createdBy: row.created_by };
}

/** The e-mail that brings an invite naming an address to that address. */
function inviteMail(actor: Actor, projectName: string, row: InviteRow, url: string): MailMessage {
  return {
    to: row.email as string,
    subject: `${actor.name} invited you to ${projectName} on Gantry`,
    text: `${actor.name} invited you to plan "${projectName}" together in Gantry, as ${row.role}.\n\nOpen this link to join:\n\n${url}\n\nSign in, or create an account, with this address (${row.email}): the invite is for it only. The link works once, until ${row.expires_at.slice(0, 10)}.\n`,
  };
}

/**
 * Creates an invite link (project owners). The link is answered once, and mailed when the
 * invite names an e-mail address; it is never stored: only its token's digest is. Emits
 * `member.invited`, without the link.
 */
export async function createInvite(ctx: DomainContext, actor: Actor, projectId: string, input: InviteCreate): Promise<{ invite: Invite & { url: string } }> {
  const { project } = await requireProject(ctx, actor, projectId, 'owner');
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const row: InviteRow = {
    id: randomUUID(),
    project_id: project.id,
    token_hash: secretDigest(token),
    role: input.role,
    email: input.email ? normalizeEmail(input.email) : null,
    expires_at: new Date(now.getTime() + input.expiresInDays * dayMs).toISOString(),
    created_by: actor.userId,
    created_at: now.toISOString(),
    revoked_at: null,
    accepted_at: null,
    accepted_by: null,
  };
  const url = `${ctx.baseUrl}/join/${token}`;
  await ctx.store.transaction(async (tx) => {
    await tx.projects.insertInvite(row);
    if (row.email !== null) await queueMail(tx, row.created_at, [inviteMail(actor, project.name, row, url)]);
    await appendEvents(tx, actor, row.created_at, [
      { type: 'member.invited', workspaceId: project.workspace_id, projectId: project.id, data: { invitation: { id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at } } },
    ]);
  });
  return { invite: { ...presentInvite(row), url } };
}

/** The project's invites that can still be accepted, newest first (project owners). */
export async function listInvites(ctx: DomainContext, actor: Actor, projectId: string): Promise<Invite[]> {
  await requireProject(ctx, actor, projectId, 'owner');
  return (await ctx.store.q.projects.listActiveInvites(projectId, nowIso(ctx))).map(presentInvite);
}

/** Revokes an invite: its link stops working at once (project owners). Revoking it again changes nothing. */
export async function revokeInvite(ctx: DomainContext, actor: Actor, projectId: string, inviteId: string): Promise<void> {
  await requireProject(ctx, actor, projectId, 'owner');
  const invite = await ctx.store.q.projects.findInvite(projectId, inviteId);
  if (!invite) throw notFound('invite');
  if (invite.revoked_at === null) await ctx.store.q.projects.updateInvite(invite.id, { revoked_at: nowIso(ctx) });
}

/** The invite of a token and its project, if the invite can still be accepted; 404 otherwise, whichever the reason. */
async function usableInvite(tx: Queries, token: string, now: string): Promise<{ invite: InviteRow; project: ProjectRow }> {
  const invite = await tx.projects.findInviteByTokenHash(secretDigest(token));
  const project = invite ? await tx.projects.findById(invite.project_id) : undefined;
  if (!invite || !project || invite.revoked_at !== null || invite.accepted_at !== null || invite.expires_at <= now) {
    throw notFound('invite (the link is unknown, expired, revoked or already used)');
  }
  return { invite, project };
}

/**
 * What an invite link joins, for whoever holds it (signed in or not): the project's name and
 * the role. Counted against the client address's budget of requests without a credential.
 */
export async function previewInvite(ctx: DomainContext, token: string, client: ClientInfo): Promise<InvitePreview> {
  await takeAddress(ctx, client);
  const { invite, project } = await usableInvite(ctx.store.q, token, nowIso(ctx));
  return { projectName: project.name, role: invite.role, expiresAt: invite.expires_at };
}

/**
 * The signed-in person joins the invite's project with its role, as a direct role (a higher
 * direct role they have is kept); `member.joined` when they had none. An unknown, expired,
 * revoked or used token is 404, whichever it is; an invite naming another e-mail is 403.
 * An invite naming an e-mail is single use; one without is used until it expires.
 */
export async function acceptInvite(ctx: DomainContext, actor: Actor, token: string): Promise<{ project: Project; member: Member }> {
  const now = nowIso(ctx);
  const project = await ctx.store.transaction(async (tx) => {
    const { invite, project } = await usableInvite(tx, token, now);
    const user = await tx.users.findById(actor.userId);
    if (!user) throw notFound('user');
    if (invite.email !== null && normalizeEmail(user.email) !== invite.email) {
      throw forbidden('invite_for_another_email', 'this invite is for another e-mail address: sign in as the person it was sent to');
    }
    if (invite.email !== null) await tx.projects.updateInvite(invite.id, { accepted_at: now, accepted_by: user.id });
    await grantProjectRole(tx, project, user, invite.role, now, { keepHigher: true, actor });
    return project;
  });
  const person = (await projectMembers(ctx, project)).get(actor.userId);
  if (!person) throw notFound('member');
  return { project: presentProject(project), member: presentMember(ctx, project, person) };
}
