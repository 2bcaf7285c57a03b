import type { FullProject } from '@gantry/contract';
import { planScheduleInput, schedule, type ScheduleInput, type ScheduleResult } from '@gantry/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineInput, loadPlan } from '../../src/domain/planning/plan.js';
import { expectStatus, newTask, planningClient, uuid, type PlanningClient } from '../support/planning.js';
import { provisionUser, startTestServer, type ApiResponse, type TestServer } from '../support/test-server.js';

// Issue 28: the web app's drag preview schedules the plan `GET /api/projects/{id}` returns
// with the engine's `planScheduleInput`; the server schedules its rows with `engineInput`.
// Both must give the engine the same input, so the preview shows what the server stores.
describe('the engine input of a plan as the API reads it', () => {
  let server: TestServer;
  let client: PlanningClient;
  let owner: Awaited<ReturnType<typeof provisionUser>>;

  beforeAll(async () => {
    server = await startTestServer({ GANTRY_RATE_LIMIT_WRITES: '100000', GANTRY_RATE_LIMIT_READS: '100000' });
    owner = await provisionUser(server, 'scheduler@example.com');
    client = planningClient(server, owner.key);
  });
  afterAll(() => server.close());

  async function created<T>(response: Promise<ApiResponse<T>>, status = 201): Promise<T> {
    const answered = await response;
    expectStatus(answered, status);
    return answered.body;
  }

  /**
   * A plan using every input the engine takes: a project calendar east of UTC (work starts
   * before UTC midnight ends, so its zone decides the project start) with a holiday and a
   * working Saturday, a task calendar based on it in a zone that changes to summer time,
   * every constraint kind but ASAP's default, deadlines, progress, a manually scheduled
   * task, nested summaries, the four link types with lags and leads, and assignments.
   */
  async function richPlan(): Promise<string> {
    const project = await client.createProject({ name: 'Engine input', key: 'EIN', startDate: '2026-03-02', deadline: '2026-05-29' });
    const day: [string, string][] = [
      ['08:00', '12:00'],
      ['13:00', '17:00'],
    ];
    const tokyo = (
      await created(
        client.req<{ calendar: { id: string } }>('POST', `/api/projects/${project.id}/calendars`, {
          name: 'Tokyo office',
          timeZone: 'Asia/Tokyo',
          weekly: [[], day, day, day, day, [['08:00', '12:00']], []],
          exceptions: [
            { name: 'Vernal Equinox Day', from: '2026-03-20', to: '2026-03-20', intervals: [] },
            { name: 'Stocktaking', from: '2026-03-28', to: '2026-03-28', intervals: [['10:00', '14:00']] },
          ],
        }),
      )
    ).calendar;
    const seattle = (
      await created(
        client.req<{ calendar: { id: string } }>('POST', `/api/projects/${project.id}/calendars`, {
          name: 'Seattle lab',
          timeZone: 'America/Los_Angeles',
          weekly: [null, [['07:00', '15:00']], null, null, null, [], null],
          baseCalendarId: tokyo.id,
        }),
      )
    ).calendar;
    expectStatus(await client.req('PATCH', `/api/projects/${project.id}`, { calendarId: tokyo.id }), 200);

    const [kickOff, design, build, review, approval, launch, nested, lab, fixed, late, pinned, report, manual] = [uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid(), uuid()];
    const changeSet = await client.changeSet(project.id, {
      createTasks: [
        { id: kickOff, name: 'Kick-off', durationMin: 240 },
        { id: design, name: 'Design', type: 'summary' },
        { id: build, name: 'Build', parentId: design, durationMin: 1440, taskType: 'fixed_work', effortDriven: true, workMin: 2880 },
        { id: review, name: 'Review', parentId: design, durationMin: 960, constraintKind: 'start_no_earlier_than', constraintDate: '2026-03-09T01:00:00Z' },
        { id: approval, name: 'Approval', parentId: design, durationMin: 0, deadline: '2026-03-10T08:00:00Z' },
        { id: launch, name: 'Launch', type: 'summary' },
        { id: nested, name: 'Rollout', type: 'summary', parentId: launch },
        { id: lab, name: 'Lab tests', parentId: nested, durationMin: 1200, calendarId: seattle.id, durationOptimisticMin: 900, durationPessimisticMin: 2400 },
        { id: fixed, name: 'Fixed date', parentId: nested, durationMin: 480, constraintKind: 'must_finish_on', constraintDate: '2026-04-10T08:00:00Z' },
        { id: late, name: 'As late as possible', parentId: launch, durationMin: 240, constraintKind: 'alap' },
        { id: pinned, name: 'Capped', durationMin: 720, constraintKind: 'finish_no_later_than', constraintDate: '2026-03-13T08:00:00Z', levelingDelayMin: 120 },
        { id: report, name: 'Report', durationMin: 480, constraintKind: 'start_no_later_than', constraintDate: '2026-04-20T00:00:00Z' },
        { id: manual, name: 'Workshop', durationMin: 960 },
      ],
      createDependencies: [
        { predecessorId: build, successorId: review, type: 'FS', lagMin: 480 },
        { predecessorId: review, successorId: approval, type: 'FF', lagMin: 120 },
        { predecessorId: build, successorId: lab, type: 'SS', lagMin: -240 },
        { predecessorId: lab, successorId: fixed, type: 'FS', lagMin: 0 },
        { predecessorId: approval, successorId: late, type: 'SF', lagMin: 240 },
        { predecessorId: fixed, successorId: report, type: 'FS', lagMin: -480 },
        { predecessorId: design, successorId: manual, type: 'FS', lagMin: 0 },
        { predecessorId: build, successorId: pinned, type: 'FS', lagMin: 0 },
      ],
    });
    expectStatus(changeSet, 200);
    // Turned manual, it stays where it is now; then its predecessor moves past it.
    expectStatus(await client.patchTask(project.id, manual, { manuallyScheduled: true }), 200);
    expectStatus(await client.patchTask(project.id, build, { durationMin: 2400 }), 200);
    expectStatus(await client.patchTask(project.id, build, { actualStartAt: '2026-03-02T00:00:00Z', progressPct: 40 }), 200);
    const resource = (await created(client.req<{ resource: { id: string } }>('POST', `/api/projects/${project.id}/resources`, { name: 'Test rig' }))).resource;
    expectStatus(await client.putAssignees(project.id, build, { userIds: [owner.userId], resourceIds: [resource.id] }), 200);
    expectStatus(await client.putAssignees(project.id, lab, { userIds: [], resourceIds: [resource.id] }), 200);
    await newTask(client, project.id, {
      name: 'Wrap-up',
      durationMin: 480,
      parentId: launch,
      constraintKind: 'must_start_on',
      constraintDate: '2026-03-16T00:00:00Z',
      deadline: '2026-03-03T00:00:00Z',
    });
    return project.id;
  }

  let projectId: string;
  let plan: FullProject;
  beforeAll(async () => {
    projectId = await richPlan();
    plan = await created(client.req<FullProject>('GET', `/api/projects/${projectId}`), 200);
  });

  /** Each stored task's computed values beside the engine's, by task name. */
  function storedAndComputed(result: ScheduleResult) {
    const computed = new Map(result.tasks.map((task) => [task.id, task]));
    const summaryRollup = (task: { durationMin: number; progressPct: number; actualStartAt: string | null; actualFinishAt: string | null }) => ({
      durationMin: task.durationMin,
      progressPct: task.progressPct,
      actualStartAt: task.actualStartAt,
      actualFinishAt: task.actualFinishAt,
    });
    return plan.tasks.map((task) => {
      const engine = computed.get(task.id)!;
      const dates = (values: typeof task | typeof engine) => ({
        startAt: values.startAt,
        finishAt: values.finishAt,
        earlyStartAt: values.earlyStartAt,
        lateFinishAt: values.lateFinishAt,
        totalFloatMin: values.totalFloatMin,
        isCritical: values.isCritical,
        ...(task.type === 'summary' ? summaryRollup(values) : {}),
      });
      return { name: task.name, stored: dates(task), computed: dates(engine) };
    });
  }

  it('schedules to the dates the server stored', () => {
    const result = schedule(planScheduleInput(plan));
    expect(result.cycles).toEqual([]);
    for (const { name, stored, computed } of storedAndComputed(result)) expect(computed, name).toEqual(stored);
    // The plan does reach what it was built for: Monday 2 March starts at 08:00 in Tokyo.
    expect(plan.tasks.find((task) => task.name === 'Kick-off')?.startAt).toBe('2026-03-01T23:00:00.000Z');
    expect(new Set(result.conflicts.map((conflict) => conflict.kind))).toEqual(new Set(['deadline_missed', 'manual_vs_link']));
    expect(plan.tasks.filter((task) => task.isCritical).length).toBeGreaterThan(0);
  });

  /** An input with its lists in id order, as the engine reads them whatever their order. */
  function byId(input: ScheduleInput): ScheduleInput {
    const ordered = <T extends { id: string }>(items: readonly T[] | null | undefined) => [...(items ?? [])].sort((a, b) => a.id.localeCompare(b.id));
    return {
      ...input,
      calendars: ordered(input.calendars),
      tasks: ordered(input.tasks).map((task) => ({ ...task, assignments: [...(task.assignments ?? [])].sort((a, b) => a.resourceId.localeCompare(b.resourceId)) })),
      dependencies: ordered(input.dependencies),
    };
  }

  it("is the input the server's write path builds from its rows", async () => {
    const project = (await server.store.q.projects.findById(projectId))!;
    const fromRows = engineInput(await loadPlan(server.store.q, project));
    expect(byId(planScheduleInput(plan))).toStrictEqual(byId(fromRows));
  });

  it('passes each task field the API and the engine both name as the API reads it', () => {
    const input = planScheduleInput(plan);
    plan.tasks.forEach((task, index) => {
      const shared = Object.entries(input.tasks[index]!).filter(([field]) => field in task);
      expect(shared.length).toBeGreaterThan(20);
      expect(Object.fromEntries(shared), task.name).toEqual(Object.fromEntries(shared.map(([field]) => [field, task[field as keyof typeof task]])));
    });
  });
});
