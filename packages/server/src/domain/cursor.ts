import { invalid } from './errors.js';

/** An opaque page cursor: the position of the last item, as base64url JSON. */
export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/**
 * Reads a cursor back; `accept` checks the position's shape and returns it, or null. Any
 * cursor not issued by the same listing is a 400 on `cursor`.
 */
export function decodeCursor<T>(cursor: string, accept: (position: Record<string, unknown>) => T | null): T {
  let position: T | null = null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (parsed !== null && typeof parsed === 'object') position = accept(parsed as Record<string, unknown>);
  } catch {
    // not JSON: answered below like any foreign cursor
  }
  if (position === null) throw invalid([{ path: 'cursor', message: 'is not a cursor of this listing (use nextCursor as returned, with the same parameters)' }]);
  return position;
}
