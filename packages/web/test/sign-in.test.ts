import { describe, expect, it } from 'vitest';
import { localPath } from '../src/pages/auth-pages';

describe('after signing in', () => {
  it('goes only to a path of this app', () => {
    expect(localPath('/projects/1?x=2')).toBe('/projects/1?x=2');
    for (const elsewhere of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) expect(localPath(elsewhere)).toBe('/');
  });
});
