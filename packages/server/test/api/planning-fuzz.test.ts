import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planningClient, scheduleDrift, type PlanningClient, type User } from '../support/planning.js';
import { provisionUser, startTestServer, type TestServer } from '../support/test-server.js';

// Property: whatever a client sends to the planning write endpoints, the service answers
// a documented 2xx/4xx (docs/api.md › Error codes), never a 5xx; every 400
// lists its problems in details.fields; and afterwards the stored schedule equals a full
// recomputation by the engine.

const knownErrors = new Set(['invalid_request', 'not_found', 'conflict', 'dependency_cycle', 'forbidden', 'limit_exceeded', 'payload_too_large']);

/** A reference resolved when the command runs: an existing task, a fresh id, junk, or null. */
type Ref = { existing: number } | 'random' | 'junk' | null;
const ref: fc.Arbitrary<Ref> = fc.oneof(
  { weight: 20, arbitrary: fc.nat().map((n) => ({ existing: n })) },
  { weight: 1, arbitrary: fc.constant<Ref>('random') },
  { weight: 1, arbitrary: fc.constant<Ref>('junk') },
  { weight: 1, arbitrary: fc.constant<Ref>(null) },
);

const isoInMarch = fc.integer({ min: 0, max: 40 * 24 * 60 }).map((minutes) => new Date(Date.UTC(2026, 2, 1) + minutes * 60_000).toISOString());
/** Mostly valid values, sometimes invalid ones. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, invalid: fc.Arbitrary<U>) => fc.oneof({ weight: 10, arbitrary: valid }, { weight: 1, arbitrary: invalid });
const dateValue = mostly(fc.oneof(isoInMarch, fc.constant(null)), fc.constantFrom('not-a-date', '2026-13-40T00:00:00Z', 12));
const minutes = mostly(fc.integer({ min: 0, max: 4800 }), fc.constantFrom(-5, 1.5, 100_000_001, '60', null, Number.MAX_SAFE_INTEGER));
/** Any JSON string may arrive: printable text mostly, sometimes any code point (control characters, NUL). */
const oddUnit = fc.constantFrom('a', 'Z', ' ', 'é', '\u{1F600}', '\u0000', '\u0007', '\u001f', '\u007f', '\u2028', '\ufeff', '\\', '%', '_');
const anyString = (maxLength: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.string({ maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: oddUnit, minLength: 1, maxLength }) },
  );
const text = (max: number) => mostly(fc.oneof(anyString(max), fc.constant(null)), fc.constantFrom(42, 'x'.repeat(max + 50)));

const editable = {
  name: mostly(anyString(30).filter((name) => name.trim().length > 0), fc.constantFrom('', '   ', null, 7, 'n'.repeat(600))),
  type: mostly(fc.constantFrom('task', 'task', 'task', 'milestone', 'milestone', 'summary'), fc.constant('phase')),
  durationMin: minutes,
  workMin: minutes,
  progressPct: mostly(fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constantFrom(0, 50, 100)), fc.constantFrom(-1, 101, '50')),
  constraintKind: mostly(
    fc.constantFrom('asap', 'asap', 'alap', 'start_no_earlier_than', 'start_no_later_than', 'finish_no_earlier_than', 'finish_no_later_than', 'must_start_on', 'must_finish_on'),
    fc.constant('soon'),
  ),
  constraintDate: dateValue,
  deadline: dateValue,
  costFixed: mostly(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(-1, '10')),
  notes: text(200),
  color: text(32),
  wbs: text(100),
  externalId: text(200),
  manuallyScheduled: mostly(fc.boolean(), fc.constant('yes')),
  levelingDelayMin: minutes,
  taskType: mostly(fc.constantFrom('fixed_units', 'fixed_duration', 'fixed_work', 'fixed_duration_and_units'), fc.constant('other')),
  effortDriven: fc.boolean(),
  durationOptimisticMin: minutes,
  durationPessimisticMin: minutes,
  actualStartAt: dateValue,
  actualFinishAt: dateValue,
  calendarId: mostly(fc.constant(null), fc.uuid()),
};
/** Computed fields, refused when sent: rarely added to a body. */
const computed = fc.oneof(
  { weight: 30, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom({ startAt: '2026-03-05T08:00:00.000Z' }, { isCritical: true }, { totalFloatMin: 0 }) },
);
type Fields = Record<string, unknown>;
/** A dated constraint kind usually comes with its date (a missing one stays a possible 400 on PATCH). */
function withConstraintDate(fields: Fields): Fields {
  const dated = typeof fields.constraintKind === 'string' && !['asap', 'alap', 'soon'].includes(fields.constraintKind);
  return dated && fields.constraintDate === undefined ? { ...fields, constraintDate: '2026-03-10T08:00:00.000Z' } : fields;
}
/** A few fields at a time: mostly plausible bodies, some invalid. */
const someFields = fc
  .tuple(fc.dictionary(fc.constantFrom(...Object.keys(editable)), fc.constant(true), { maxKeys: 4 }), computed)
  .chain(([picked, extra]) =>
    fc.record(Object.fromEntries(Object.keys(picked).map((key) => [key, editable[key as keyof typeof editable]])) as Record<string, fc.Arbitrary<unknown>>).map((fields) => ({ ...withConstraintDate(fields), ...extra })),
  );
const placement = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  fc.record({ parentId: ref }),
  fc.record({ afterTaskId: ref }),
  fc.record({ beforeTaskId: ref }),
  fc.record({ parentId: ref, afterTaskId: ref, beforeTaskId: ref }, { requiredKeys: [] }),
);
const depItem = fc.record({
  predecessorId: ref,
  successorId: ref,
  type: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('FS', 'SS', 'FF', 'SF') }, { weight: 1, arbitrary: fc.constantFrom('XX', undefined) }),
  lagMin: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: -960, max: 960 }) }, { weight: 1, arbitrary: fc.constantFrom(0.5, undefined, '5') }),
});

type Command =
  | { kind: 'create'; fields: Fields; placement: Fields }
  | { kind: 'patch'; task: Ref; fields: Fields; placement: Fields | null }
  | { kind: 'set'; creates: { fields: Fields; placement: Fields; clientId: boolean }[]; updates: { task: Ref; fields: Fields }[]; links: Fields[]; deletes: number[] }
  | { kind: 'link'; items: Fields[]; many: boolean }
  | { kind: 'unlink'; index: number | 'random' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), fields: someFields, placement }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('patch' as const), task: ref, fields: someFields, placement: fc.option(placement) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('set' as const),
      creates: fc.array(fc.record({ fields: someFields, placement, clientId: fc.boolean() }), { maxLength: 5 }),
      updates: fc.array(fc.record({ task: ref, fields: someFields }), { maxLength: 3 }),
      links: fc.array(depItem, { maxLength: 4 }),
      deletes: fc.array(fc.nat(), { maxLength: 2 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('link' as const), items: fc.array(depItem, { minLength: 1, maxLength: 3 }), many: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unlink' as const), index: fc.oneof(fc.nat(), fc.constant('random' as const)) }) },
);

describe('planning fuzz', () => {
  let server: TestServer;
  let owner: User;
  let client: PlanningClient;
  let projectId: string;
  let taskIds: string[] = [];
  let dependencyIds: string[] = [];
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'fuzz@example.com');
    client = planningClient(server, owner.key);
    projectId = (await client.createProject({ name: 'Fuzz', key: 'FUZ' })).id;
    const seeded = await client.changeSet(projectId, { createTasks: Array.from({ length: 8 }, (_, i) => ({ name: `seed ${i}`, durationMin: 240 * (i + 1) })) });
    expect(seeded.status).toBe(200);
    await refresh();
  });
  afterAll(() => server.close());

  async function refresh(): Promise<void> {
    const full = await client.fullProject(projectId);
    taskIds = full.body.tasks.map((t) => t.id);
    dependencyIds = full.body.dependencies.map((d) => d.id);
  }

  function resolve(value: Ref, local: string[] = []): string | null | undefined {
    if (value === null) return null;
    if (value === 'random') return crypto.randomUUID();
    if (value === 'junk') return 'not-a-uuid';
    const pool = [...taskIds, ...local];
    return pool.length === 0 ? crypto.randomUUID() : pool[value.existing % pool.length];
  }
  function resolvePlacement(p: Fields, local: string[] = []): Fields {
    return Object.fromEntries(Object.entries(p).map(([key, value]) => [key, resolve(value as Ref, local)]));
  }
  function resolveLink(item: Fields, local: string[] = []): Fields {
    const out: Fields = { ...item, predecessorId: resolve(item.predecessorId as Ref, local), successorId: resolve(item.successorId as Ref, local) };
    for (const key of ['type', 'lagMin']) if (out[key] === undefined) delete out[key];
    return out;
  }

  function request(cmd: Command): { method: string; path: string; body: unknown } {
    const base = `/api/projects/${projectId}`;
    switch (cmd.kind) {
      case 'create':
        return { method: 'POST', path: `${base}/tasks`, body: { name: 'fuzz task', ...cmd.fields, ...resolvePlacement(cmd.placement) } };
      case 'patch': {
        const id = resolve(cmd.task) ?? crypto.randomUUID();
        return { method: 'PATCH', path: `${base}/tasks/${id}`, body: { ...cmd.fields, ...(cmd.placement ? { placement: resolvePlacement(cmd.placement) } : {}) } };
      }
      case 'set': {
        const local: string[] = [];
        const createTasks = cmd.creates.map((item) => {
          const body: Fields = { name: 'set task', ...item.fields, ...resolvePlacement(item.placement, local) };
          if (item.clientId) {
            body.id = crypto.randomUUID();
            local.push(body.id as string);
          }
          return body;
        });
        return {
          method: 'POST',
          path: `${base}/tasks`,
          body: {
            createTasks,
            updateTasks: cmd.updates.map((u) => ({ ...u.fields, id: resolve(u.task, local) })),
            createDependencies: cmd.links.map((l) => resolveLink(l, local)),
            deleteDependencyIds: cmd.deletes.map((n) => dependencyIds[n % Math.max(dependencyIds.length, 1)] ?? crypto.randomUUID()),
          },
        };
      }
      case 'link':
        return { method: 'POST', path: `${base}/dependencies`, body: cmd.many ? { dependencies: cmd.items.map((i) => resolveLink(i)) } : resolveLink(cmd.items[0] as Fields) };
      case 'unlink': {
        const id = cmd.index === 'random' ? crypto.randomUUID() : (dependencyIds[cmd.index % Math.max(dependencyIds.length, 1)] ?? crypto.randomUUID());
        return { method: 'DELETE', path: `${base}/dependencies/${id}`, body: undefined };
      }
    }
  }

  it('never answers 5xx, every 4xx is documented, every 400 has details.fields, the schedule stays consistent', async () => {
    const deadline = Date.now() + 20_000;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 15 }), async (commands) => {
        for (const cmd of commands) {
          if (Date.now() > deadline) return;
          const { method, path, body } = request(cmd);
          const response = await server.request<{ error?: string; details?: { fields?: unknown[] } }>(method, path, { key: owner.key, body });
          sent += 1;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const context = `${method} ${path} ${String(JSON.stringify(body)).slice(0, 400)} → ${response.status} ${JSON.stringify(response.body).slice(0, 400)}`;
          expect(response.status, context).toBeLessThan(500);
          if (response.status >= 400) {
            expect(knownErrors.has(response.body.error ?? ''), context).toBe(true);
            if (response.status === 400) {
              expect(response.body.error, context).toBe('invalid_request');
              expect(Array.isArray(response.body.details?.fields) && (response.body.details?.fields?.length ?? 0) > 0, context).toBe(true);
            }
          } else {
            await refresh();
          }
          if (sent % 250 === 0) expect(await scheduleDrift(server, projectId), `after ${sent} requests`).toEqual([]);
        }
      }),
      { numRuns: 250, endOnFailure: true },
    );
    expect(sent).toBeGreaterThan(100);
    // Some of each: the generator reaches both the successes and the refusals.
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(sent / 10);

    expect(await scheduleDrift(server, projectId)).toEqual([]);
    const full = await client.fullProject(projectId);
    const numbers = full.body.tasks.map((t) => t.number).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(numbers.length);
  }, 60_000);
});
