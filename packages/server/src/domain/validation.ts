import { limits, textRuleProblem, type FieldProblem } from '@gantry/contract';
import type { z } from 'zod';

/** `['createTasks', 3, 'durationMin']` → `createTasks[3].durationMin`; the root is `body`. */
export function formatPath(path: readonly PropertyKey[], root: string): string {
  let text = '';
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  }
  return text || root;
}

/** The problem of a text longer than `max` characters (none for a shorter one, or none at all): for inputs no contract schema parses (the CLI's). */
export function tooLong(path: string, text: string | null | undefined, max: number): FieldProblem[] {
  return (text?.length ?? 0) > max ? [{ path, message: `must have at most ${max} characters` }] : [];
}

/** Every issue of a failed parse, as `details.fields` entries. */
export function fieldProblems(error: z.ZodError, root: string): FieldProblem[] {
  return error.issues.map((issue) => ({
    path: formatPath(issue.path, root),
    message: issue.code === 'invalid_type' && /received undefined$/.test(issue.message) ? 'is required' : issue.message,
  }));
}

/** Every issue of a failed parse of a value that stands at `at` (`['calendars', 2]`), as `details.fields` entries. */
export function problemsAt(error: z.ZodError, at: readonly PropertyKey[]): FieldProblem[] {
  return error.issues.map((issue) => ({ path: formatPath([...at, ...issue.path], ''), message: issue.message }));
}

/** What a request beyond the bounds is told: the same from the raw-text scan (http) and from the walk below. */
export const boundsMessages = {
  items: `has more than ${limits.changesPerChangeSet} items; at most ${limits.changesPerChangeSet} are accepted`,
  depth: `nests arrays and objects more than ${limits.requestBodyMaxDepth} levels deep`,
  values: `holds more than ${limits.requestValuesMax} values in all`,
};

interface Visit {
  value: unknown;
  key: PropertyKey;
  parent: Visit | null;
  depth: number;
}

function pathOf(visit: Visit, root: string): string {
  const path: PropertyKey[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.push(at.key);
  return formatPath(path.reverse(), root);
}

/**
 * What no field of ours accepts, checked on the raw input before any schema, in time that
 * grows with what is accepted, not with what was sent: an array longer than any field
 * takes (its items are not looked at), a string longer than any field takes or against
 * the text rule (`textRuleProblem`), nesting deeper than any schema needs, more values in
 * all than the largest change set holds. Stops at the first `errorFieldsMax` problems.
 * Iterative, so any JSON the parser accepted is safe to walk.
 */
export function boundsProblems(value: unknown, root: string, longestString: number = limits.descriptionMaxLength): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stack: Visit[] = [{ value, key: root, parent: null, depth: 0 }];
  let values = 0;
  while (stack.length > 0 && problems.length < limits.errorFieldsMax) {
    const visit = stack.pop()!;
    const item = visit.value;
    const problem = (message: string) => problems.push({ path: pathOf(visit, root), message });
    if (++values > limits.requestValuesMax) {
      problems.push({ path: root, message: boundsMessages.values });
      break;
    }
    if (typeof item === 'string') {
      // No field takes more than a description (notes, comments) unless its route says so (an imported file); most take less.
      if (item.length > longestString) problem(`is longer than ${longestString} characters`);
      else {
        const broken = textRuleProblem(item);
        if (broken !== null) problem(broken);
      }
    } else if (item !== null && typeof item === 'object') {
      if (visit.depth >= limits.requestBodyMaxDepth) {
        problem(boundsMessages.depth);
      } else if (Array.isArray(item)) {
        // No list takes more items than a change set takes changes.
        if (item.length > limits.changesPerChangeSet) problem(boundsMessages.items);
        else for (let k = item.length - 1; k >= 0; k--) stack.push({ value: item[k], key: k, parent: visit, depth: visit.depth + 1 });
      } else {
        const keys = Object.keys(item);
        for (let k = keys.length - 1; k >= 0; k--) stack.push({ value: (item as Record<string, unknown>)[keys[k]!], key: keys[k]!, parent: visit, depth: visit.depth + 1 });
      }
    }
  }
  return problems;
}
