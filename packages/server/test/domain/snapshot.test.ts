import { describe, expect, it } from 'vitest';
import { runGantry } from '../support/processes.js';
import { usePrivateStore } from '../support/test-store.js';

// Reads that make one answer of several queries (a full plan, an export, a duplicate) take
// them on one snapshot: a write another process commits in between is not half seen.
describe('Store.snapshot', () => {
  const opened = usePrivateStore();

  const createUser = async (email: string) => {
    const result = await runGantry(['user', 'create', '--email', email, '--name', email], { ...opened.storeEnv.env, LOG_LEVEL: 'silent' });
    expect(result.code, result.stderr).toBe(0);
  };

  it('reads as of its first read, whatever another process commits meanwhile; outside it, the commit is seen', async () => {
    await createUser('first@example.com');
    const [before, after] = await opened.store.snapshot(async (q) => {
      const first = await q.users.findByEmail('first@example.com');
      // The CLI is another process: it commits while the snapshot is open (SQLite's WAL lets it; PostgreSQL too).
      await createUser('second@example.com');
      return [first, await q.users.findByEmail('second@example.com')];
    });
    expect(before?.email).toBe('first@example.com');
    expect(after).toBeUndefined();
    expect((await opened.store.q.users.findByEmail('second@example.com'))?.email).toBe('second@example.com');
  });

  it('is read-only: a write inside it is refused, and nothing is written; writes go on after it', async () => {
    const now = new Date().toISOString();
    const row = { id: crypto.randomUUID(), email: 'inside@example.com', name: 'Inside', locale: 'en', email_verified: 0 as const, created_at: now, updated_at: now };
    await expect(opened.store.snapshot((q) => q.users.insert(row))).rejects.toThrow();
    expect(await opened.store.q.users.findByEmail('inside@example.com')).toBeUndefined();
    await opened.store.q.users.insert(row);
    expect((await opened.store.q.users.findByEmail('inside@example.com'))?.name).toBe('Inside');
  });
});
