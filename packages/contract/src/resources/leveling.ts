import { z } from 'zod';
import { DateTime, Uuid } from '../common.js';
import { limits } from '../limits.js';
import { WriteResult } from './tasks.js';

export const LevelingRequest = z.object({
  resourceIds: z
    .array(Uuid)
    .min(1)
    .max(limits.changesPerChangeSet)
    .optional()
    .describe("Level only these resources of the project (a task's `assignees[].resourceId`); omitted: every resource."),
});
export type LevelingRequest = z.output<typeof LevelingRequest>;

const change = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value });

export const LeveledTask = z
  .object({
    taskId: Uuid,
    key: z.string().describe('`<projectKey>-<number>`'),
    levelingDelayMin: change(z.number().int()).describe("Working minutes of the task's calendar."),
    startAt: change(DateTime.nullable()),
    finishAt: change(DateTime.nullable()),
  })
  .describe('A task whose leveling delay changes, with its dates before and after.');

export const ResourceOverallocation = z
  .object({
    resourceId: Uuid,
    startAt: DateTime,
    finishAt: DateTime,
    peakUnitsPct: z.number().describe('The most units assigned at once in the span, in percent.'),
    capacityPct: z.number().describe("The resource's capacity in percent: 100, one full-time resource."),
    taskIds: z.array(Uuid).describe('The tasks assigned to the resource during the span.'),
    reason: z
      .string()
      .describe(
        'Why leveling left it: `demand_exceeds_capacity` (a task needs more of the resource than it has, e.g. 200 %), `fixed_tasks` (tasks leveling does not move overlap: manually scheduled, started, ALAP or with a "no later than" or "must" date) or `not_converged`; further reasons may be added.',
      ),
  })
  .describe('A span during which a resource stays assigned beyond its capacity.');

export const LevelingSummary = z.object({
  resourceIds: z.array(Uuid).describe('The resources leveled, sorted.'),
  tasks: z.array(LeveledTask).describe('Every task whose `levelingDelayMin` changes (and only those), in task-number order; `tasks` of the write result also lists the tasks that move with them.'),
  projectFinishAt: change(DateTime).describe('The project finish before and after leveling.'),
  overallocations: z.array(ResourceOverallocation).describe('What stays over-allocated after leveling, by resource, then start.'),
});
export type LevelingSummary = z.infer<typeof LevelingSummary>;

export const LevelingResult = WriteResult.extend({
  leveling: LevelingSummary.describe('Additive: what leveling changed, and what it could not resolve.'),
});
export type LevelingResult = z.infer<typeof LevelingResult>;
