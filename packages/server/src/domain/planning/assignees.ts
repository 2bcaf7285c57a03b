import type { Task } from '@gantry/contract';
import { nowIso, type Actor, type DomainContext } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { nonMemberProblems, projectMembers } from '../members.js';
import { requireProject } from '../permissions.js';
import { displayName } from '../users.js';
import { presentTask } from './presenters.js';
import { newResourceRow } from './resources.js';
import { assigneeViews, writePlan, type PlanWriteResult } from './write-plan.js';

/**
 * Replaces who is assigned to a task. `userIds` must be project members (each gets the
 * project resource that stands for them, created on first use); `resourceIds` replaces
 * the account-less resources, or keeps them when omitted. Work, duration and units follow
 * the task type's rule through the one write path.
 */
export async function putAssignees(
  ctx: DomainContext,
  actor: Actor,
  projectId: string,
  taskId: string,
  input: { userIds: string[]; resourceIds?: string[] },
): Promise<PlanWriteResult & { task: Task }> {
  const { project } = await requireProject(ctx, actor, projectId, 'editor');
  if (!(await ctx.store.q.tasks.findById(projectId, taskId))) throw notFound('task');
  const people = await projectMembers(ctx, project);
  const problems = nonMemberProblems(people, input.userIds, 'userIds');
  if (problems.length > 0) throw invalid(problems);

  const memberResourceIds: string[] = [];
  const result = await writePlan(
    ctx,
    actor,
    projectId,
    {
      createTasks: [],
      updateTasks: [],
      createDependencies: [],
      deleteDependencyIds: [],
      fullReschedule: false,
      assignees: { taskId, memberResourceIds, resourceIds: input.resourceIds, path: '' },
    },
    async (tx, plan) => {
      const byUser = new Map([...plan.resources.values()].filter((r) => r.user_id).map((r) => [r.user_id as string, r]));
      for (const userId of [...new Set(input.userIds)]) {
        let resource = byUser.get(userId);
        if (!resource) {
          const person = people.get(userId);
          resource = newResourceRow(projectId, { userId, name: person ? displayName(person) : userId }, nowIso(ctx));
          await tx.people.insertResource(resource);
          plan.resources.set(resource.id, resource);
        }
        memberResourceIds.push(resource.id);
      }
    },
  );
  const row = result.plan.tasks.get(taskId);
  if (!row) throw notFound('task');
  return { ...result, task: presentTask(row, project.key, assigneeViews(result.plan, taskId), ctx.baseUrl) };
}
