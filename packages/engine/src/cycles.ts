import { Network } from './network.js';
import type { CycleReport, DependencyInput, TaskInput } from './types.js';

/**
 * Finds dependency cycles before saving (the 409 `dependency_cycle` details). Summary
 * semantics count: linking a summary to one of its own descendants (either direction) is a
 * cycle. Every link that lies on some cycle is covered by at least one report; each report
 * is a shortest cycle through such a link, rotated to start at the smallest task id, and
 * reports are sorted by `path`. Returns `[]` for an acyclic plan. Never throws; links to
 * unknown tasks and self-links are ignored.
 */
export function findCycles(tasks: readonly TaskInput[], dependencies: readonly DependencyInput[]): CycleReport[] {
  const net = new Network({ project: { startAt: '1970-01-01T00:00:00Z' }, tasks, dependencies });
  return net.cycles.slice();
}
