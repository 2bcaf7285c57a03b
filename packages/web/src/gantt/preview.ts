import { planScheduleInput, Scheduler, type ScheduleInput, type ScheduleResult, type TaskInput } from '@gantry/engine';
import { minutesPerDay } from '../format';
import type { FullProject, PlanTask, TaskPatch } from '../types';
import { dayInMs, workingDaysBetween } from './time-scale';

export interface Span {
  startAt: string | null;
  finishAt: string | null;
}

/** The change a drag makes: a move becomes a "start no earlier than" constraint, as Microsoft Project does; a resize changes the working duration. */
export function dragEdit(task: PlanTask, kind: 'move' | 'resize', days: number): TaskPatch {
  if (kind === 'move') return { constraintKind: 'start_no_earlier_than', constraintDate: new Date(Date.parse(task.startAt!) + days * dayInMs).toISOString() };
  const finish = Date.parse(task.finishAt!);
  return { durationMin: Math.max(0, task.durationMin + workingDaysBetween(finish, finish + days * dayInMs) * minutesPerDay) };
}

/**
 * What the server would compute if one task were edited, computed in the browser by the
 * same pure engine, for a drag's instant preview: the engine is built once per plan
 * (a full run, about 12 ms for 10,000 tasks), then each preview is an incremental run
 * over what the edit reaches (well under a millisecond for one task).
 */
export class SchedulePreview {
  private scheduler: Scheduler | null = null;
  /** Built at the first drag, not with every new plan: a write on a 50,000-task plan should not pay for a preview nobody asked for. */
  private prepared: { input: ScheduleInput; positions: Map<string, number> } | null = null;
  /** Every task a preview since the plan was loaded has recomputed. */
  private readonly reached = new Set<string>();

  constructor(private readonly plan: FullProject) {}

  /** The dates of every task the edit moves, the edited one included. */
  preview(taskId: string, edit: TaskPatch): Map<string, Span> {
    if (!this.prepared) {
      const input = planScheduleInput(this.plan);
      this.prepared = { input, positions: new Map(input.tasks.map((task, index) => [task.id, index])) };
    }
    const { input, positions } = this.prepared;
    this.scheduler ??= new Scheduler(input);
    const position = positions.get(taskId);
    if (position === undefined) return new Map();
    const tasks = input.tasks.slice();
    tasks[position] = { ...tasks[position]!, ...(edit as Partial<TaskInput>) };
    const result = this.scheduler.update({ ...input, tasks }, { changedTaskIds: [taskId] });
    for (const id of result.changedTaskIds) this.reached.add(id);
    return this.spans(result);
  }

  private spans(result: ScheduleResult): Map<string, Span> {
    const byId = new Map<string, Span>();
    for (const row of result.tasks) if (this.reached.has(row.id)) byId.set(row.id, { startAt: row.startAt, finishAt: row.finishAt });
    return byId;
  }
}
