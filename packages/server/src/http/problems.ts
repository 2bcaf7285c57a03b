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
 * Strings holding U+0000: PostgreSQL text cannot store it, and no field of ours needs it,
 * so it is refused up front on both stores alike.
 */
export function nulProblems(value: unknown, path: PropertyKey[] = []): FieldProblem[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [{ path: formatPath(path, 'body'), message: 'must not contain the NUL character (U+0000)' }] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => nulProblems(item, [...path, index]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => nulProblems(item, [...path, key]));
  return [];
}
