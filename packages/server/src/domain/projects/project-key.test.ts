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
});
