import type { Scheduler } from '@gantry/engine';
import type { AssignmentRow, CalendarRow, DependencyRow, ProjectRow, ResourceRow, TaskRow } from '../../store/store.js';
import type { Plan } from './plan.js';
import { PlanRows } from './plan-rows.js';

interface Snapshot {
  version: number;
  /** Taken out by `get`: a write that fails must not leave its half-applied engine state behind. */
  scheduler?: Scheduler;
  tasks: Map<string, TaskRow>;
  dependencies: Map<string, DependencyRow>;
  resources: Map<string, ResourceRow>;
  assignments: Map<string, readonly AssignmentRow[]>;
  calendars: readonly CalendarRow[];
}

/**
 * The last committed plan of recently written projects, so that a write to a large
 * project does not read every task back first. An entry is used only when its version
 * equals the project's `plan_version`, read under the project's write lock — so another
 * process's write (another node, the CLI) simply makes it miss. A calendar write moves the
 * plan version too, so no entry outlives the working times it was computed on. Bounded: least recently
 * used projects are dropped.
 *
 * A write sees the entry's rows through its own copies (`PlanRows`) and `put` commits
 * them into the entry in place, so neither costs more than the write changed. That is safe
 * because the project's write lock admits one write at a time, and `put` runs after the
 * commit: by then no other write can be working on the version it replaces.
 */
export class PlanCache {
  private readonly entries = new Map<string, Snapshot>();

  constructor(private readonly capacity = 64) {}

  /** The plan as committed at `project.plan_version`; undefined on a miss. */
  get(project: ProjectRow): Plan | undefined {
    const snapshot = this.entries.get(project.id);
    if (!snapshot || snapshot.version !== project.plan_version) return undefined;
    this.entries.delete(project.id);
    this.entries.set(project.id, snapshot);
    const scheduler = snapshot.scheduler;
    snapshot.scheduler = undefined;
    return {
      project,
      tasks: new PlanRows(snapshot.tasks),
      dependencies: new PlanRows(snapshot.dependencies),
      resources: new PlanRows(snapshot.resources),
      assignments: new PlanRows(snapshot.assignments),
      calendars: snapshot.calendars,
      scheduler,
    };
  }

  /** Remembers a plan as committed at `version`. Call only after the commit succeeded. */
  put(plan: Plan, version: number): void {
    this.entries.delete(plan.project.id);
    this.entries.set(plan.project.id, {
      version,
      scheduler: plan.scheduler,
      tasks: plan.tasks.commit(),
      dependencies: plan.dependencies.commit(),
      resources: plan.resources.commit(),
      assignments: plan.assignments.commit(),
      calendars: plan.calendars,
    });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
