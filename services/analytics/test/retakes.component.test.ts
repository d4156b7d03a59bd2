// Retakes in the read model (docs/architecture.md, "Retakes and reopening"): only the attempt that
// counts is kept, so figures, the grid, item statistics and mastery evidence follow it: a counted
// retake replaces the earlier result, an attempt that does not count is left out, CountedResultChanged
// puts the named result back in its place and ResultWithdrawn takes a reopened result out.
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AttemptProgressedSchema,
  CountedResultChangedSchema,
  ResultSubmittedSchema,
  ResultWithdrawnSchema,
  RetakeGrantedSchema,
} from '@checkpoint/events';
import { call, classStory, event, figuresAndRecount, startAnalyticsService, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAnalyticsService();
});
afterAll(() => h?.stop());

describe('retakes and reopening in analytics', () => {
  it('when attempts come and the counted one changes, then the results, figures and answers are those of the counted attempt', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const [ada, ben] = s.students;
    const submitted = (studentId: string, resultId: string, attempt: number, counted: boolean, right: number) => ({
      resultId,
      assessmentId: s.assessmentId,
      tenantId: s.tenantId,
      classId: s.classId,
      studentId,
      earnedPoints: right,
      totalPoints: 3,
      percentage: (right / 3) * 100,
      level: right === 3 ? 'above' : 'below',
      answers: s.questionIds.map((questionId, i) => ({
        questionId,
        answer: i < right ? 'ok' : 'no',
        correct: i < right,
      })),
      submittedAt: timestampFromDate(new Date()),
      attempt,
      counted,
    });
    const stored = async () =>
      (
        await h.sql.query<{
          student_id: string;
          result_id: string;
          attempt: number;
          percentage: number;
          answers: number;
        }>(
          `select r.student_id, r.result_id, r.attempt, round(r.percentage)::int as percentage,
                  (select count(*) from result_answers a where a.result_id = r.result_id)::int as answers
             from results r where r.assessment_id = $1 order by r.submitted_at`,
          [s.assessmentId],
        )
      ).rows;
    const figuresHold = async (results: number) => {
      const { kept, recount } = await figuresAndRecount(h, s.tenantId);
      expect(kept).toEqual(recount);
      expect(kept.results).toBe(results);
    };

    // Ada's second attempt counts (latest): it replaces her first.
    const adaSecond = randomUUID();
    await h.bus.publish([
      event(ResultSubmittedSchema, submitted(ada!.id, adaSecond, 2, true, 1), s.assessmentId, s.tenantId),
    ]);
    let rows = await stored();
    expect(rows.filter((r) => r.student_id === ada!.id)).toEqual([
      { student_id: ada!.id, result_id: adaSecond, attempt: 2, percentage: 33, answers: 3 },
    ]);
    expect(rows).toHaveLength(3);
    await figuresHold(3);
    const grid = await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`);
    expect(grid.status).toBe(200);
    expect(JSON.stringify(grid.body)).toContain(adaSecond);
    expect(JSON.stringify(grid.body)).not.toContain(s.resultIds[0]);
    const adaRow = (grid.body.results as { id: string; attempt: number }[]).find((r) => r.id === adaSecond);
    expect(adaRow?.attempt).toBe(2);

    // Ben's second attempt does not count (best): nothing of it is kept.
    const benSecond = randomUUID();
    await h.bus.publish([
      event(ResultSubmittedSchema, submitted(ben!.id, benSecond, 2, false, 0), s.assessmentId, s.tenantId),
    ]);
    rows = await stored();
    expect(rows.find((r) => r.student_id === ben!.id)?.result_id).toBe(s.resultIds[1]);
    expect(rows.map((r) => r.result_id)).not.toContain(benSecond);
    await figuresHold(3);

    // The teacher switches to best: Ada's first attempt counts again, as it was submitted.
    await h.bus.publish([
      event(
        CountedResultChangedSchema,
        { result: submitted(ada!.id, s.resultIds[0]!, 1, true, 3), occurredAt: timestampFromDate(new Date()) },
        s.assessmentId,
        s.tenantId,
      ),
    ]);
    rows = await stored();
    expect(rows.filter((r) => r.student_id === ada!.id)).toEqual([
      { student_id: ada!.id, result_id: s.resultIds[0], attempt: 1, percentage: 100, answers: 3 },
    ]);
    await figuresHold(3);

    // Reopened: Ada's result is withdrawn until she submits again.
    await h.bus.publish([
      event(
        ResultWithdrawnSchema,
        {
          resultId: s.resultIds[0]!,
          assessmentId: s.assessmentId,
          tenantId: s.tenantId,
          classId: s.classId,
          studentId: ada!.id,
          occurredAt: timestampFromDate(new Date()),
        },
        s.assessmentId,
        s.tenantId,
      ),
    ]);
    rows = await stored();
    expect(rows.map((r) => r.student_id)).not.toContain(ada!.id);
    const { rows: answers } = await h.sql.query('select 1 from result_answers where result_id = $1', [s.resultIds[0]]);
    expect(answers).toEqual([]);
    await figuresHold(2);
  });
});

describe('live progress of a retake', () => {
  const t = (minute: number) => timestampFromDate(new Date(Date.UTC(2026, 10, 20, 11, minute)));
  const iso = (minute: number) => new Date(Date.UTC(2026, 10, 20, 11, minute)).toISOString();

  it('when a retake is granted, then the student shows not started, then working on the new attempt, then submitted at its submission, counted or not', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const [ada, ben] = s.students;
    const ids = (studentId: string) => ({
      assessmentId: s.assessmentId,
      tenantId: s.tenantId,
      classId: s.classId,
      studentId,
    });
    const granted = (studentId: string, resultId: string, minute: number) =>
      event(
        RetakeGrantedSchema,
        { ...ids(studentId), resultId, attempt: 2, occurredAt: t(minute) },
        s.assessmentId,
        s.tenantId,
      );
    const progressed = (studentId: string, answered: number, minute: number) =>
      event(
        AttemptProgressedSchema,
        { ...ids(studentId), answeredCount: answered, questionCount: 3, startedAt: t(minute), occurredAt: t(minute) },
        s.assessmentId,
        s.tenantId,
      );
    const submitted = (studentId: string, resultId: string, counted: boolean, minute: number) =>
      event(
        ResultSubmittedSchema,
        {
          ...ids(studentId),
          resultId,
          earnedPoints: 3,
          totalPoints: 3,
          percentage: 100,
          level: 'above',
          answers: s.questionIds.map((questionId) => ({ questionId, answer: 'ok', correct: true })),
          submittedAt: t(minute),
          attempt: 2,
          counted,
        },
        s.assessmentId,
        s.tenantId,
      );
    const progress = async () => {
      const body = (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/progress`)).body as {
        counts: Record<string, number>;
        students: { studentId: string; status: string; answered: number | null; submittedAt: string | null }[];
      };
      const of = (id: string) => body.students.find((x) => x.studentId === id)!;
      return { counts: body.counts, ada: of(ada!.id), ben: of(ben!.id) };
    };
    const inProgress = async () =>
      (
        (await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/grid`)).body.inProgress as {
          studentId: string;
          answered: number;
        }[]
      ).map((c) => [c.studentId, c.answered]);

    let p = await progress();
    expect(p.counts).toEqual({ notStarted: 0, inProgress: 0, submitted: 3 });
    const adaFirstSubmit = p.ada.submittedAt;

    // Granted: the new attempt is not started (no longer "submitted" from attempt 1).
    await h.bus.publish([granted(ada!.id, s.resultIds[0]!, 0), granted(ben!.id, s.resultIds[1]!, 0)]);
    p = await progress();
    expect(p.ada).toMatchObject({ status: 'not_started', answered: null, submittedAt: null });
    expect(p.counts).toEqual({ notStarted: 2, inProgress: 0, submitted: 1 });

    // Working again: the counts of the new attempt show, on the progress and the grid.
    await h.bus.publish([progressed(ada!.id, 1, 5), progressed(ada!.id, 2, 6), progressed(ben!.id, 1, 5)]);
    p = await progress();
    expect(p.ada).toMatchObject({ status: 'in_progress', answered: 2, submittedAt: null });
    expect(p.ben).toMatchObject({ status: 'in_progress', answered: 1 });
    expect(await inProgress()).toEqual(
      expect.arrayContaining([
        [ada!.id, 2],
        [ben!.id, 1],
      ]),
    );

    // Ada's attempt 2 counts (latest); Ben's does not (best): both show submitted at attempt 2's time.
    await h.bus.publish([submitted(ada!.id, randomUUID(), true, 9), submitted(ben!.id, randomUUID(), false, 10)]);
    p = await progress();
    expect(p.counts).toEqual({ notStarted: 0, inProgress: 0, submitted: 3 });
    expect(p.ada).toMatchObject({ status: 'submitted', answered: null, submittedAt: iso(9) });
    expect(p.ben).toMatchObject({ status: 'submitted', answered: null, submittedAt: iso(10) });
    expect(p.ada.submittedAt).not.toBe(adaFirstSubmit);
    expect(await inProgress()).toEqual([]);

    // A late count of the submitted attempts brings nothing back.
    await h.bus.publish([progressed(ada!.id, 3, 11), progressed(ben!.id, 3, 11)]);
    p = await progress();
    expect(p.counts).toEqual({ notStarted: 0, inProgress: 0, submitted: 3 });
    expect(await inProgress()).toEqual([]);
  });

  it('when the counted attempt is reopened and the earlier one counts meanwhile, then the student shows working with their saved answers until they submit again', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const ada = s.students[0]!;
    const ids = { assessmentId: s.assessmentId, tenantId: s.tenantId, classId: s.classId, studentId: ada.id };
    const second = randomUUID();
    const result = (resultId: string, attempt: number, minute: number, answer: (i: number) => string) => ({
      ...ids,
      resultId,
      earnedPoints: 1,
      totalPoints: 3,
      percentage: 100 / 3,
      level: 'below',
      answers: s.questionIds.map((questionId, i) => ({ questionId, answer: answer(i), correct: i === 0 })),
      submittedAt: t(minute),
      attempt,
      counted: true,
    });
    await h.bus.publish([
      event(
        RetakeGrantedSchema,
        { ...ids, resultId: s.resultIds[0]!, attempt: 2, occurredAt: t(0) },
        s.assessmentId,
        s.tenantId,
      ),
      event(
        ResultSubmittedSchema,
        result(second, 2, 5, (i) => (i < 2 ? 'ok' : ' ')),
        s.assessmentId,
        s.tenantId,
      ),
      event(ResultWithdrawnSchema, { ...ids, resultId: second, occurredAt: t(7) }, s.assessmentId, s.tenantId),
      // Attempt 1 counts meanwhile.
      event(
        CountedResultChangedSchema,
        { result: result(s.resultIds[0]!, 1, 0, () => 'ok'), occurredAt: t(7) },
        s.assessmentId,
        s.tenantId,
      ),
    ]);
    const adaNow = async () =>
      (
        (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/progress`)).body.students as {
          studentId: string;
          status: string;
          answered: number | null;
          submittedAt: string | null;
        }[]
      ).find((x) => x.studentId === ada.id)!;
    // Two of three answered in the withdrawn result (a blank one is no answer).
    expect(await adaNow()).toMatchObject({ status: 'in_progress', answered: 2, submittedAt: null });
    await h.bus.publish([
      event(
        ResultSubmittedSchema,
        result(randomUUID(), 2, 12, () => 'ok'),
        s.assessmentId,
        s.tenantId,
      ),
    ]);
    expect(await adaNow()).toMatchObject({ status: 'submitted', submittedAt: iso(12) });
  });
});
