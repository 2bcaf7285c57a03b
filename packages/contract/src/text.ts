/**
 * The rule every text of the service keeps, however it comes in (a JSON body, an MCP tool
 * call, an imported file, a template, a restored version): well-formed Unicode (a lone
 * UTF-16 surrogate would be stored as U+FFFD, not as sent) and no U+0000 (PostgreSQL text
 * cannot store it, so both stores refuse it alike). Lengths are each field's own.
 * Returns what is wrong with `text`, or null.
 */
export function textRuleProblem(text: string): string | null {
  if (!text.isWellFormed()) return 'must be well-formed Unicode (it holds a lone UTF-16 surrogate)';
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  return null;
}
