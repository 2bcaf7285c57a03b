import { describe, expect, it } from 'vitest';
import { deriveProjectKey, firstFreeKey } from './project-key.js';

describe('deriveProjectKey', () => {
  it.each([
    ['Website', 'WEB'],
    ['Website Redesign', 'WR'],
    ['New office move 2027 plan Q3 extra', 'NOMPQ'],
    ['Été à Paris', 'EAP'],
    ['x', 'PRJ'],
    ['2027 roadmap', 'ROA'],
    ['日本語', 'PRJ'],
    ['Go', 'GO'],
  ])('%s → %s', (name, key) => {
    expect(deriveProjectKey(name)).toBe(key);
    expect(key).toMatch(/^[A-Z][A-Z0-9]{1,4}$/);
  });
});

describe('firstFreeKey', () => {
  it('keeps a free key and numbers taken ones within 5 characters', () => {
    expect(firstFreeKey('WEB', new Set())).toBe('WEB');
    expect(firstFreeKey('WEB', new Set(['WEB', 'WEB2']))).toBe('WEB3');
    expect(firstFreeKey('NOMPQ', new Set(['NOMPQ']))).toBe('NOMP2');
    expect(firstFreeKey('AB', new Set(['AB', ...Array.from({ length: 8 }, (_, i) => `AB${i + 2}`)]))).toBe('AB10');
  });

  it('cuts the base further for longer numbers, and gives up after P9999 rather than make a key that starts with a digit', () => {
    const numbered = (n: number) => `${'PRJ'.slice(0, 5 - String(n).length)}${n}`;
    const upTo = (last: number) => new Set(['PRJ', ...Array.from({ length: last - 1 }, (_, i) => numbered(i + 2))]);
    expect(firstFreeKey('PRJ', upTo(99))).toBe('PR100');
    expect(firstFreeKey('PRJ', upTo(999))).toBe('P1000');
    expect(firstFreeKey('PRJ', upTo(9999))).toBeNull();
  });
});
