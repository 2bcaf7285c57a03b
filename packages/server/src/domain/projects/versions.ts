import { randomUUID } from 'node:crypto';
import type { Conflict, Project, Version } from '@gantry/contract';
import type { ProjectRow, Queries, VersionListRow } from '../../store/store.js';
import type { DocumentTask, PlanDocument } from '../exchange/plan-document.js';
import type { PlanChanges } from '../planning/apply-changes.js';
import type { Plan } from '../planning/plan.js';
import { presentProject } from '../planning/presenters.js';
import { rememberCommittedPlan, writePlanInTransaction } from '../planning/write-plan.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { appendEvents } from '../outbox.js';
import { lockProject, requireProject } from '../permissions.js';
import { documentLinks, documentOfProject, documentProblems, documentTaskCreate, publicTaskFields, recordedValuesOf, resourcesForDocument } from './plan-documents.js';
import { projectChanges } from './projects.js';

export const BEFORE_RESTORE_NAME = 'Before restore';

function presentVersion(row: VersionListRow): Version {
  return { id: row.id, projectId: row.project_id, name: row.name, taskCount: row.task_count, createdBy: row.created_by, createdAt: row.created_at };
}

export async function listVersions(ctx: DomainContext, actor: Actor, projectId: string): Promise<Version[]> {
  await requireProject(ctx, actor, projectId, 'viewer');
  return (await ctx.store.q.versions.list(projectId)).map(presentVersion);
}

/** Saves the plan as the write in `tx` sees it (the project locked) as a version. */
async function insertVersion(tx: Queries, project: ProjectRow, name: string | null, createdBy: string, now: string): Promise<Version> {
  const document = await documentOfProject(tx, project);
  const row = { id: randomUUID(), project_id: project.id, name, document: JSON.stringify(document), task_count: document.tasks.length, created_by: createdBy, created_at: now };
  await tx.versions.insert(row);
  return presentVersion(row);
}

/** Saves the whole plan as a version (editors and owners). */
export async function saveVersion(ctx: DomainContext, actor: Actor, projectId: string, name: string | undefined): Promise<Version> {
  await requireProject(ctx, actor, projectId, 'editor');
  const now = nowIso(ctx);
  return ctx.store.transaction(async (tx) => {
    const project = await lockProject(tx, projectId);
    return insertVersion(tx, project, name ?? null, actor.userId, now);
  });
}

/**
 * The changes that make `plan` the document's plan again: its tasks that still exist
 * get their saved values and place, the ones deleted since are created again (same id,
 * a new number), tasks not in it are deleted with their links; links and assignments
 * become the saved ones. Refs of a saved version are the ids of the plan's rows.
 */
function restoreChanges(plan: Plan, document: PlanDocument, resourceIds: ReadonlyMap<string, string>): PlanChanges {
  const id = (ref: string) => ref;
  const saved = new Set(document.tasks.map((task) => task.ref));
  const createTasks: PlanChanges['createTasks'] = [];
  const updateTasks: PlanChanges['updateTasks'] = [];
  document.tasks.forEach((task: DocumentTask, index) => {
    // A project's calendars are never deleted: a saved version's calendar refs are still its calendars' ids.
    if (plan.tasks.has(task.ref)) updateTasks.push({ ...publicTaskFields(task), calendarId: task.calendarRef, id: task.ref, path: `tasks[${index}]` });
    else createTasks.push(documentTaskCreate(task, task.ref, task.calendarRef, index));
  });
  // The top of each branch made since the version: deleting it deletes its subtasks (moved-away saved tasks excepted).
  const deleteTaskIds = [...plan.tasks.values()]
    .filter((task) => !saved.has(task.id) && (task.parent_id === null || saved.has(task.parent_id)))
    .map((task) => ({ id: task.id, path: 'tasks' }));
  const savedLinks = new Set(document.dependencies.map((link) => `${link.predecessorRef} ${link.successorRef}`));
  // Links of deleted tasks go with them.
  const deleteDependencyIds = [...plan.dependencies.values()]
    .filter((link) => saved.has(link.predecessor_id) && saved.has(link.successor_id) && !savedLinks.has(`${link.predecessor_id} ${link.successor_id}`))
    .map((link) => ({ id: link.id, path: 'dependencies' }));
  return {
    createTasks,
    updateTasks,
    createDependencies: documentLinks(document, id),
    deleteDependencyIds,
    deleteTaskIds,
    recordedValues: recordedValuesOf(document, id, resourceIds),
    fullReschedule: true,
  };
}

/**
 * Restores a saved version (editors and owners, in the web app only: the operation takes a
 * session; `confirm` must be the project key, since tasks made since are deleted). One
 * transaction: the plan as it is is saved as "Before restore", the project's scheduling
 * fields become the saved ones, then the plan through the one write path. Emits that
 * write's events and one `project.updated` with `reason: "restore"`.
 */
export async function restoreVersion(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  versionId: string,
  confirm: string,
): Promise<{ project: Project; conflicts: Conflict[]; rescheduled: true; taskCount: number; savedBefore: Version }> {
  await requireProject(ctx, actor, projectId, 'editor');
  const now = nowIso(ctx);
  const restored = await ctx.store.transaction(async (tx) => {
    const current = await lockProject(tx, projectId);
    const version = await tx.versions.find(projectId, versionId);
    if (!version) throw notFound('version');
    // Compared under the lock: the key of a project without tasks may still change.
    if (confirm !== current.key) throw invalid([{ path: 'confirm', message: `must be the key of the project, ${current.key}, to confirm the restore` }]);
    const document = JSON.parse(version.document) as PlanDocument;
    const problems = await documentProblems(document);
    if (problems.length > 0) throw invalid(problems);

    const savedBefore = await insertVersion(tx, current, BEFORE_RESTORE_NAME, actor.userId, now);
    // The project's calendars are never deleted: the saved calendar is still one of them (their working times stay as they are now).
    const next: ProjectRow = { ...current, start_date: document.startDate, deadline: document.deadline, schedule_from: document.scheduleFrom, calendar_id: document.calendarRef };
    const changes = projectChanges(current, next);
    if (Object.keys(changes).length > 0) {
      next.updated_at = now;
      await tx.projects.update(projectId, next);
    }
    // Filled once the plan is loaded: what to delete, and the resources, depend on it.
    const planChanges: PlanChanges = { createTasks: [], updateTasks: [], createDependencies: [], deleteDependencyIds: [], fullReschedule: true };
    const written = await writePlanInTransaction(ctx, tx, actor, next, planChanges, async (_tx, plan) => {
      Object.assign(planChanges, restoreChanges(plan, document, await resourcesForDocument(tx, plan, document, now)));
    });
    const project = presentProject(written.plan.project);
    await appendEvents(tx, actor, now, [{ type: 'project.updated', workspaceId: next.workspace_id, projectId, data: { project, changes, reason: 'restore' } }]);
    return { project, written, savedBefore };
  });
  ctx.store.afterCommit(() => rememberCommittedPlan(ctx, restored.written.plan));
  return { project: restored.project, conflicts: restored.written.conflicts, rescheduled: true, taskCount: restored.written.stats.taskCount, savedBefore: restored.savedBefore };
}
