// A teacher's regrade (assessment's ResultRegraded; docs/architecture.md, "Grading by hand") on
// real Postgres: the practice a result calls for and the teacher's recommendations follow the
// regraded level; untried practice written for the old level is written again for the new one.
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { ResultRegradedSchema } from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  call,
  createAssessment,
  deliver,
  enrol,
  startGenerationService,
  storeQuestions,
  submitResult,
  type Harness,
  type Lesson,
  type StoredQuestion,
} from './helpers.ts';

let h: Harness;
let l: Lesson;
let questions: StoredQuestion[];
const QUESTIONS = [
  {
    questionText: 'Which gas do plants release?',
    questionType: 'multiple_choice',
    options: ['oxygen', 'nitrogen', 'helium', 'argon'],
    correctAnswer: 'oxygen',
  },
  {
    questionText: 'Fill in the blank: Photosynthesis happens in the _____.',
    questionType: 'short_answer',
    options: [],
    correctAnswer: 'chloroplasts',
  },
];

beforeAll(async () => {
  h = await startGenerationService();
  l = await createAssessment(h);
  questions = await storeQuestions(h, l, QUESTIONS);
});
afterAll(async () => {
  await h?.stop();
});

const regraded = (resultId: string, student: { userId: string }, level: string, percentage: number) =>
  deliver(
    h,
    ResultRegradedSchema,
    {
      resultId,
      assessmentId: l.assessmentId,
      tenantId: l.tenantId,
      classId: l.classId,
      studentId: student.userId,
      earnedPoints: percentage / 50,
      totalPoints: 2,
      percentage,
      level,
      scoreLevel: level,
      answers: questions.map((q) => ({
        questionId: q.questionId,
        answer: q.correctAnswer,
        correct: level !== 'below',
        earnedPoints: 1,
      })),
      questionId: questions[1]!.questionId,
      gradedBy: l.teacher.userId,
      occurredAt: timestampNow(),
    },
    l.assessmentId,
    l.tenantId,
  );

describe('a regraded result in generation', () => {
  it('when a below result is regraded to above, then its practice turns from support to enrichment and the recommendations count it above', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    const resultId = await submitResult(h, l, student, questions, [true, false]);
    const before = await call(h, student, 'GET', `/api/support-content/${resultId}`);
    expect(before.body).toMatchObject({ performanceLevel: 'below', type: 'support' });

    await regraded(resultId, student, 'above', 100);
    const after = await call(h, student, 'GET', `/api/support-content/${resultId}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ performanceLevel: 'above', type: 'enrichment' });
    const recs = await call(h, l.teacher, 'GET', `/api/assessments/${l.assessmentId}/recommendations/support`);
    expect(recs.body.summary).toMatchObject({ below: 0, above: 1 });
  });

  it('when the result is not known here, then the regrade changes nothing', async () => {
    const student = actor('student', l.tenantId);
    await regraded(crypto.randomUUID(), student, 'above', 100);
    const { rows } = await h.sql.query('select count(*)::int as n from results where student_id = $1', [
      student.userId,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
