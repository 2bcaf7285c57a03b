import { describe, expect, it } from 'vitest';
import { pertSample, schedule, seededRandom, simulateFinishes, type ScheduleInput } from '../src/index.js';

const project = { startAt: '2026-03-02T00:00:00.000Z' };

describe('PERT Monte Carlo', () => {
  it('draws durations inside the range, around the PERT expected duration, the same for the same seed', () => {
    const random = seededRandom(42);
    const draws = Array.from({ length: 20_000 }, () => pertSample(480, 960, 2880, random));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(480);
    expect(Math.max(...draws)).toBeLessThanOrEqual(2880);
    const mean = draws.reduce((sum, d) => sum + d, 0) / draws.length;
    const expected = (480 + 4 * 960 + 2880) / 6;
    expect(Math.abs(mean - expected) / expected).toBeLessThan(0.02);
    const again = seededRandom(42);
    expect(Array.from({ length: 5 }, () => pertSample(480, 960, 2880, again))).toEqual(draws.slice(0, 5));
    // No range: the most likely duration.
    expect(pertSample(960, 960, 960, random)).toBe(960);
  });

  it('simulates the project finish of plans with the uncertain durations drawn, incrementally as a full schedule would', () => {
    const input: ScheduleInput = {
      project,
      tasks: [
        { id: 'a', durationMin: 960, durationOptimisticMin: 480, durationPessimisticMin: 2400 },
        { id: 'b', durationMin: 480 },
        { id: 'c', durationMin: 480, durationOptimisticMin: 480, durationPessimisticMin: 1440 },
      ],
      dependencies: [
        { id: 'ab', predecessorId: 'a', successorId: 'b' },
        { id: 'bc', predecessorId: 'b', successorId: 'c' },
      ],
    };
    const finishes = [...simulateFinishes(input, { runs: 200, seed: 7 })];
    expect(finishes).toHaveLength(200);
    const earliest = schedule({ ...input, tasks: input.tasks.map((t) => ({ ...t, durationMin: t.durationOptimisticMin ?? t.durationMin })) }).projectFinishAt!;
    const latest = schedule({ ...input, tasks: input.tasks.map((t) => ({ ...t, durationMin: t.durationPessimisticMin ?? t.durationMin })) }).projectFinishAt!;
    for (const finish of finishes) {
      expect(finish! >= earliest && finish! <= latest, finish!).toBe(true);
    }
    expect(new Set(finishes).size).toBeGreaterThan(5);
    expect([...simulateFinishes(input, { runs: 200, seed: 7 })]).toEqual(finishes);

    // Each run equals a full schedule of the plan with the same draws.
    const random = seededRandom(7);
    const drawn = (task: ScheduleInput['tasks'][number]) =>
      task.durationOptimisticMin !== undefined ? pertSample(task.durationOptimisticMin!, task.durationMin!, task.durationPessimisticMin!, random) : task.durationMin;
    for (const finish of finishes.slice(0, 20)) {
      expect(schedule({ ...input, tasks: input.tasks.map((t) => ({ ...t, durationMin: drawn(t) })) }).projectFinishAt).toBe(finish);
    }
  });

  it('draws an elapsed duration in clock minutes: the finish falls at any hour between its range’s ends', () => {
    // One to two elapsed days from Monday 08:00: each finish lies between Tuesday and Wednesday 08:00.
    const input: ScheduleInput = {
      project,
      tasks: [{ id: 'a', durationMin: 1440, durationElapsed: true, durationOptimisticMin: 1440, durationPessimisticMin: 2880 }],
    };
    const finishes = [...simulateFinishes(input, { runs: 50, seed: 3 })];
    for (const finish of finishes) expect(finish! >= '2026-03-03T08:00:00.000Z' && finish! <= '2026-03-04T08:00:00.000Z', finish!).toBe(true);
    expect(finishes.some((finish) => finish!.slice(11, 16) < '08:00' || finish!.slice(11, 16) > '17:00')).toBe(true);
  });

  it('gives the plan its own finish every run when no duration is uncertain', () => {
    const input: ScheduleInput = { project, tasks: [{ id: 'a', durationMin: 960 }] };
    expect(new Set(simulateFinishes(input, { runs: 10, seed: 1 }))).toEqual(new Set([schedule(input).projectFinishAt]));
  });
});
