// Retakes in the read model (docs/architecture.md, "Retakes and reopening"): only the attempt that
// counts is kept, so figures, the grid, item statistics and mastery evidence follow it: a counted
// retake replaces the earlier result, an attempt that does not count is left out, CountedResultChanged
// puts the named result back in its place and ResultWithdrawn takes a reopened result out.
import { randomUUID } from 'node:crypto';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountedResultChangedSchema, ResultSubmittedSchema, ResultWithdrawnSchema } from '@checkpoint/events';
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
