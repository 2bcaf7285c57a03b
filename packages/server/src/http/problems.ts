import type { FieldProblem } from '@gantry/contract';
import type { z } from 'zod';

/** `['createTasks', 3, 'durationMin']` → `createTasks[3].durationMin`; the root is `body`. */
export function formatPath(path: readonly PropertyKey[], root: string): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  }
  return text || root;
}

/** Every issue of a failed parse, as `details.fields` entries. */
export function fieldProblems(error: z.ZodError, root: string): FieldProblem[] {
  return error.issues.map((issue) => ({
    path: formatPath(issue.path, root),
    message: issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'is required' : issue.message,
  }));
}
