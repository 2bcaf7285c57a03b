import { z } from 'zod';
import { Uuid } from './common.js';
import type { ErrorCode } from './errors.js';
import { MemberList } from './resources/members.js';
import {
  FullProject,
  ProjectCreate,
  ProjectList,
  ProjectListQuery,
  ProjectPatch,
  ProjectPatchResult,
  ProjectResponse,
} from './resources/projects.js';
import { MeResponse } from './resources/users.js';
import { WorkspaceList } from './resources/workspaces.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `read` suffices for reads; `write` includes `read`. */
export type Scope = 'read' | 'write';

/**
 * One operation of the public API, as data. The server binds a handler to it (and
 * validates with these schemas); the OpenAPI document is generated from the same list.
 */
export interface RouteDef<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI-style path, `{name}` for parameters. */
  path: string;
  scope: Scope;
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  /** Name of the request body schema in the OpenAPI components, and the schema. */
  body?: { name: string; schema: B; required: boolean };
  response: { status: 200 | 201; name: string; schema: R };
  /** Error codes this operation documents beyond the ones every route can answer. */
  errors: ErrorCode[];
}

function route<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): RouteDef<P, Q, B, R> {
  return def;
}

const projectParams = z.object({ projectId: Uuid });

export const routes = {
  getMe: route({
    operationId: 'getMe',
    method: 'GET',
    path: '/api/auth/me',
    scope: 'read',
    tag: 'Account',
    summary: 'The user the API key acts for',
    response: { status: 200, name: 'MeResponse', schema: MeResponse },
    errors: [],
  }),
  listWorkspaces: route({
    operationId: 'listWorkspaces',
    method: 'GET',
    path: '/api/workspaces',
    scope: 'read',
    tag: 'Account',
    summary: "Workspaces the caller belongs to, with the caller's role",
    description: 'A workspace-restricted key sees only its workspace.',
    response: { status: 200, name: 'WorkspaceList', schema: WorkspaceList },
    errors: [],
  }),
  listProjects: route({
    operationId: 'listProjects',
    method: 'GET',
    path: '/api/projects',
    scope: 'read',
    tag: 'Projects',
    summary: 'Projects visible to the caller (not paginated)',
    query: ProjectListQuery,
    response: { status: 200, name: 'ProjectList', schema: ProjectList },
    errors: ['invalid_request'],
  }),
  createProject: route({
    operationId: 'createProject',
    method: 'POST',
    path: '/api/projects',
    scope: 'write',
    tag: 'Projects',
    summary: 'Create a project',
    description:
      'The creator becomes a direct owner of the project. Emits `project.created` with `data.source = "blank"`.',
    body: { name: 'ProjectCreate', schema: ProjectCreate, required: true },
    response: { status: 201, name: 'ProjectResponse', schema: ProjectResponse },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  getProject: route({
    operationId: 'getProject',
    method: 'GET',
    path: '/api/projects/{projectId}',
    scope: 'read',
    tag: 'Projects',
    summary: 'The full project: project, tasks (with sortKey) and dependencies',
    params: projectParams,
    response: { status: 200, name: 'FullProject', schema: FullProject },
    errors: ['not_found'],
  }),
  updateProject: route({
    operationId: 'updateProject',
    method: 'PATCH',
    path: '/api/projects/{projectId}',
    scope: 'write',
    tag: 'Projects',
    summary: 'Update a project',
    description:
      'Only the fields sent change; null clears a nullable field. Editors and owners may edit; archiving and restoring need the owner role. Emits `project.updated` with `data.changes` (`{field: {from, to}}`).',
    params: projectParams,
    body: { name: 'ProjectPatch', schema: ProjectPatch, required: true },
    response: { status: 200, name: 'ProjectPatchResult', schema: ProjectPatchResult },
    errors: ['invalid_request', 'not_found', 'conflict'],
  }),
  listProjectMembers: route({
    operationId: 'listProjectMembers',
    method: 'GET',
    path: '/api/projects/{projectId}/members',
    scope: 'read',
    tag: 'People',
    summary: 'Everyone with access to the project, with effective and direct roles (not paginated)',
    params: projectParams,
    response: { status: 200, name: 'MemberList', schema: MemberList },
    errors: ['not_found'],
  }),
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;
