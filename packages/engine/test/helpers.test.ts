import { describe, expect, it } from 'vitest';
import { applyProgressEdit, applyTaskEdit, pertExpectedDuration, type EffortState } from '../src/index.js';

const r = (id: string, unitsPct = 100) => ({ resourceId: id, unitsPct });

describe('task types', () => {
  it('fixed_units: duration edit changes work, work edit changes duration', () => {
    let s: EffortState = { taskType: 'fixed_units', effortDriven: false, durationMin: 480, workMin: 480, assignments: [r('R1')] };
    s = applyTaskEdit(s, { kind: 'duration', durationMin: 960 });
    expect(s.workMin).toBe(960);
    s = applyTaskEdit(s, { kind: 'work', workMin: 1200 });
    expect(s.durationMin).toBe(1200);
  });
  it('fixed_duration: work edit changes units, units edit changes work', () => {
    let s: EffortState = { taskType: 'fixed_duration', effortDriven: false, durationMin: 480, workMin: 480, assignments: [r('R1')] };
    s = applyTaskEdit(s, { kind: 'work', workMin: 960 });
    expect(s.assignments[0]!.unitsPct).toBe(200);
    s = applyTaskEdit({ ...s, workMin: 480, assignments: [r('R1')] }, { kind: 'units', unitsPct: { R1: 50 } });
    expect(s.workMin).toBe(240);
  });
  it('fixed_work: duration edit changes units, units edit changes duration', () => {
    let s: EffortState = { taskType: 'fixed_work', effortDriven: true, durationMin: 960, workMin: 960, assignments: [r('R1')] };
    s = applyTaskEdit(s, { kind: 'duration', durationMin: 480 });
    expect(s.assignments[0]!.unitsPct).toBe(200);
    s = applyTaskEdit({ ...s, durationMin: 960, assignments: [r('R1')] }, { kind: 'units', unitsPct: { R1: 50 } });
    expect(s.durationMin).toBe(1920);
  });
  it('51: work 960 at 50% gives a 1920-minute duration on first assignment (fixed_work)', () => {
    const s = applyTaskEdit(
      { taskType: 'fixed_work', effortDriven: true, durationMin: 480, workMin: 960, assignments: [] },
      { kind: 'assignments', assignments: [r('R1', 50)] },
    );
    expect(s.durationMin).toBe(1920);
  });
  it('without assignees the duration drives and work is kept', () => {
    const s = applyTaskEdit({ taskType: 'fixed_units', effortDriven: true, durationMin: 480, workMin: 100, assignments: [] }, { kind: 'duration', durationMin: 960 });
    expect(s).toMatchObject({ durationMin: 960, workMin: 100 });
  });
});

describe('effort-driven (scenarios 52–53)', () => {
  const base = (taskType: EffortState['taskType'], effortDriven: boolean): EffortState => ({
    taskType,
    effortDriven,
    durationMin: 1920,
    workMin: 1920,
    assignments: [r('R1')],
  });
  const add = (s: EffortState) => applyTaskEdit(s, { kind: 'assignments', assignments: [r('R1'), r('R2')] });
  const remove = (s: EffortState) => applyTaskEdit(s, { kind: 'assignments', assignments: [r('R1')] });
  it('fixed_units effort-driven: duration halves, then restores', () => {
    const a = add(base('fixed_units', true));
    expect(a).toMatchObject({ durationMin: 960, workMin: 1920 });
    expect(remove(a).durationMin).toBe(1920);
  });
  it('fixed_units not effort-driven: work doubles', () => {
    const a = add(base('fixed_units', false));
    expect(a).toMatchObject({ durationMin: 1920, workMin: 3840 });
    expect(remove(a).workMin).toBe(1920);
  });
  it('fixed_duration effort-driven: units 50% each', () => {
    const a = add(base('fixed_duration', true));
    expect(a.durationMin).toBe(1920);
    expect(a.workMin).toBe(1920);
    expect(a.assignments.map((x) => x.unitsPct)).toEqual([50, 50]);
    expect(remove(a).assignments.map((x) => x.unitsPct)).toEqual([100]);
  });
  it('fixed_duration not effort-driven: work doubles', () => {
    expect(add(base('fixed_duration', false))).toMatchObject({ durationMin: 1920, workMin: 3840 });
  });
  it('fixed_work is always effort-driven', () => {
    expect(add(base('fixed_work', false)).durationMin).toBe(960);
  });
  it('first assignment: work = duration × units', () => {
    const s = applyTaskEdit({ ...base('fixed_units', true), assignments: [], workMin: 0 }, { kind: 'assignments', assignments: [r('R1'), r('R2')] });
    expect(s).toMatchObject({ durationMin: 1920, workMin: 3840 });
  });
});

describe('PERT (scenario 54)', () => {
  it('computes the 1-4-1 weighted mean, rounded', () => {
    expect(pertExpectedDuration(960, 1920, 2880)).toBe(1920);
    expect(pertExpectedDuration(480, 960, 2400)).toBe(1120);
    expect(pertExpectedDuration(480, 960, 2400, [1, 3, 2])).toBe(1360);
    expect(pertExpectedDuration(null, 960, 2400)).toBeNull();
  });
});

describe('progress edits (scenario 48)', () => {
  const st = { durationMin: 960, progressPct: 50, actualDurationMin: 480, remainingDurationMin: 480, actualStartAt: '2026-03-02T08:00:00.000Z', actualFinishAt: null };
  it('remaining duration edit extends the duration', () => {
    const s = applyProgressEdit(st, { kind: 'remainingDurationMin', remainingDurationMin: 720 });
    expect(s).toMatchObject({ durationMin: 1200, progressPct: 40 });
  });
  it('actual duration beyond the duration completes the task', () => {
    const s = applyProgressEdit(st, { kind: 'actualDurationMin', actualDurationMin: 1500 });
    expect(s).toMatchObject({ durationMin: 1500, remainingDurationMin: 0, progressPct: 100 });
  });
  it('percent complete sets actual and remaining; actual start defaults to the scheduled start', () => {
    const s = applyProgressEdit({ ...st, progressPct: 0, actualDurationMin: 0, remainingDurationMin: 960, actualStartAt: null }, { kind: 'progressPct', progressPct: 25, scheduledStartAt: '2026-03-04T08:00:00.000Z' });
    expect(s).toMatchObject({ actualDurationMin: 240, remainingDurationMin: 720, actualStartAt: '2026-03-04T08:00:00.000Z' });
  });
  it('actual finish fixes the duration to the worked span (product decision 9)', () => {
    const s = applyProgressEdit(st, { kind: 'actualFinishAt', actualFinishAt: '2026-03-04T12:00:00.000Z' });
    expect(s).toMatchObject({ durationMin: 1200, actualDurationMin: 1200, remainingDurationMin: 0, progressPct: 100 });
  });
});
