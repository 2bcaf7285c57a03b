import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';
import { Member, ProjectRole } from './members.js';
import { Project } from './projects.js';

/** Longest an invite link stays valid, in days (the default is `inviteDefaultDays`). */
export const inviteMaxDays = 30;
export const inviteDefaultDays = 7;

export const InviteCreate = z.object({
  role: ProjectRole.describe('The role the invite grants on the project.'),
  email: z
    .email()
    .max(254)
    .nullable()
    .optional()
    .describe('Only this person may accept (and only once); null or absent: anyone with the link may, until it expires.'),
  expiresInDays: z.number().int().min(1).max(inviteMaxDays).default(inviteDefaultDays).describe(`Days until the link stops working (1-${inviteMaxDays}, default ${inviteDefaultDays}).`),
});
export type InviteCreate = z.output<typeof InviteCreate>;

export const Invite = z.object({
  id: Uuid,
  role: ProjectRole,
  email: z.string().nullable().describe('Who may accept; null for a link anyone may use until it expires.'),
  expiresAt: DateTime,
  createdAt: DateTime,
  createdBy: Uuid.describe('The user who created the invite.'),
});
export type Invite = z.infer<typeof Invite>;

export const InviteWithUrl = z.object({
  invite: Invite.extend({
    url: z.string().describe('`{BASE_URL}/join/{token}`: the link to send. It is in this answer only (the server keeps only a digest of the token).'),
  }),
});
export const InviteList = z.object({ invites: z.array(Invite).describe('Active invites (not expired, revoked or used), newest first, without their links.') });
export const InviteRevoked = z.object({ id: Uuid, revoked: z.literal(true) });

export const InviteAccept = z.object({ token: z.string().min(1).max(200).describe('The last segment of the invite link (`/join/{token}`).') });
export const InvitePreview = z.object({
  projectName: z.string().describe('The name of the project the invite joins.'),
  role: ProjectRole.describe('The role the person gets on joining.'),
  expiresAt: DateTime,
});
export type InvitePreview = z.infer<typeof InvitePreview>;
export const InvitePreviewResponse = z.object({ invite: InvitePreview });
export const InviteAccepted = z.object({
  project: Project,
  member: Member.describe('The person who accepted, as the project member list shows them.'),
});

export const ProjectDeleted = z.object({ deleted: z.literal(true), projectId: Uuid });

/** `?confirm=` of a deletion: the key of what is deleted, typed by the person. */
export const DeleteConfirmation = z.object({
  confirm: z.string({ error: 'is required: the key of what is deleted, e.g. WEB-12' }).max(100).describe('The key of what is deleted, exactly (`WEB` for a project, `WEB-12` for a task): the person\'s explicit confirmation.'),
});
