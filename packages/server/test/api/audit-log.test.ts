import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AuditLog, type AuditEntry } from '../../src/http/audit-log.js';
import { usePrivateStore } from '../support/test-store.js';

// docs/api.md › Authentication: every call is in the audit log; identical reads within one
// write of the log share an entry that counts them.
describe('the audit log', () => {
  const opened = usePrivateStore();
  const start = Date.parse('2026-03-02T08:00:00.000Z');
  const call = (overrides: Partial<AuditEntry> & { ms: number }): AuditEntry => ({
    credential: { kind: 'api_key', id: 'key-1' },
    userId: 'user-1',
    method: 'GET',
    path: '/api/projects/p1',
    status: 200,
    requestId: `request-${overrides.ms}`,
    durationMs: 1,
    at: new Date(start + overrides.ms),
    ...overrides,
  });

  it('counts identical reads of one batch in one entry, and keeps every write and every different read apart', async () => {
    const audit = new AuditLog(opened.store, pino({ level: 'silent' }), 60_000);
    audit.record(call({ ms: 0 }));
    audit.record(call({ ms: 1, durationMs: 7 }));
    audit.record(call({ ms: 2, status: 404 }));
    audit.record(call({ ms: 3, method: 'POST', path: '/api/projects', status: 201 }));
    audit.record(call({ ms: 4, method: 'POST', path: '/api/projects', status: 201 }));
    audit.record(call({ ms: 5, credential: { kind: 'api_key', id: 'key-2' } }));
    audit.record(call({ ms: 6, durationMs: 3 }));
    await audit.flush();
    audit.record(call({ ms: 7 })); // a new batch: a new entry
    await audit.close();

    const entries = await opened.store.q.apiKeys.listAuditEntries('key-1');
    expect(entries.map((entry) => [entry.method, entry.path, entry.status, entry.calls, entry.request_id, entry.duration_ms, entry.created_at])).toEqual([
      ['GET', '/api/projects/p1', 200, 3, 'request-0', 7, '2026-03-02T08:00:00.000Z'],
      ['GET', '/api/projects/p1', 404, 1, 'request-2', 1, '2026-03-02T08:00:00.002Z'],
      ['POST', '/api/projects', 201, 1, 'request-3', 1, '2026-03-02T08:00:00.003Z'],
      ['POST', '/api/projects', 201, 1, 'request-4', 1, '2026-03-02T08:00:00.004Z'],
      ['GET', '/api/projects/p1', 200, 1, 'request-7', 1, '2026-03-02T08:00:00.007Z'],
    ]);
    expect((await opened.store.q.apiKeys.listAuditEntries('key-2')).map((entry) => entry.calls)).toEqual([1]);
  });
});
