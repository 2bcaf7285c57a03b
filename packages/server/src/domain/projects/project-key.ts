/**
 * Derives a project key (2-5 letters/digits, starting with a letter) from a name:
 * the initials of a multi-word name ("Website Redesign" → "WR"), else the first three
 * letters of the name ("Website" → "WEB"); "PRJ" when the name has no usable letters.
 */
export function deriveProjectKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .map((word) => word.replace(/^[0-9]+/, ''))
    .filter((word) => word.length > 0);
  const initials = words.map((word) => word[0]).join('').slice(0, 5);
  if (words.length > 1 && initials.length >= 2) return initials;
  const first = words[0] ?? '';
  return first.length >= 2 ? first.slice(0, 3) : 'PRJ';
}

/**
 * The first of `base`, `base2`, `base3`, … (the base cut to fit 5 characters: `PR100`,
 * `P1000`) that is not taken, or null when all of them up to `P9999` are. Every candidate
 * starts with the base's first letter: `taken` needs only the workspace's keys that do.
 */
export function firstFreeKey(base: string, taken: ReadonlySet<string>): string | null {
  if (!taken.has(base)) return base;
  for (let suffix = 2; suffix <= 9999; suffix++) {
    const digits = String(suffix);
    const candidate = base.slice(0, 5 - digits.length) + digits;
    if (!taken.has(candidate)) return candidate;
  }
  return null;
}
