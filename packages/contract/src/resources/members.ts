import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';

export const ProjectRole = z.enum(['owner', 'editor', 'viewer']);
export type ProjectRole = z.infer<typeof ProjectRole>;

export const Member = z.object({
  userId: Uuid,
  name: z.string(),
  email: z.string(),
  role: ProjectRole.describe('Effective project role: the highest of the direct role and the role inherited from the workspace.'),
  directRole: ProjectRole.nullable().describe('Role granted on the project itself; null = access only through the workspace.'),
  inherited: z.boolean().describe('Access comes from the workspace.'),
  resourceId: Uuid.nullable().describe('Resource used when the person is assigned to tasks.'),
  addedAt: DateTime,
  avatarUrl: z.string().nullable(),
});
export type Member = z.infer<typeof Member>;

export const MemberList = z.object({ members: z.array(Member) });

export const MemberRolePut = z.object({ role: ProjectRole.describe('The direct role on the project; the effective role is the higher of it and the workspace role.') });
export const MemberResponse = z.object({ member: Member });
export const MemberRemoved = z.object({
  userId: Uuid,
  member: Member.nullable().describe('The person as the member list now shows them (access through the workspace stays), or null when they no longer have access.'),
});
