import { z } from 'zod';
import { Uuid } from '../common.js';

export const WorkspaceRole = z.enum(['owner', 'admin', 'member']);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;

export const Workspace = z.object({
  id: Uuid,
  name: z.string(),
  role: WorkspaceRole.describe("The caller's role in the workspace."),
  personal: z.boolean().describe('True for the personal workspace created with the account.'),
});
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceList = z.object({ workspaces: z.array(Workspace) });
