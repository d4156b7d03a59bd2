// An assessment's window against real Postgres: before its open time a student can neither open
// nor answer it; after its close time no answer is saved, and the close sweep submits each attempt
// with what it saved; the teacher sets both with PUT /api/assessments/:id, checked in order.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  actor,
  assignedAssessment,
  call,
  outboxFor,
  startAssessmentService,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);

beforeAll(async () => {
  h = await startAssessmentService({ ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS: '200' });
});
afterAll(async () => {
  await h?.stop();
});

/** An assigned assessment of two questions (MC, TF) in a class of `students`. */
const assigned = (...students: Actor[]) => assignedAssessment(h, teacher, students);

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe('open and close times', () => {
  it('when the open time is ahead, then the student can neither open nor answer it, nor finds it listed, until it comes', async () => {
    const student = actor('student', tenant);
    const { id, questions } = await assigned(student);
    const set = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { opensAt: inSeconds(3600) });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.opensAt).toBe(new Date(set.body.opensAt).toISOString());

    const open = await call(h, student, 'GET', `/api/assessments/${id}`);
    expect(open.status).toBe(409);
    expect(open.body.code).toBe('assessment_not_open');
    expect((await call(h, student, 'GET', `/api/assessments/${id}/questions`)).status).toBe(404);
    const save = await call(h, student, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(save.status).toBe(409);
    expect(save.body.code).toBe('assessment_not_open');
    const available = (await call(h, student, 'GET', '/api/student/available-assessments')).body as { id: string }[];
    expect(available.map((a) => a.id)).not.toContain(id);

    // The teacher opens it now (null clears the bound).
    expect((await call(h, teacher, 'PUT', `/api/assessments/${id}`, { opensAt: null })).body.opensAt).toBeNull();
    const reopened = await call(h, student, 'GET', `/api/assessments/${id}`);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ opensAt: null, closesAt: null });
  });

  it('when the close time passes during an attempt, then later saves are refused and the sweep submits what was saved', async () => {
    const student = actor('student', tenant);
    const idle = actor('student', tenant);
    const blank = actor('student', tenant);
    const { id, questions } = await assigned(student, idle, blank);
    const closesAt = inSeconds(2);
    expect((await call(h, teacher, 'PUT', `/api/assessments/${id}`, { closesAt })).body.closesAt).toBe(closesAt);
    expect((await call(h, student, 'GET', `/api/assessments/${id}`)).body.closesAt).toBe(closesAt);
    const first = await call(h, student, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const cleared = await call(h, blank, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '',
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);

    // Past the close time (the database's clock, on this machine), a save is refused.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(closesAt) - Date.now()) + 200));
    const late = await call(h, student, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[1]!.id,
      answer: 'true',
    });
    // Closed, or (the sweep, every 200 ms here, came first) already submitted for them.
    expect(late.status).toBe(409);
    expect(['assessment_closed', 'already_submitted']).toContain(late.body.code);
    // The sweep submitted the attempt with its one saved (right) answer: 1 of 2 points.
    const result = await vi.waitFor(
      async () => {
        const view = await call(h, student, 'GET', `/api/assessments/${id}`);
        expect(view.body.submitted, JSON.stringify(view.body)).toBe(true);
        return view.body.resultId as string;
      },
      { timeout: 10_000, interval: 250 },
    );
    const detail = await call(h, student, 'GET', `/api/results/${result}`);
    expect(detail.status).toBe(200);
    expect(Number(detail.body.earnedPoints)).toBe(1);
    expect(Number(detail.body.totalPoints)).toBe(2);
    const events = (await outboxFor(h, id)).map((e) => e.type);
    expect(events.filter((t) => t === 'ResultSubmitted')).toHaveLength(1);
    // A student who saved nothing (or only blanks) has no attempt to submit.
    expect(
      (await h.sql.query('select 1 from results where assessment_id = $1 and student_id = $2', [id, blank.userId]))
        .rowCount,
    ).toBe(0);
    const closed = await call(h, idle, 'GET', `/api/assessments/${id}`);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('assessment_closed');
    const idleSave = await call(h, idle, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(idleSave.status).toBe(409);
    expect(idleSave.body.code).toBe('assessment_closed');
  });

  it('when the close time is not after the open time, or not a date, then 400 names closesAt and nothing changes', async () => {
    const { id } = await assigned();
    const opensAt = inSeconds(3600);
    const reversed = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { opensAt, closesAt: opensAt });
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body)).toContain('Closes at must be later than Opens at');
    const badDate = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { closesAt: 'tomorrow' });
    expect(badDate.status).toBe(400);
    expect(JSON.stringify(badDate.body)).toContain('Closes at must be a date and time');
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body).toMatchObject({
      opensAt: null,
      closesAt: null,
    });

    // A close time in the past (a slip of AM and PM would submit every attempt at once).
    const past = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { closesAt: inSeconds(-3600) });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('Closes at must not be in the past');

    // Against the stored bound: an open time after the stored close time is refused too.
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { closesAt: inSeconds(60) });
    const late = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { opensAt: inSeconds(120) });
    expect(late.status).toBe(400);
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body.opensAt).toBeNull();
  });

  it('when the teacher set it inactive before the close time, then the sweep leaves its attempts alone', async () => {
    const student = actor('student', tenant);
    const { id, questions } = await assigned(student);
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { closesAt: inSeconds(1) });
    await call(h, student, 'POST', '/api/responses', { assessmentId: id, questionId: questions[0]!.id, answer: '3/4' });
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { isActive: false });
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the close time and several sweeps (every 200 ms)
    expect((await h.sql.query('select 1 from results where assessment_id = $1', [id])).rowCount).toBe(0);
  });
});

describe('time limits', () => {
  it('when the student opens a timed assessment, then the clock starts once, saves run until the deadline, and then the sweep submits what was saved', async () => {
    const student = actor('student', tenant);
    const late = actor('student', tenant);
    const { id, questions } = await assigned(student, late);
    const set = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { timeLimitSeconds: 600 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.timeLimitSeconds).toBe(600);

    // Not started: no save (the clock starts at the first read of the questions).
    const early = await call(h, student, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('attempt_not_started');
    expect((await call(h, student, 'GET', `/api/assessments/${id}`)).body).toMatchObject({
      timeLimitSeconds: 600,
      secondsLeft: null,
    });

    expect((await call(h, student, 'GET', `/api/assessments/${id}/questions`)).status).toBe(200);
    const view = await call(h, student, 'GET', `/api/assessments/${id}`);
    expect(view.body.secondsLeft).toBeGreaterThan(590);
    expect(view.body.secondsLeft).toBeLessThanOrEqual(600);
    const startOf = async () =>
      (
        await h.sql.query<{ started_at: Date }>(
          'select started_at from attempt_starts where assessment_id = $1 and student_id = $2',
          [id, student.userId],
        )
      ).rows[0]?.started_at;
    const firstStart = await startOf();
    expect(firstStart).toBeInstanceOf(Date);
    await call(h, student, 'GET', `/api/assessments/${id}/questions`); // a reload keeps the start
    expect(await startOf()).toEqual(firstStart);
    const saved = await call(h, student, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // The deadline passes (its start moved back 11 minutes): saves refused, the sweep submits.
    await h.sql.query(
      `update attempt_starts set started_at = now() - interval '11 minutes' where assessment_id = $1 and student_id = $2`,
      [id, student.userId],
    );
    const refused = await call(h, student, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[1]!.id,
      answer: 'true',
    });
    expect(refused.status).toBe(409);
    expect(['time_up', 'already_submitted']).toContain(refused.body.code);
    await vi.waitFor(
      async () => {
        const { rows } = await h.sql.query(
          'select earned_points from results where assessment_id = $1 and student_id = $2',
          [id, student.userId],
        );
        expect(rows).toEqual([{ earned_points: 1 }]);
      },
      { timeout: 10_000, interval: 250 },
    );
    // Another student's clock is their own.
    await call(h, late, 'GET', `/api/assessments/${id}/questions`);
    const lateSave = await call(h, late, 'POST', '/api/responses', {
      assessmentId: id,
      questionId: questions[0]!.id,
      answer: '3/4',
    });
    expect(lateSave.status).toBe(200);
  });

  it('when the time limit is not a whole number of seconds from 60 to 86400, then 400 names it', async () => {
    const { id } = await assigned();
    for (const bad of [59, 86_401, 90.5, '600']) {
      const res = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { timeLimitSeconds: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(JSON.stringify(res.body)).toContain('Time limit');
    }
    expect(
      (await call(h, teacher, 'PUT', `/api/assessments/${id}`, { timeLimitSeconds: null })).body.timeLimitSeconds,
    ).toBeNull();
  });
});
