// A teacher's regrade (assessment's ResultRegraded; docs/architecture.md, "Grading by hand") on
// real Postgres: the result takes the event's totals and level, its answers their new marks (part
// points too), the running figures move from the old score to the new, mastery evidence is scored
// again, an answer waiting for review is no evidence, and a redelivery changes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, QuestionsChangedSchema, ResultRegradedSchema, ResultSubmittedSchema } from '@checkpoint/events';
import {
  call,
  classStory,
  event,
  figuresAndRecount,
  startAnalyticsService,
  type Harness,
  type Story,
} from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAnalyticsService();
});
afterAll(() => h?.stop());

const S1 = {
  identifier: 'c0a8e0a2-0001-4000-8000-0000000000a1',
  code: 'NGSS.LS1.C.1',
  uri: 'https://case.example/ls1c1',
  frameworkId: 'f1',
};

/** The story's questions again, the true/false and the short answer aligned to S1. */
const aligned = (s: Story) =>
  event(
    QuestionsChangedSchema,
    {
      assessmentId: s.assessmentId,
      tenantId: s.tenantId,
      classId: s.classId,
      questions: [
        {
          questionId: s.questionIds[0],
          questionText: 'Where?',
          questionType: 'multiple_choice',
          options: ['A', 'B'],
          correctAnswer: 'B',
          points: 1,
        },
        {
          questionId: s.questionIds[1],
          questionText: 'Light.',
          questionType: 'true_false',
          options: ['True', 'False'],
          correctAnswer: 'True',
          points: 1,
          standards: [S1],
        },
        {
          questionId: s.questionIds[2],
          questionText: 'Pigment?',
          questionType: 'short_answer',
          options: [],
          correctAnswer: 'chlorophyll',
          points: 1,
          standards: [S1],
        },
      ],
    },
    s.assessmentId,
    s.tenantId,
  );

/** Ben's result (B, False, Chlorophyll: 2/3) after the teacher gave the true/false `tf` points. */
const bensRegrade = (s: Story, tf: number) => {
  const earned = 2 + tf;
  const percentage = Math.round((earned / 3) * 10_000) / 100;
  const level = percentage >= 90 ? 'above' : percentage >= 80 ? 'at' : 'below';
  return event(
    ResultRegradedSchema,
    {
      resultId: s.resultIds[1],
      assessmentId: s.assessmentId,
      tenantId: s.tenantId,
      classId: s.classId,
      studentId: s.students[1]!.id,
      earnedPoints: earned,
      totalPoints: 3,
      percentage,
      level,
      scoreLevel: level,
      answers: [
        { questionId: s.questionIds[0], answer: 'B', correct: true, earnedPoints: 1 },
        { questionId: s.questionIds[1], answer: 'False', correct: tf === 1, earnedPoints: tf },
        { questionId: s.questionIds[2], answer: 'Chlorophyll', correct: true, earnedPoints: 1 },
      ],
      questionId: s.questionIds[1],
      gradedBy: s.teacher.userId,
    },
    s.assessmentId,
    s.tenantId,
  );
};

const bensMastery = async (s: Story) => {
  const rows = (await call(h, s.teacher, 'GET', `/api/classes/${s.classId}/mastery`)).body as {
    studentId: string;
    standards: { identifier: string; score: number }[];
  }[];
  return rows.find((r) => r.studentId === s.students[1]!.id)?.standards.find((x) => x.identifier === S1.identifier)
    ?.score;
};

describe('a regraded result', () => {
  it('when the teacher marks an answer right, then the result, its answers, the figures and mastery follow', async () => {
    const s = classStory();
    await h.bus.publish([...s.events, aligned(s)]);
    // Ben: S1 = false (0) + chlorophyll (1) = 50.
    expect(await bensMastery(s)).toBe(50);

    await h.bus.publish([bensRegrade(s, 1)]);
    const page = (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).body;
    const ben = page.results.find((r: { id: string }) => r.id === s.resultIds[1]);
    expect(ben).toMatchObject({ percentage: 100, earnedPoints: 3, performanceLevel: 'above' });
    expect(ben.answers.find((a: { questionId: string }) => a.questionId === s.questionIds[1])).toMatchObject({
      correct: true,
    });
    expect(page.summary).toMatchObject({ aboveStandard: 2, belowStandard: 0, atStandard: 1 });
    expect(await bensMastery(s)).toBe(100);
    const { kept, recount } = await figuresAndRecount(h, s.tenantId);
    expect(kept).toEqual(recount);

    // Part points: half of the true/false: 2.5 / 3 = 83.33, at; S1 = 1.5 / 2 = 75.
    await h.bus.publish([bensRegrade(s, 0.5)]);
    const after = (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).body;
    expect(after.results.find((r: { id: string }) => r.id === s.resultIds[1])).toMatchObject({
      percentage: 83.33,
      performanceLevel: 'at',
    });
    expect(await bensMastery(s)).toBe(75);
    const again = await figuresAndRecount(h, s.tenantId);
    expect(again.kept).toEqual(again.recount);
  });

  it('when the same regrade is delivered twice (new ids), then nothing moves', async () => {
    const s = classStory();
    await h.bus.publish([...s.events, aligned(s), bensRegrade(s, 1)]);
    const before = await figuresAndRecount(h, s.tenantId);
    const once = bensRegrade(s, 1);
    await h.bus.publish([{ ...once, headers: { ...once.headers, ce_id: randomUUID() } }]);
    const after = await figuresAndRecount(h, s.tenantId);
    expect(after.kept).toEqual(before.kept);
    expect(after.kept).toEqual(after.recount);
    expect(await bensMastery(s)).toBe(100);
  });

  it('when an answer waits for review, then it is no evidence until the teacher marks it', async () => {
    const s = classStory();
    await h.bus.publish([...s.events, aligned(s)]);
    const student = s.students[0]!;
    // A second assessment: one short answer aligned to S1, waiting for review.
    const assessmentId = randomUUID();
    const questionId = randomUUID();
    const resultId = randomUUID();
    const q = {
      questionId,
      questionText: 'Pigment?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'chlorophyll',
      points: 1,
      standards: [S1],
    };
    await h.bus.publish([
      event(
        QuestionsChangedSchema,
        { assessmentId, tenantId: s.tenantId, classId: s.classId, questions: [q] },
        assessmentId,
        s.tenantId,
      ),
      event(
        ResultSubmittedSchema,
        {
          resultId,
          assessmentId,
          tenantId: s.tenantId,
          classId: s.classId,
          studentId: student.id,
          earnedPoints: 0,
          totalPoints: 1,
          percentage: 0,
          level: 'below',
          answers: [{ questionId, answer: 'the green stuff', correct: false, pending: true }],
        },
        assessmentId,
        s.tenantId,
      ),
    ]);
    const evidence = () =>
      h.sql.query('select earned, total from mastery_evidence where result_id = $1', [resultId]).then((r) => r.rows);
    expect(await evidence()).toEqual([]);
    await h.bus.publish([
      event(
        ResultRegradedSchema,
        {
          resultId,
          assessmentId,
          tenantId: s.tenantId,
          classId: s.classId,
          studentId: student.id,
          earnedPoints: 1,
          totalPoints: 1,
          percentage: 100,
          level: 'above',
          scoreLevel: 'above',
          answers: [{ questionId, answer: 'the green stuff', correct: true, pending: false, earnedPoints: 1 }],
          questionId,
          gradedBy: s.teacher.userId,
        },
        assessmentId,
        s.tenantId,
      ),
    ]);
    expect(await evidence()).toEqual([{ earned: 1, total: 1 }]);
    const { kept, recount } = await figuresAndRecount(h, s.tenantId);
    expect(kept).toEqual(recount);
  });

  it('when a short answer waits for review, then item statistics count it apart and leave it out of the share correct until it is marked', async () => {
    const s = classStory();
    const cy = s.students[2]!;
    // Cy's short answer ('sugar') waits for review instead of being marked wrong at submission.
    const isCys = (m: (typeof s.events)[number]) =>
      m.headers.ce_type === ResultSubmittedSchema.typeName &&
      fromBinary(ResultSubmittedSchema, m.value).studentId === cy.id;
    const cys = s.events.find(isCys)!;
    const submitted = fromBinary(ResultSubmittedSchema, cys.value);
    const waiting = event(
      ResultSubmittedSchema,
      {
        ...submitted,
        answers: submitted.answers.map((a) =>
          a.questionId === s.questionIds[2] ? { ...a, correct: false, pending: true } : a,
        ),
      },
      s.assessmentId,
      s.tenantId,
    );
    await h.bus.publish(s.events.map((m) => (m === cys ? waiting : m)));
    const items = async () =>
      (await call(h, s.teacher, 'GET', `/api/assessments/${s.assessmentId}/results`)).body.questions as {
        answered: number;
        correctCount: number;
        awaitingReview: number;
        shareCorrect: number | null;
        discrimination: number | null;
        optionCounts: { option: string; count: number; shownTo: number; correct: boolean }[];
      }[];
    const [q1, , waitingQ3] = await items();
    expect(q1).toMatchObject({ answered: 3, correctCount: 2, awaitingReview: 0 });
    expect(q1!.shareCorrect).toBeCloseTo(2 / 3);
    // Two of the two marked answers are right; the third waits: not incorrect, not in the share.
    expect(waitingQ3).toMatchObject({ answered: 3, correctCount: 2, awaitingReview: 1, shareCorrect: 1 });
    expect(waitingQ3!.optionCounts).toEqual([{ option: 'chlorophyll', count: 2, shownTo: 2, correct: true }]);

    // The teacher marks it wrong: now it counts.
    await h.bus.publish([
      event(
        ResultRegradedSchema,
        {
          resultId: submitted.resultId,
          assessmentId: s.assessmentId,
          tenantId: s.tenantId,
          classId: s.classId,
          studentId: cy.id,
          earnedPoints: 0,
          totalPoints: 3,
          percentage: 0,
          level: 'below',
          scoreLevel: 'below',
          answers: submitted.answers.map((a) => ({ ...a, correct: false, pending: false, earnedPoints: 0 })),
          questionId: s.questionIds[2],
          gradedBy: s.teacher.userId,
        },
        s.assessmentId,
        s.tenantId,
      ),
    ]);
    const [, , q3] = await items();
    expect(q3).toMatchObject({ answered: 3, correctCount: 2, awaitingReview: 0 });
    expect(q3!.shareCorrect).toBeCloseTo(2 / 3);
    expect(q3!.optionCounts).toEqual([
      { option: 'chlorophyll', count: 2, shownTo: 3, correct: true },
      { option: 'sugar', count: 1, shownTo: 3, correct: false },
    ]);
  });

  it('when the event is malformed (a level not known), then it is refused and nothing changes', async () => {
    const s = classStory();
    await h.bus.publish(s.events);
    const broken = event(
      ResultRegradedSchema,
      {
        resultId: s.resultIds[1],
        assessmentId: s.assessmentId,
        studentId: s.students[1]!.id,
        level: 'great',
        scoreLevel: 'great',
      },
      s.assessmentId,
      s.tenantId,
    );
    await h.bus.publish([broken]).catch(() => undefined);
    const row = await h.sql.query('select percentage, level from results where result_id = $1', [s.resultIds[1]]);
    expect(row.rows[0]).toMatchObject({ level: 'below' });
  });
});
