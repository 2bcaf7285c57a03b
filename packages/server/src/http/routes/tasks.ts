import { isChangeSet, routes, type ChangeSet, type DependencyCreate, type TaskCreate } from '@gantry/contract';
import type { FastifyInstance } from 'fastify';
import { putAssignees } from '../../domain/planning/assignees.js';
import { listBaselines, saveBaseline } from '../../domain/planning/baselines.js';
import { createComment, listComments } from '../../domain/planning/comments.js';
import { applyChangeSet, createTask, deleteDependency, getTask, listDependencies, listTasks, updateTask, writeDependencies } from '../../domain/planning/tasks.js';
import type { PlanWriteResult } from '../../domain/planning/write-plan.js';
import { registerRoute, WithStatus, type RouteDeps } from '../register-route.js';

/** The write result without the plan the domain worked on. */
function writeResult<T extends PlanWriteResult>({ plan: _plan, ...result }: T): Omit<T, 'plan'> {
  return result;
}

export function taskRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { ctx } = deps;
  registerRoute(app, deps, routes.listTasks, async ({ actor, params, query }) => listTasks(ctx, actor, params.projectId, query));
  registerRoute(app, deps, routes.createTasks, async ({ actor, params, body }) => {
    if (isChangeSet(body)) return new WithStatus(200, writeResult(await applyChangeSet(ctx, actor, params.projectId, body as ChangeSet)));
    return writeResult(await createTask(ctx, actor, params.projectId, body as TaskCreate));
  });
  registerRoute(app, deps, routes.getTask, async ({ actor, params }) => ({ task: await getTask(ctx, actor, params.projectId, params.taskId) }));
  registerRoute(app, deps, routes.updateTask, async ({ actor, params, body }) => writeResult(await updateTask(ctx, actor, params.projectId, params.taskId, body)));
  registerRoute(app, deps, routes.listComments, async ({ actor, params }) => ({ comments: await listComments(ctx, actor, params.projectId, params.taskId) }));
  registerRoute(app, deps, routes.createComment, async ({ actor, params, body }) => ({ comment: await createComment(ctx, actor, params.projectId, params.taskId, body) }));
  registerRoute(app, deps, routes.putAssignees, async ({ actor, params, body }) => writeResult(await putAssignees(ctx, actor, params.projectId, params.taskId, body)));
  registerRoute(app, deps, routes.listDependencies, async ({ actor, params }) => ({ dependencies: await listDependencies(ctx, actor, params.projectId) }));
  registerRoute(app, deps, routes.createDependencies, async ({ actor, params, body }) =>
    writeResult(await writeDependencies(ctx, actor, params.projectId, body as DependencyCreate | { dependencies: DependencyCreate[] })),
  );
  registerRoute(app, deps, routes.deleteDependency, async ({ actor, params }) => writeResult(await deleteDependency(ctx, actor, params.projectId, params.dependencyId)));
  registerRoute(app, deps, routes.listBaselines, async ({ actor, params }) => ({ baselines: await listBaselines(ctx, actor, params.projectId) }));
  registerRoute(app, deps, routes.saveBaseline, async ({ actor, params, body }) => ({ baseline: await saveBaseline(ctx, actor, params.projectId, body.name) }));
}
