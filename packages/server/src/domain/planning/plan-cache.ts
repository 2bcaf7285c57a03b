import type { Scheduler } from '@gantry/engine';
import type { AssignmentRow, DependencyRow, ProjectRow, ResourceRow, TaskRow } from '../../store/store.js';
import type { Plan } from './plan.js';

interface Snapshot {
  version: number;
  /** Taken out by `get`: a write that fails must not leave its half-applied engine state behind. */
  scheduler?: Scheduler;
  tasks: readonly TaskRow[];
  dependencies: readonly DependencyRow[];
  resources: readonly ResourceRow[];
  assignments: readonly AssignmentRow[];
}

/**
 * The last committed plan of recently written projects, so that a write to a large
 * project does not read every task back first. An entry is used only when its version
 * equals the project's `plan_version`, read under the project's write lock — so another
 * process's write (another node, the CLI) simply makes it miss. Bounded: least recently
 * used projects are dropped.
 */
export class PlanCache {
  private readonly entries = new Map<string, Snapshot>();

  constructor(private readonly capacity = 64) {}

  /** The plan as committed at `project.plan_version`, as fresh working copies; undefined on a miss. */
  get(project: ProjectRow): Plan | undefined {
    const snapshot = this.entries.get(project.id);
    if (!snapshot || snapshot.version !== project.plan_version) return undefined;
    this.entries.delete(project.id);
    this.entries.set(project.id, snapshot);
    const scheduler = snapshot.scheduler;
    snapshot.scheduler = undefined;
    const assignments = new Map<string, AssignmentRow[]>();
    for (const row of snapshot.assignments) assignments.set(row.task_id, [...(assignments.get(row.task_id) ?? []), row]);
    return {
      project,
      original: new Map(snapshot.tasks.map((row) => [row.id, row])),
      tasks: new Map(snapshot.tasks.map((row) => [row.id, { ...row }])),
      originalDependencies: new Map(snapshot.dependencies.map((row) => [row.id, row])),
      dependencies: new Map(snapshot.dependencies.map((row) => [row.id, { ...row }])),
      resources: new Map(snapshot.resources.map((row) => [row.id, row])),
      assignments,
      scheduler,
    };
  }

  /** Remembers a plan as committed at `version`. Call only after the commit succeeded. */
  put(plan: Plan, version: number): void {
    this.entries.delete(plan.project.id);
    this.entries.set(plan.project.id, {
      version,
      scheduler: plan.scheduler,
      tasks: [...plan.tasks.values()].map((row) => Object.freeze({ ...row })),
      dependencies: [...plan.dependencies.values()].map((row) => Object.freeze({ ...row })),
      resources: [...plan.resources.values()].map((row) => Object.freeze({ ...row })),
      assignments: [...plan.assignments.values()].flat().map((row) => Object.freeze({ ...row })),
    });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
