import { limits, type FieldProblem } from '@gantry/contract';
import { boundsMessages, formatPath } from '../domain/validation.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

interface Container {
  isArray: boolean;
  /** Commas seen: items (or members) so far, less one. */
  commas: number;
  /** Where it sits in its parent: a member name or an item index. */
  key: string | number;
  /** The name of the member being read, in an object. */
  member: string;
}

function problemAt(stack: readonly Container[], message: string): FieldProblem {
  return { path: formatPath(stack.slice(1).map((container) => container.key), 'body'), message };
}

/**
 * A first look at a JSON request body, before it is parsed: the longest array, the
 * nesting and the count of values, which no field of ours needs beyond the request
 * limits. Parsing builds every value first — a 4 MiB body of a million empty objects
 * holds the event loop for about a quarter of a second — while this scan takes a few
 * milliseconds and stops at the first excess. Returns that excess, or null; the text
 * need not be valid JSON (the parser says what is wrong with it).
 */
export function jsonTextProblem(text: string): FieldProblem | null {
  const stack: Container[] = [];
  let values = 0;
  let expectsMember = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i + 1;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (expectsMember && stack.length > 0) stack[stack.length - 1]!.member = text.slice(start, i);
      expectsMember = false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++values > limits.requestValuesMax) return problemAt(stack.slice(0, 1), boundsMessages.values);
      const parent = stack[stack.length - 1];
      const key = parent === undefined ? '' : parent.isArray ? parent.commas : parent.member;
      stack.push({ isArray: c === OPEN_ARRAY, commas: 0, key, member: '' });
      if (stack.length > limits.requestBodyMaxDepth) return problemAt(stack, boundsMessages.depth);
      expectsMember = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      stack.pop();
      expectsMember = false;
    } else if (c === COMMA) {
      if (++values > limits.requestValuesMax) return problemAt(stack.slice(0, 1), boundsMessages.values);
      const container = stack[stack.length - 1];
      if (!container) continue;
      container.commas += 1;
      if (container.isArray && container.commas >= limits.changesPerChangeSet) return problemAt(stack, boundsMessages.items);
      expectsMember = !container.isArray;
    }
  }
  return null;
}
