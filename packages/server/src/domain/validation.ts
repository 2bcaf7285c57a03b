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

/**
 * What no field of ours accepts, checked on the raw request before any schema: strings
 * holding U+0000 (PostgreSQL text cannot store it, so both stores refuse it alike) and
 * nesting deeper than `maxDepth` (no schema needs it; a walk over thousands of levels
 * would only spend the stack). Iterative, so any JSON the parser accepted is safe to walk.
 */
export function rawValueProblems(value: unknown, maxDepth: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: item, path } = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) problems.push({ path: formatPath(path, 'body'), message: 'must not contain the NUL character (U+0000)' });
    } else if (item !== null && typeof item === 'object') {
      if (path.length >= maxDepth) {
        problems.push({ path: formatPath(path, 'body'), message: `nests arrays and objects more than ${maxDepth} levels deep` });
        continue;
      }
      const entries = Array.isArray(item) ? item.map((child, index) => [index, child] as const) : Object.entries(item);
      for (let k = entries.length - 1; k >= 0; k--) stack.push({ value: entries[k]![1], path: [...path, entries[k]![0]] });
    }
  }
  return problems;
}
