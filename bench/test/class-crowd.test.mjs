import { describe, expect, it } from 'vitest';
import { studentPlan } from '../scenarios/class-crowd.mjs';
import { percentile, summarize } from '../stats.mjs';

/** A repeatable stand-in for Math.random: the values given, round and round. */
const cycle = (...values) => {
  let i = 0;
  return () => values[i++ % values.length];
};

const target = {
  assessmentId: 'a1',
  questions: [
    { id: 'q1', options: ['A', 'B', 'C', 'D'], correctAnswer: 'B' },
    { id: 'q2', options: ['A', 'B', 'C', 'D'], correctAnswer: 'C' },
  ],
};

describe('percentiles', () => {
  it('when asked for p50, p95 and p99 of 1..100, then each is the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([50, 95, 99, 100].map((p) => percentile(sorted, p))).toEqual([50, 95, 99, 100]);
  });

  it('when the list is short, then p99 is its largest value and p0 its smallest', () => {
    expect(percentile([3, 7, 9], 99)).toBe(9);
    expect(percentile([3, 7, 9], 50)).toBe(7);
    expect(percentile([3, 7, 9], 0)).toBe(3);
  });

  it('when the list is empty, then there is no percentile, average or maximum', () => {
    expect(summarize([])).toEqual({
      count: 0,
      p50: undefined,
      p95: undefined,
      p99: undefined,
      avg: undefined,
      max: undefined,
    });
  });

  it('when durations come unsorted, then the summary sorts a copy and leaves the input as it was', () => {
    const values = [40, 10, 30, 20];
    expect(summarize(values)).toEqual({ count: 4, p50: 20, p95: 40, p99: 40, avg: 25, max: 40 });
    expect(values).toEqual([40, 10, 30, 20]);
  });
});

describe('a student of the class crowd', () => {
  it('when a student never changes an answer, then they open, save each question once and submit', () => {
    const steps = studentPlan(target, { arrivalSeconds: 5, random: cycle(0.5) });
    expect(steps.map((s) => s.calls.map((c) => `${c.method} ${c.path}`))).toEqual([
      ['GET /api/assessments/a1'],
      ['GET /api/assessments/a1/questions', 'GET /api/assessments/a1/responses'],
      ['POST /api/responses'],
      ['POST /api/responses'],
      ['POST /api/results'],
    ]);
    expect(steps[0].waitMs).toBe(2500); // arrives within the first 5 s
    expect(steps[1].waitMs).toBe(0);
    for (const step of steps.slice(2)) expect(step.waitMs).toBe(1000); // think 0.5–1.5 s
    expect(steps.at(-1).calls[0].body).toEqual({ assessmentId: 'a1' });
  });

  it('when a student changes their mind, then the second save has another answer and the next clientSeq', () => {
    // 0.1: arrival, think, right answer, then change (0.1 < 0.3) to a wrong one, and so on.
    const steps = studentPlan(target, { random: cycle(0.1) });
    const saves = steps.flatMap((s) => s.calls).filter((c) => c.call === 'save_answer');
    expect(saves.map((c) => c.body.questionId)).toEqual(['q1', 'q1', 'q2', 'q2']);
    expect(saves.map((c) => c.body.clientSeq)).toEqual([1, 2, 3, 4]);
    expect(saves[0].body.answer).toBe('B');
    expect(saves[1].body.answer).not.toBe('B');
    expect(target.questions[0].options).toContain(saves[1].body.answer);
    expect(saves[2].body.answer).toBe('C');
    expect(saves[3].body.answer).not.toBe('C');
  });

  it('when the bell rings, then a student opens the assessment within the bell and saves the first answer only, with no submit', () => {
    const steps = studentPlan(target, { arrivalSeconds: 10, random: cycle(0.1), bell: true });
    expect(steps.map((s) => s.calls.map((c) => `${c.method} ${c.path}`))).toEqual([
      ['GET /api/assessments/a1'],
      ['GET /api/assessments/a1/questions', 'GET /api/assessments/a1/responses'],
      ['POST /api/responses'],
    ]);
    expect(steps[0].waitMs).toBe(1000); // 0.1 of the 10 s bell
    expect(steps[2].calls[0].body).toEqual({ assessmentId: 'a1', questionId: 'q1', answer: 'B', clientSeq: 1 });
  });
});
