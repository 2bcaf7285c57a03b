import type { ProjectRole, WorkspaceRole } from '@gantry/contract';
import { createApiKey, revokeApiKey } from '../domain/api-keys.js';
import type { DomainContext } from '../domain/context.js';
import { addProjectMember, removeProjectMember } from '../domain/members.js';
import { createUser } from '../domain/users.js';
import { addWorkspaceMember, createWorkspace } from '../domain/workspaces.js';

export class UsageError extends Error {}

export interface CommandOption {
  type: 'string' | 'boolean';
  required?: boolean;
  /** Allowed values of a string option. */
  choices?: readonly string[];
  help: string;
}

export interface Command {
  summary: string;
  options: Record<string, CommandOption>;
  /** Returns the JSON printed with --json, and the line printed without it. */
  run(ctx: DomainContext, values: Record<string, string | undefined>): Promise<{ json: unknown; text: string }>;
}

const MAIL_LIST_MAX = 10_000;

/** The web addresses a mail's text holds. */
function linksIn(text: string): string[] {
  return text.match(/https?:\/\/\S+/g) ?? [];
}

const emailOption: CommandOption = { type: 'string', required: true, help: 'e-mail address of an existing user' };

/** Every CLI command, by its words (`key create`); the domain functions do the work. */
export const commands: Record<string, Command> = {
  'user create': {
    summary: 'Create a user and their personal workspace',
    options: {
      email: { type: 'string', required: true, help: 'e-mail address (unique)' },
      name: { type: 'string', help: 'display name' },
      password: { type: 'string', help: 'password for the web app (at least 10 characters)' },
    },
    async run(ctx, values) {
      // The administrator vouches for the address: the user can sign in without verifying it.
      const user = await createUser(ctx, { email: values.email as string, name: values.name ?? null, password: values.password ?? null, emailVerified: true });
      return { json: { user }, text: `created user ${user.email} (${user.id})` };
    },
  },
  'key create': {
    summary: 'Create an API key (shown once)',
    options: {
      email: emailOption,
      scope: { type: 'string', required: true, choices: ['read', 'write', 'service:read', 'service:write'], help: 'what the key may do' },
      workspace: { type: 'string', help: 'restrict the key to this workspace id' },
      expires: { type: 'string', help: 'expiry, ISO 8601 (e.g. 2027-01-01T00:00:00Z)' },
      name: { type: 'string', help: 'a label for the key' },
    },
    async run(ctx, values) {
      const created = await createApiKey(ctx, {
        email: values.email as string,
        scope: values.scope as string,
        workspaceId: values.workspace ?? null,
        expiresAt: values.expires ?? null,
        name: values.name ?? null,
      });
      return {
        json: created,
        text: `${created.key}\n(key id ${created.apiKey.id}, scope ${created.apiKey.scope}; store it now, it is not shown again)`,
      };
    },
  },
  'key revoke': {
    summary: 'Revoke an API key at once',
    options: { id: { type: 'string', required: true, help: 'the key id' } },
    async run(ctx, values) {
      await revokeApiKey(ctx, values.id as string);
      return { json: { apiKey: { id: values.id, revoked: true } }, text: `revoked key ${values.id}` };
    },
  },
  'workspace create': {
    summary: 'Create a shared workspace owned by a user',
    options: { email: { ...emailOption, help: 'e-mail address of the owner' }, name: { type: 'string', required: true, help: 'workspace name' } },
    async run(ctx, values) {
      const workspace = await createWorkspace(ctx, { ownerEmail: values.email as string, name: values.name as string });
      return { json: { workspace }, text: `created workspace ${workspace.name} (${workspace.id})` };
    },
  },
  'workspace add-member': {
    summary: "Add a user to a workspace, or change the user's role",
    options: {
      workspace: { type: 'string', required: true, help: 'workspace id' },
      email: emailOption,
      role: { type: 'string', required: true, choices: ['admin', 'member'], help: 'workspace role' },
    },
    async run(ctx, values) {
      const member = { workspaceId: values.workspace as string, email: values.email as string, role: values.role as WorkspaceRole };
      await addWorkspaceMember(ctx, member);
      return { json: { member }, text: `${member.email} is ${member.role} of workspace ${member.workspaceId}` };
    },
  },
  'project remove-member': {
    summary: "Take a user's direct role on a project away (access through the workspace stays)",
    options: { project: { type: 'string', required: true, help: 'project id' }, email: emailOption },
    async run(ctx, values) {
      const member = { projectId: values.project as string, email: values.email as string };
      await removeProjectMember(ctx, member);
      return { json: { member, removed: true }, text: `${member.email} no longer has a direct role on project ${member.projectId}` };
    },
  },
  'mail list': {
    summary: 'Show the e-mail outbox (what was, or will be, sent)',
    options: { pending: { type: 'boolean', help: 'only messages not sent yet' }, limit: { type: 'string', help: `the newest this many (default 100, at most ${MAIL_LIST_MAX})` } },
    async run(ctx, values) {
      const limit = values.limit === undefined ? 100 : /^[0-9]{1,6}$/.test(values.limit) ? Number(values.limit) : 0;
      if (limit < 1 || limit > MAIL_LIST_MAX) throw new UsageError(`--limit must be a whole number from 1 to ${MAIL_LIST_MAX}`);
      // The newest messages (a fresh verification link is what one looks for), oldest first.
      const rows = await ctx.store.q.outbox.listMail({ pendingOnly: Boolean(values.pending), limit, newest: true });
      const mail = rows.map((m) => ({ id: m.id, to: m.to_address, subject: m.subject, body: m.body, createdAt: m.created_at, sentAt: m.sent_at, error: m.error }));
      // The links under each message: without SMTP, they are how people verify, reset and join.
      const text =
        mail.map((m) => [`${m.createdAt}  ${m.sentAt ? 'sent   ' : 'pending'}  ${m.to}  ${m.subject}`, ...linksIn(m.body).map((link) => `    ${link}`)].join('\n')).join('\n') ||
        'the outbox is empty';
      return { json: { mail }, text };
    },
  },
  'project add-member': {
    summary: 'Give a user a direct role on a project',
    options: {
      project: { type: 'string', required: true, help: 'project id' },
      email: emailOption,
      role: { type: 'string', required: true, choices: ['owner', 'editor', 'viewer'], help: 'project role' },
    },
    async run(ctx, values) {
      const member = { projectId: values.project as string, email: values.email as string, role: values.role as ProjectRole };
      await addProjectMember(ctx, member);
      return { json: { member }, text: `${member.email} is ${member.role} of project ${member.projectId}` };
    },
  },
};
