import type { DocumentTask } from './plan-document.js';

/** Each task's outline number (`1`, `1.2`, `1.2.3`) by ref, from the document's outline order. */
export function outlineNumbers(tasks: readonly DocumentTask[]): Map<string, string> {
  const numbers = new Map<string, string>();
  const childCounts = new Map<string | null, number>();
  for (const task of tasks) {
    const position = (childCounts.get(task.parentRef) ?? 0) + 1;
    childCounts.set(task.parentRef, position);
    const parentNumber = task.parentRef === null ? undefined : numbers.get(task.parentRef);
    numbers.set(task.ref, parentNumber === undefined ? String(position) : `${parentNumber}.${position}`);
  }
  return numbers;
}
