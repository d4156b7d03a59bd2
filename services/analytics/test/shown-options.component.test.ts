// Reduced answer choices (#32) on real Postgres: a ResultSubmitted whose answer carries the options
// the student was shown is kept with the answer, and the item statistics say per option how many
// were shown it beside how many chose it; a regrade keeps them; the student's privacy export holds
// them with the answer row (the generic export takes whole rows).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fromBinary,
  ResultRegradedSchema,
  ResultSubmittedSchema,
  StudentDataExportedSchema,
  StudentExportRequestedSchema,
  type BusMessage,
} from '@checkpoint/events';
import {
  actor,
  call,
  classStory,
  csvExport,
  event,
  eventually,
  startAnalyticsService,
  type Harness,
  type Story,
} from './helpers.ts';

let h: Harness;
const privacyAnswers: BusMessage[] = [];
beforeAll(async () => {
  h = await startAnalyticsService();
  await h.bus.subscribe({
    groupId: 'test-identity-shown',
    topics: ['checkpoint.privacy.v1'],
    handler: async (m) => void privacyAnswers.push(m),
  });
});
afterAll(() => h?.stop());

/** The story's events with Cy's result (C, False, sugar: 0/3) as a student shown only B and C of question 1. */
function withReducedCy(s: Story): BusMessage[] {
  const cy = s.students[2]!;
  const isCysResult = (m: BusMessage) =>
    m.headers.ce_type === ResultSubmittedSchema.typeName &&
    fromBinary(ResultSubmittedSchema, m.value).resultId === s.resultIds[2];
  const reduced = event(
    ResultSubmittedSchema,
    {
      resultId: s.resultIds[2],
      assessmentId: s.assessmentId,
      tenantId: s.tenantId,
      classId: s.classId,
      studentId: cy.id,
      earnedPoints: 0,
      totalPoints: 3,
      percentage: 0,
      level: 'below',
      answers: [
        { questionId: s.questionIds[0], answer: 'C', correct: false, shownOptions: ['B', 'C'] },
        { questionId: s.questionIds[1], answer: 'False', correct: false },
        { questionId: s.questionIds[2], answer: 'sugar', correct: false },
      ],
    },
    s.assessmentId,
    s.tenantId,
  );
  return s.events.map((m) => (isCysResult(m) ? reduced : m));
}

interface OptionCount {
  option: string;
  count: number;
  shownTo: number;
  correct: boolean;
}

const firstQuestionCounts = async (s: Story): Promise<OptionCount[]> => {
  const page = (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).body;
  return page.questions.find((q: { id: string }) => q.id === s.questionIds[0]).optionCounts;
};

describe('options shown to students with reduced answer choices', () => {
  it('when a result carries the options its student was shown, then item statistics count who saw each option', async () => {
    const s = classStory();
    await h.bus.publish(withReducedCy(s));
    // Ada and Ben (B) saw A-D; Cy (C) saw only B and C.
    expect(await firstQuestionCounts(s)).toEqual([
      { option: 'A', count: 0, shownTo: 2, correct: false },
      { option: 'B', count: 2, shownTo: 3, correct: true },
      { option: 'C', count: 1, shownTo: 3, correct: false },
      { option: 'D', count: 0, shownTo: 2, correct: false },
    ]);
    // Kept with Cy's answer only; every other answer: null (all shown).
    const { rows } = await h.sql.query(
      'select result_id, question_id, shown_options from result_answers where shown_options is not null and result_id = any($1)',
      [s.resultIds],
    );
    expect(rows).toEqual([{ result_id: s.resultIds[2], question_id: s.questionIds[0], shown_options: ['B', 'C'] }]);
    // Another question of the same results: everyone saw every option.
    const page = (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).body;
    const tf = page.questions.find((q: { id: string }) => q.id === s.questionIds[1]);
    expect(tf.optionCounts.map((o: OptionCount) => o.shownTo)).toEqual([3, 3]);
  });

  it('when the teacher exports the item analysis, then each option is a line with how many chose it and how many were shown it; others get 404', async () => {
    const s = classStory();
    await h.bus.publish(withReducedCy(s));
    const { res, bom, lines } = await csvExport(h, `/api/assessments/${s.assessmentId}/item-analysis`, s.teacher);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="checkpoint-item-analysis.csv"');
    expect(bom).toBe(true);
    expect(lines[0]).toBe('Question,Question text,Type,Answered,Correct,Option,Correct option,Chosen by,Shown to');
    const first = lines.filter((l) => l.startsWith('1,'));
    // As the item statistics: Cy saw only B and C, so A and D were shown to 2 of the 3.
    expect(first.map((l) => l.split(',').slice(-4).join(','))).toEqual([
      'A,no,0,2',
      'B,yes,2,3',
      'C,no,1,3',
      'D,no,0,2',
    ]);
    expect(lines.some((l) => l.startsWith('2,') && l.endsWith(',True,yes,1,3'))).toBe(true);
    for (const who of [actor('teacher', s.tenantId), actor('admin', randomUUID())])
      expect((await csvExport(h, `/api/assessments/${s.assessmentId}/item-analysis`, who)).res.status).toBe(404);
    expect(
      (await csvExport(h, `/api/assessments/${s.assessmentId}/item-analysis`, actor('student', s.tenantId))).res.status,
    ).toBe(403);
  });

  it('when the result is regraded, then the options shown stay with the answer', async () => {
    const s = classStory();
    await h.bus.publish(withReducedCy(s));
    await h.bus.publish([
      event(
        ResultRegradedSchema,
        {
          resultId: s.resultIds[2],
          assessmentId: s.assessmentId,
          tenantId: s.tenantId,
          classId: s.classId,
          studentId: s.students[2]!.id,
          earnedPoints: 1,
          totalPoints: 3,
          percentage: 33.33,
          level: 'below',
          scoreLevel: 'below',
          answers: [
            { questionId: s.questionIds[0], answer: 'C', correct: false, earnedPoints: 0, shownOptions: ['B', 'C'] },
            { questionId: s.questionIds[1], answer: 'False', correct: false, earnedPoints: 0 },
            { questionId: s.questionIds[2], answer: 'sugar', correct: true, earnedPoints: 1 },
          ],
          questionId: s.questionIds[2],
          gradedBy: s.teacher.userId,
        },
        s.assessmentId,
        s.tenantId,
      ),
    ]);
    expect((await firstQuestionCounts(s)).map((o) => [o.option, o.shownTo])).toEqual([
      ['A', 2],
      ['B', 3],
      ['C', 3],
      ['D', 2],
    ]);
  });

  it('when the student is exported, then their answer row holds the options they were shown', async () => {
    const s = classStory();
    await h.bus.publish(withReducedCy(s));
    const cy = s.students[2]!;
    const requestId = randomUUID();
    await h.bus.publish([
      event(StudentExportRequestedSchema, { requestId, tenantId: s.tenantId, userId: cy.id }, cy.id, s.tenantId),
    ]);
    const parts = await eventually(
      async () =>
        privacyAnswers
          .filter((m) => m.headers.ce_type === StudentDataExportedSchema.typeName)
          .map((m) => fromBinary(StudentDataExportedSchema, m.value))
          .filter((p) => p.requestId === requestId),
      (p) => p.length > 0 && p.length === p[0]!.parts,
    );
    const doc = JSON.parse(parts.map((p) => p.json).join(''));
    const shown = doc.tables.result_answers.find(
      (a: { question_id: string }) => a.question_id === s.questionIds[0],
    ).shown_options;
    expect(shown).toEqual(['B', 'C']);
  });
});
