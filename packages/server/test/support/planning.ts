import type { ErrorBody } from '@gantry/contract';
import { schedule } from '@gantry/engine';
import { expect } from 'vitest';
import { engineInput, loadPlan } from '../../src/domain/planning/plan.js';
import type { EventRow } from '../../src/store/store.js';
import type { ApiResponse, provisionUser, TestServer } from './test-server.js';

/** Shared types and helpers of the planning API tests (docs/api.md › Tasks, › Dependencies, › People). */

export interface PlanTask {
  id: string;
  number: number;
  key: string;
  parentId: string | null;
  sortKey: string;
  name: string;
  type: 'summary' | 'task' | 'milestone';
  durationMin: number;
  workMin: number;
  progressPct: number;
  constraintKind: string;
  constraintDate: string | null;
  deadline: string | null;
  calendarId: string | null;
  costFixed: number;
  notes: string | null;
  color: string | null;
  wbs: string | null;
  externalId: string | null;
  startAt: string | null;
  finishAt: string | null;
  isCritical: boolean;
  totalFloatMin: number | null;
  earlyStartAt: string | null;
  lateFinishAt: string | null;
  actualStartAt: string | null;
  actualFinishAt: string | null;
  actualDurationMin: number | null;
  remainingDurationMin: number | null;
  manuallyScheduled: boolean;
  durationEstimated: boolean;
}
export type Task = Omit<PlanTask, 'sortKey'> & {
  projectId: string;
  completed: boolean;
  assignees: { resourceId: string; userId: string | null; name: string; unitsPct: number }[];
  url: string;
};
export interface Dependency {
  id: string;
  predecessorId: string;
  successorId: string;
  type: 'FS' | 'SS' | 'FF' | 'SF';
  lagMin: number;
}
export interface WriteResult {
  tasks: PlanTask[];
  deletedTaskIds: string[];
  dependencies: Dependency[];
  deletedDependencyIds: string[];
  assignments: { taskId: string; resourceId: string; unitsPct: number }[];
  reassignedTaskIds: string[];
  conflicts: unknown[];
  projectStartAt: string;
  projectFinishAt: string;
  stats: { taskCount: number; recomputedCount: number; savedCount: number; durationMs: number };
}
/** The contract's error body. */
export type { ErrorBody };
export type Body<T> = T & ErrorBody;
export type User = Awaited<ReturnType<typeof provisionUser>>;

export const uuid = () => crypto.randomUUID();

export function fieldPaths(body: ErrorBody): string[] {
  return (body.details?.fields ?? []).map((field) => field.path);
}

export function eventData(row: EventRow): Record<string, unknown> {
  return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>;
}

/**
 * A thin typed client over the test server for one key, or for a web session (its
 * `headers`: the cookie and the CSRF token, see `sessions.ts › signIn`).
 */
export function planningClient(server: TestServer, credential: string | { headers: Record<string, string> }) {
  const key = typeof credential === 'string' ? credential : '';
  const sessionHeaders = typeof credential === 'string' ? {} : credential.headers;
  const req = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.request<Body<T>>(method, path, { key, body, headers: { ...sessionHeaders, ...headers } });
  return {
    key,
    createProject: async (body: Record<string, unknown> = {}) => {
      const response = await req<{ project: { id: string; key: string; keyLocked: boolean; workspaceId: string } }>('POST', '/api/projects', {
        name: 'Website',
        startDate: '2026-03-02',
        ...body,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body.project;
    },
    createTask: (projectId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
      req<WriteResult>('POST', `/api/projects/${projectId}/tasks`, body, headers),
    changeSet: (projectId: string, body: Record<string, unknown>) => req<WriteResult>('POST', `/api/projects/${projectId}/tasks`, body),
    patchTask: (projectId: string, taskId: string, body: Record<string, unknown>) => req<WriteResult>('PATCH', `/api/projects/${projectId}/tasks/${taskId}`, body),
    getTask: (projectId: string, taskId: string) => req<{ task: Task }>('GET', `/api/projects/${projectId}/tasks/${taskId}`),
    listTasks: (projectId: string, query = '') => req<{ tasks: Task[]; nextCursor: string | null }>('GET', `/api/projects/${projectId}/tasks${query ? `?${query}` : ''}`),
    fullProject: (projectId: string) =>
      req<{
        project: { id: string; key: string; keyLocked: boolean };
        tasks: PlanTask[];
        dependencies: Dependency[];
        baselines: { id: string; name: string; index: number | null; taskCount: number; tasks: { taskId: string; startAt: string | null; finishAt: string | null; durationMin: number }[] }[];
      }>('GET', `/api/projects/${projectId}`),
    link: (projectId: string, body: Record<string, unknown>) => req<WriteResult>('POST', `/api/projects/${projectId}/dependencies`, body),
    listDependencies: (projectId: string) => req<{ dependencies: Dependency[] }>('GET', `/api/projects/${projectId}/dependencies`),
    unlink: (projectId: string, dependencyId: string) => req<WriteResult>('DELETE', `/api/projects/${projectId}/dependencies/${dependencyId}`),
    putAssignees: (projectId: string, taskId: string, body: Record<string, unknown>) =>
      req<WriteResult & { task: Task }>('PUT', `/api/projects/${projectId}/tasks/${taskId}/assignees`, body),
    comment: (projectId: string, taskId: string, body: Record<string, unknown>) =>
      req<{ comment: { id: string; taskId: string; userId: string; body: string; mentions: string[]; authorName: string } }>('POST', `/api/projects/${projectId}/tasks/${taskId}/comments`, body),
    listComments: (projectId: string, taskId: string) => req<{ comments: { id: string; body: string }[] }>('GET', `/api/projects/${projectId}/tasks/${taskId}/comments`),
    saveBaseline: (projectId: string, body: Record<string, unknown> = {}) =>
      req<{ baseline: { id: string; name: string; index: number | null; taskCount: number; capturedBy: string | null } }>('POST', `/api/projects/${projectId}/baseline`, body),
    listBaselines: (projectId: string) => req<{ baselines: { id: string; name: string; index: number | null; taskCount: number }[] }>('GET', `/api/projects/${projectId}/baseline`),
    req,
  };
}
export type PlanningClient = ReturnType<typeof planningClient>;

/** A new read-only API key of a provisioned user, made through the CLI. */
export async function readOnlyKey(server: TestServer, email: string): Promise<string> {
  const created = await server.cli('key', 'create', '--email', email, '--scope', 'read', '--json');
  expect(created.code, created.stderr).toBe(0);
  return (created.json as { key: string }).key;
}

/** Gives a provisioned user a direct role on a project, through the CLI. */
export async function addProjectMember(server: TestServer, projectId: string, email: string, role: 'owner' | 'editor' | 'viewer'): Promise<void> {
  const added = await server.cli('project', 'add-member', '--project', projectId, '--email', email, '--role', role);
  expect(added.code, added.stderr).toBe(0);
}

/**
 * A project of the client (key `key`) holding Phase (a summary with A → B) and C after B:
 * a branch to delete whose links reach outside it.
 */
export async function branchPlan(client: PlanningClient, key: string) {
  const project = await client.createProject({ name: `Plan ${key}`, key });
  const [phase, a, b, c] = [uuid(), uuid(), uuid(), uuid()];
  const created = await client.changeSet(project.id, {
    createTasks: [
      { id: phase, name: 'Phase', type: 'summary' },
      { id: a, name: 'A', parentId: phase },
      { id: b, name: 'B', parentId: phase },
      { id: c, name: 'C' },
    ],
    createDependencies: [
      { predecessorId: a, successorId: b },
      { predecessorId: b, successorId: c },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { project, phase, a, b, c, links: created.body.dependencies.map((link) => link.id) };
}

/** Creates a task and returns it, failing the test on anything but 201. */
export async function newTask(client: PlanningClient, projectId: string, body: Record<string, unknown>): Promise<PlanTask> {
  const response = await client.createTask(projectId, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const created = response.body.tasks.filter((task) => task.name === body.name).sort((a, b) => b.number - a.number)[0];
  expect(created).toBeDefined();
  return created as PlanTask;
}

export function expectStatus(response: ApiResponse<unknown>, status: number): void {
  expect(response.status, JSON.stringify(response.body).slice(0, 600)).toBe(status);
}

/** Asserts a refusal: its exact status and the error fields given (`error`, `details.reason`…). */
export function expectRefused(response: ApiResponse<unknown>, status: number, body: Partial<ErrorBody>): void {
  expect(response.status, JSON.stringify(response.body).slice(0, 600)).toBe(status);
  expect(response.body).toMatchObject(body);
}

/**
 * Differences between the stored computed values of every task of a project and a full
 * recomputation by the engine from the stored rows (empty = consistent).
 */
export async function scheduleDrift(server: TestServer, projectId: string): Promise<string[]> {
  const project = await server.store.q.projects.findById(projectId);
  if (!project) return [`project ${projectId} not found`];
  const plan = await loadPlan(server.store.q, project);
  const result = schedule(engineInput(plan));
  const problems: string[] = [];
  for (const computed of result.tasks) {
    const row = plan.tasks.get(computed.id);
    if (!row) continue;
    const pairs: [string, unknown, unknown][] = [
      ['startAt', row.start_at, computed.startAt],
      ['finishAt', row.finish_at, computed.finishAt],
      ['earlyStartAt', row.early_start_at, computed.earlyStartAt],
      ['lateFinishAt', row.late_finish_at, computed.lateFinishAt],
      ['totalFloatMin', row.total_float_min, computed.totalFloatMin],
      ['isCritical', row.is_critical === 1, computed.isCritical],
    ];
    for (const [name, stored, expected] of pairs) {
      if (stored !== expected) problems.push(`${project.key}-${row.number} ${name}: stored ${String(stored)}, recomputed ${String(expected)}`);
    }
  }
  if (result.cycles.length > 0) problems.push(`stored plan has cycles: ${result.cycles.map((c) => c.path).join('; ')}`);
  return problems;
}
