import { randomUUID } from 'node:crypto';
import type { Calendar, CalendarCreate, CalendarPatch, Conflict } from '@gantry/contract';
import type { CalendarRow, ProjectRow, Queries } from '../../store/store.js';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { AppError, invalid, notFound } from '../errors.js';
import { lockProject, requireProject } from '../permissions.js';
import { calendarAndDependents, calendarProblems, presentCalendar } from './calendar-rows.js';
import { firstWorkingMinute } from './plan.js';
import { recalculateOnly, rememberCommittedPlan, writePlanInTransaction } from './write-plan.js';

export async function listCalendars(ctx: DomainContext, actor: Actor, projectId: string): Promise<Calendar[]> {
  await requireProject(ctx, actor, projectId, 'viewer');
  return (await ctx.store.q.calendars.listForProject(projectId)).map(presentCalendar);
}

export async function getCalendar(ctx: DomainContext, actor: Actor, projectId: string, calendarId: string): Promise<Calendar> {
  await requireProject(ctx, actor, projectId, 'viewer');
  const row = await ctx.store.q.calendars.find(projectId, calendarId);
  if (!row) throw notFound('calendar');
  return presentCalendar(row);
}

/** The project locked for a calendar write, with its calendars as stored. */
async function lockedProject(tx: Queries, projectId: string): Promise<{ project: ProjectRow; calendars: CalendarRow[] }> {
  const project = await lockProject(tx, projectId);
  return { project, calendars: await tx.calendars.listForProject(projectId) };
}

function checked(calendars: readonly CalendarRow[], changed: CalendarRow): void {
  const problems = calendarProblems(calendars, changed, '');
  if (problems.length > 0) throw invalid(problems);
}

/**
 * Creates a calendar (editors and owners). Nothing works on it yet, but the plan version
 * moves: a write's plan holds the project's calendars (plan-cache.ts).
 */
export async function createCalendar(ctx: DomainContext, actor: Actor, projectId: string, input: CalendarCreate): Promise<Calendar> {
  await requireProject(ctx, actor, projectId, 'editor');
  const now = nowIso(ctx);
  const row = await ctx.store.transaction(async (tx) => {
    const { project, calendars } = await lockedProject(tx, projectId);
    const created: CalendarRow = {
      id: randomUUID(),
      project_id: projectId,
      name: input.name,
      time_zone: input.timeZone,
      weekly: JSON.stringify(input.weekly),
      exceptions: JSON.stringify(input.exceptions),
      base_calendar_id: input.baseCalendarId,
      created_at: now,
      updated_at: now,
    };
    checked([...calendars, created], created);
    await tx.calendars.insert(created);
    await tx.projects.update(projectId, { plan_version: project.plan_version + 1 });
    return created;
  });
  return presentCalendar(row);
}

/**
 * Deletes a calendar nothing works on (editors and owners; the web app alone, as every
 * deletion): one the project, a task or another calendar works on is refused with 409
 * `conflict` naming them, so a deletion never moves a date. The plan version moves, as the
 * cached plan holds the calendars.
 */
export async function deleteCalendar(ctx: DomainContext, actor: Actor, projectId: string, calendarId: string): Promise<void> {
  await requireProject(ctx, actor, projectId, 'editor');
  await ctx.store.transaction(async (tx) => {
    const { project, calendars } = await lockedProject(tx, projectId);
    const calendar = calendars.find((candidate) => candidate.id === calendarId);
    if (!calendar) throw notFound('calendar');
    const usedBy = {
      project: project.calendar_id === calendarId,
      taskIds: await tx.calendars.tasksOn(projectId, calendarId),
      calendarIds: calendars.filter((candidate) => candidate.base_calendar_id === calendarId).map((candidate) => candidate.id),
    };
    if (usedBy.project || usedBy.taskIds.length > 0 || usedBy.calendarIds.length > 0) {
      const users = [usedBy.project && 'the project', usedBy.taskIds.length > 0 && `${usedBy.taskIds.length} task(s)`, usedBy.calendarIds.length > 0 && `${usedBy.calendarIds.length} calendar(s) based on it`];
      throw new AppError('conflict', `the calendar "${calendar.name}" is in use (${users.filter(Boolean).join(', ')}): give them another calendar first`, { usedBy });
    }
    await tx.calendars.delete(calendarId);
    await tx.projects.update(projectId, { plan_version: project.plan_version + 1 });
  });
}

/**
 * Changes a calendar (editors and owners). When its working times change and the project
 * or a task works on it, or on a calendar based on it, every task is recalculated in the same transaction through the
 * one write path, and tasks that moved emit `task.dates_changed` (cause `reschedule`).
 */
export async function updateCalendar(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  calendarId: string,
  patch: CalendarPatch,
): Promise<{ calendar: Calendar; conflicts: Conflict[]; rescheduled: boolean }> {
  await requireProject(ctx, actor, projectId, 'editor');
  const now = nowIso(ctx);
  const updated = await ctx.store.transaction(async (tx) => {
    const { project, calendars } = await lockedProject(tx, projectId);
    const current = calendars.find((calendar) => calendar.id === calendarId);
    if (!current) throw notFound('calendar');
    const next: CalendarRow = {
      ...current,
      name: patch.name ?? current.name,
      time_zone: patch.timeZone ?? current.time_zone,
      weekly: patch.weekly ? JSON.stringify(patch.weekly) : current.weekly,
      exceptions: patch.exceptions ? JSON.stringify(patch.exceptions) : current.exceptions,
      base_calendar_id: patch.baseCalendarId === undefined ? current.base_calendar_id : patch.baseCalendarId,
      updated_at: now,
    };
    const after = calendars.map((calendar) => (calendar.id === calendarId ? next : calendar));
    checked(after, next);
    await tx.calendars.update(calendarId, next);
    const calendar = presentCalendar(next);

    const workingTimesChanged = (['time_zone', 'weekly', 'exceptions', 'base_calendar_id'] as const).some((column) => next[column] !== current[column]);
    const affected = calendarAndDependents(after, calendarId);
    const rescheduled =
      workingTimesChanged &&
      ((project.calendar_id !== null && affected.has(project.calendar_id)) || (await tx.calendars.usedByTasks(projectId, [...affected])));
    // The plan version moves past the cached plan's, which holds the calendars as they were (plan-cache.ts).
    const moved: ProjectRow = { ...project, plan_version: project.plan_version + 1 };
    if (!rescheduled || project.task_count === 0) {
      if (rescheduled) moved.finish_at = firstWorkingMinute(moved.start_date, after, moved.calendar_id);
      await tx.projects.update(projectId, { plan_version: moved.plan_version, finish_at: moved.finish_at });
      return { calendar, conflicts: [], rescheduled, plan: null };
    }
    const written = await writePlanInTransaction(ctx, tx, actor, moved, recalculateOnly);
    return { calendar, conflicts: written.conflicts, rescheduled, plan: written.plan };
  });
  const { plan } = updated;
  if (plan) ctx.store.afterCommit(() => rememberCommittedPlan(ctx, plan));
  return { calendar: updated.calendar, conflicts: updated.conflicts, rescheduled: updated.rescheduled };
}
