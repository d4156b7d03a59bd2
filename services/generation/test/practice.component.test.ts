// Practice against real Postgres: material per assessment and type (once, cached; for a student
// only after their own result, and never with the answer keys), completion scored on the server with PracticeCompleted,
// result-based practice from the wrong answers, and recommendations from the real results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccommodationsChangedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  createAssessment,
  deliver,
  enrol,
  outboxFor,
  startGenerationService,
  storeQuestions,
  submitResult,
  updateDetails,
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
    questionText: 'True or False: Chlorophyll reflects green light.',
    questionType: 'true_false',
    options: ['True', 'False'],
    correctAnswer: 'True',
  },
  {
    questionText: 'Fill in the blank: Photosynthesis happens in the _____.',
    questionType: 'short_answer',
    options: [],
    correctAnswer: 'chloroplasts',
  },
  {
    questionText: 'Which pigment absorbs red and blue light?',
    questionType: 'multiple_choice',
    options: ['chlorophyll', 'keratin', 'melanin', 'carotene'],
    correctAnswer: 'chlorophyll',
  },
  {
    questionText: 'True or False: Oxygen leaves the leaf through the roots.',
    questionType: 'true_false',
    options: ['True', 'False'],
    correctAnswer: 'False',
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

const material = (who: Parameters<typeof call>[1], type = 'support', id = l.assessmentId) =>
  call(h, who, 'GET', `/api/assessments/${id}/support-material/${type}`);

describe('practice material per assessment and type', () => {
  it('when a student of the class has no result yet, then the material (with answers) is not found; outsiders never see it', async () => {
    const student = actor('student', l.tenantId);
    expect((await material(student)).status).toBe(404);
    await enrol(h, l, student);
    expect((await material(student)).status).toBe(404);
    expect((await material(undefined)).status).toBe(401);
    expect((await material(actor('teacher', l.tenantId))).status).toBe(404);
    expect((await material(l.teacher, 'other')).status).toBe(400);
  });

  it('when the teacher or a student with a result reads it, then both get the same cached material (the student’s reading first naming what they missed), the keys for the teacher only', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    await submitResult(h, l, student, questions, [true, false, false, true, false]);
    const first = await material(student);
    expect(first.status).toBe(200);
    expect(first.body.provider).toBe('offline');
    expect(first.body.reading).toContain('Photosynthesis');
    // New items only, none on the assessment's sentences: this short lesson leaves 3 to 5.
    expect(first.body.questions.length).toBeGreaterThanOrEqual(3);
    expect(first.body.questions.length).toBeLessThanOrEqual(5);
    const teachers = (await material(l.teacher)).body;
    for (const [i, q] of first.body.questions.entries()) {
      expect(q).toEqual({
        id: expect.any(String),
        question: expect.any(String),
        type: expect.any(String),
        options: expect.any(Array),
      });
      // New practice, not the assessment's own questions.
      expect(QUESTIONS.map((x) => x.questionText)).not.toContain(q.question);
      expect(teachers.questions[i]).toEqual({ ...q, correctAnswer: expect.any(String) });
    }
    expect(JSON.stringify(first.body)).not.toContain('correctAnswer');
    // The material is shared; the student's reading starts with the questions they missed.
    expect(first.body.reading).toMatch(/^What you missed on /);
    expect(first.body.reading).toContain(`Correct answer: ${QUESTIONS[1]!.correctAnswer}.`);
    expect(first.body.reading.endsWith(teachers.reading)).toBe(true);
    expect(teachers.reading).not.toContain('What you missed');
    expect({ ...teachers, questions: first.body.questions, reading: first.body.reading }).toEqual(first.body);
    const { rows } = await h.sql.query('select count(*)::int as n from practice_materials where assessment_id = $1', [
      l.assessmentId,
    ]);
    expect(rows[0].n).toBe(1);
    const enrichment = await material(student, 'enrichment');
    expect(enrichment.body.reading).not.toEqual(first.body.reading);
  });

  it('when a student completes it, then the server scores it (a sent score is ignored) and PracticeCompleted is emitted', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    await submitResult(h, l, student, questions, [false, false, false, false, true]);
    // The keys come from the teacher's copy: the student's has none.
    const m = (await material(l.teacher)).body;
    const all = Object.fromEntries(
      m.questions.map((q: { id: string; correctAnswer: string }) => [q.id, ` ${q.correctAnswer.toUpperCase()} `]),
    );
    const path = `/api/assessments/${l.assessmentId}/support-completion`;
    const wrongOne = { ...all, [m.questions[0].id]: 'nonsense' };
    const all_ = await call(h, student, 'POST', path, { responses: all, score: 0, type: 'support' });
    expect(all_.body).toMatchObject({ score: 100, total: m.questions.length, passed: true });
    expect(all_.body.message).toContain('Great Job!');
    const n = m.questions.length;
    const oneWrong = Math.round(((n - 1) / n) * 100);
    const four = await call(h, student, 'POST', path, { responses: wrongOne, score: 100, type: 'support' });
    expect(four.status).toBe(200);
    expect(four.body).toMatchObject({ score: oneWrong, correct: n - 1, total: n, passed: oneWrong >= 80 });
    const low = await call(h, student, 'POST', path, { responses: {}, score: 100, type: 'support' });
    expect(low.body).toMatchObject({ score: 0, passed: false });
    expect(low.body.message).toContain('Keep Practicing');
    const events = (await outboxFor(h, l.assessmentId)).filter((e) => e.type.endsWith('PracticeCompleted'));
    const mine = events.filter((e) => e.message.studentId === student.userId);
    expect(mine.map((e) => e.message.scorePercent)).toEqual([100, oneWrong, 0]);
    expect(mine[0]!.message).toMatchObject({
      assessmentId: l.assessmentId,
      tenantId: l.tenantId,
      type: 'support',
      resultId: '',
    });
    // Teachers do not complete practice; strangers cannot.
    expect((await call(h, l.teacher, 'POST', path, { responses: {}, type: 'support' })).status).toBe(403);
    expect((await call(h, actor('student', l.tenantId), 'POST', path, { responses: {}, type: 'support' })).status).toBe(
      404,
    );
  });
});

describe('practice material after the teacher edits the lesson', () => {
  it('when the teacher edits the details, then the material is written again, once, and answers to the old version are refused', async () => {
    const edited = await createAssessment(h);
    const before = await storeQuestions(h, edited, QUESTIONS);
    const student = actor('student', edited.tenantId);
    await enrol(h, edited, student);
    await submitResult(h, edited, student, before, [false, false, false, false, false]);
    const stored = async () =>
      (
        await h.sql.query<{ basis: string; created_at: Date }>(
          'select basis, created_at from practice_materials where assessment_id = $1',
          [edited.assessmentId],
        )
      ).rows;

    const first = (await material(edited.teacher, 'support', edited.assessmentId)).body;
    expect((await material(student, 'support', edited.assessmentId)).body.version).toBe(first.version);
    expect(first.reading).toContain('oxygen');
    expect(first.reading).not.toContain('Plant biology');
    const [original] = await stored();

    // Practice is written from the lesson and its details (questions alone no longer change it).
    await updateDetails(h, edited, { title: 'Plant biology check', topic: 'Plant biology' });
    const second = await material(student, 'support', edited.assessmentId);
    expect(second.status).toBe(200);
    expect(second.body.reading).toContain('Plant biology');
    const secondKeys = (await material(edited.teacher, 'support', edited.assessmentId)).body;
    expect({ ...secondKeys, questions: second.body.questions, reading: second.body.reading }).toEqual(second.body);
    const rewritten = await stored();
    expect(rewritten).toHaveLength(1);
    expect(rewritten[0]!.basis).not.toBe(original!.basis);

    // Unchanged lesson: the rewritten material is the cached one from now on.
    await material(student, 'support', edited.assessmentId);
    expect(await stored()).toEqual(rewritten);

    // Answers given to the first version are refused, not scored against the new questions.
    expect(second.body.version).not.toBe(first.version);
    const path = `/api/assessments/${edited.assessmentId}/support-completion`;
    const answersTo = (m: { questions: { id: string; correctAnswer: string }[] }) =>
      Object.fromEntries(m.questions.map((q) => [q.id, q.correctAnswer]));
    const stale = await call(h, student, 'POST', path, {
      responses: answersTo(first),
      type: 'support',
      version: first.version,
    });
    expect(stale).toMatchObject({
      status: 409,
      body: {
        message: 'Your teacher has updated this practice. Please answer the new questions.',
        code: 'practice_changed',
      },
    });
    const current = await call(h, student, 'POST', path, {
      responses: answersTo(secondKeys),
      type: 'support',
      version: second.body.version,
    });
    expect(current).toMatchObject({ status: 200, body: { score: 100, passed: true } });
    const completions = (await outboxFor(h, edited.assessmentId)).filter((e) => e.type.endsWith('PracticeCompleted'));
    expect(completions.map((e) => e.message.scorePercent)).toEqual([100]);
  });
});

describe('result-based practice', () => {
  it('when a student retakes, then their practice follows the attempt that counts (and a withdrawn result has none)', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    const first = await submitResult(h, l, student, questions, [true, false, false, true, false], {
      attempt: 1,
      counted: true,
    });
    expect((await call(h, student, 'GET', `/api/support-content/${first}`)).body.performanceLevel).toBe('below');
    // A retake that does not count (best) leaves the first attempt's practice.
    const weaker = await submitResult(h, l, student, questions, [false, false, false, false, false], {
      attempt: 2,
      counted: false,
    });
    expect((await call(h, student, 'GET', `/api/support-content/${weaker}`)).status).toBe(404);
    expect((await call(h, student, 'GET', `/api/support-content/${first}`)).status).toBe(200);
    // A counted retake at mastery: the practice is that of the new attempt, the first is gone.
    const best = await submitResult(h, l, student, questions, [true, true, true, true, true], {
      attempt: 3,
      counted: true,
    });
    expect((await call(h, student, 'GET', `/api/support-content/${first}`)).status).toBe(404);
    expect((await call(h, student, 'GET', `/api/support-content/${best}`)).body.performanceLevel).toBe('above');
    const { rows } = await h.sql.query('select id from results where assessment_id = $1 and student_id = $2', [
      l.assessmentId,
      student.userId,
    ]);
    expect(rows).toEqual([{ id: best }]);
  });

  it('when a below-standard student opens their result practice, then it is support built from their wrong answers, without answer keys', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    const resultId = await submitResult(h, l, student, questions, [true, true, false, true, false]);
    const res = await call(h, student, 'GET', `/api/support-content/${resultId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      resultId,
      assessmentId: l.assessmentId,
      performanceLevel: 'below',
      type: 'support',
      lastAttempt: null,
    });
    expect(res.body.reading).toContain('2 questions you missed');
    expect(res.body.reading).toContain(QUESTIONS[2]!.questionText);
    expect(res.body.reading).not.toContain(QUESTIONS[0]!.questionText);
    expect(res.body.questions.length).toBeGreaterThanOrEqual(3);
    for (const q of res.body.questions) expect(Object.keys(q).sort()).toEqual(['options', 'question', 'type']);
    // The class's teacher sees it too; nobody else.
    expect((await call(h, l.teacher, 'GET', `/api/support-content/${resultId}`)).body).toEqual(res.body);
    expect((await call(h, actor('student', l.tenantId), 'GET', `/api/support-content/${resultId}`)).status).toBe(404);
    expect((await call(h, actor('teacher', l.tenantId), 'GET', `/api/support-content/${resultId}`)).status).toBe(404);
    expect((await call(h, student, 'GET', `/api/support-content/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('when the student submits, then it is scored by index, stored with PracticeCompleted(result_id), and restart clears it', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    const resultId = await submitResult(h, l, student, questions, [false, true, true, true, true]);
    const content = (await call(h, student, 'GET', `/api/support-content/${resultId}`)).body;
    expect(content.performanceLevel).toBe('at');
    expect(content.type).toBe('enrichment');
    const { rows } = await h.sql.query('select questions from result_practice where result_id = $1', [resultId]);
    const key: { correctAnswer: string }[] = rows[0].questions;
    const answers = Object.fromEntries(key.map((q, i) => [String(i), q.correctAnswer]));
    const sent = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, { answers });
    expect(sent.body).toMatchObject({ score: 100, correct: key.length, total: key.length, passed: true });
    expect((await call(h, student, 'GET', `/api/support-content/${resultId}`)).body.lastAttempt).toEqual({
      score: 100,
      passed: true,
    });
    const events = (await outboxFor(h, l.assessmentId)).filter((e) => e.message.resultId === resultId);
    expect(events.map((e) => [e.type.split('.').pop(), e.message.scorePercent, e.message.type])).toEqual([
      ['PracticeCompleted', 100, 'enrichment'],
    ]);
    expect(content.round).toBe(0);
    const restart = await call(h, student, 'POST', `/api/support-content/${resultId}/restart`);
    expect(restart.status).toBe(200);
    // Try Again writes the practice anew: round 1, other questions or the same in another order.
    const again = (await call(h, student, 'GET', `/api/support-content/${resultId}`)).body;
    expect(again.lastAttempt).toBeNull();
    expect(again.round).toBe(1);
    const stems = (c: { questions: { question: string }[] }) => c.questions.map((q) => q.question);
    expect(stems(again)).not.toEqual(stems(content));
    for (const q of again.questions) expect(QUESTIONS.map((x) => x.questionText)).not.toContain(q.question);
    // The teacher trying it again changes nothing.
    expect((await call(h, l.teacher, 'POST', `/api/support-content/${resultId}/restart`)).status).toBe(200);
    expect((await call(h, student, 'GET', `/api/support-content/${resultId}`)).body.round).toBe(1);
    // A teacher's try is scored but is not the student's attempt.
    const byTeacher = await call(h, l.teacher, 'POST', `/api/support-content/${resultId}/submit`, { answers: {} });
    expect(byTeacher.body).toMatchObject({ score: 0, passed: false });
    expect((await outboxFor(h, l.assessmentId)).filter((e) => e.message.resultId === resultId)).toHaveLength(1);
  });
});

describe('practice for a student with fewer answer choices', () => {
  it('when a student has reducedChoices, then their multiple-choice practice shows the key and that many fewer options, the same on every read; the teacher and classmates see all', async () => {
    const student = actor('student', l.tenantId);
    const classmate = actor('student', l.tenantId);
    for (const s of [student, classmate]) {
      await enrol(h, l, s);
      await submitResult(h, l, s, questions, [true, false, false, true, false]);
    }
    await deliver(
      h,
      AccommodationsChangedSchema,
      { tenantId: l.tenantId, studentId: student.userId, reducedChoices: 2 },
      student.userId,
      l.tenantId,
    );
    const mine = (await material(student)).body;
    const theirs = (await material(classmate)).body;
    const teachers = (await material(l.teacher)).body;
    const choices = teachers.questions.filter((q: { type: string }) => q.type === 'multiple_choice');
    expect(choices.length).toBeGreaterThan(0);
    for (const q of choices) {
      const seen = mine.questions.find((x: { id: string }) => x.id === q.id);
      // Two of three distractors gone; the key stays; order kept.
      expect(seen.options).toHaveLength(q.options.length - 2);
      expect(seen.options).toContain(q.correctAnswer);
      expect(q.options.filter((o: string) => seen.options.includes(o))).toEqual(seen.options);
      expect(theirs.questions.find((x: { id: string }) => x.id === q.id).options).toEqual(q.options);
    }
    expect((await material(student)).body.questions).toEqual(mine.questions);
    // The result's own practice too, for the student only.
    const resultId = await submitResult(h, l, student, questions, [true, false, false, false, false]);
    const own = (await call(h, student, 'GET', `/api/support-content/${resultId}`)).body;
    const asTeacher = (await call(h, l.teacher, 'GET', `/api/support-content/${resultId}`)).body;
    const teacherChoices = asTeacher.questions.filter((q: { type: string }) => q.type === 'multiple_choice');
    expect(teacherChoices.length).toBeGreaterThan(0);
    for (const [i, q] of asTeacher.questions.entries())
      if (q.type === 'multiple_choice') expect(own.questions[i].options).toHaveLength(q.options.length - 2);
    // Back to all choices: the next read shows every option.
    await deliver(
      h,
      AccommodationsChangedSchema,
      { tenantId: l.tenantId, studentId: student.userId, reducedChoices: 0 },
      student.userId,
      l.tenantId,
    );
    expect((await material(student)).body.questions).toEqual(theirs.questions);
  });
});

describe('result-based practice is no answer oracle', () => {
  it('when a student resubmits varied answers and restarts past the bound, then the key is not revealed and the level is not raised', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    const resultId = await submitResult(h, l, student, questions, [false, false, false, false, false]); // 0 %
    const answered: { status: number; score?: number }[] = [];
    for (let round = 0; round < 5; round++) {
      const content = (await call(h, student, 'GET', `/api/support-content/${resultId}`)).body;
      expect(content.type).toBe('support');
      const blank = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, {
        answers: {},
        round: content.round,
      });
      if (round < 3) expect(blank.body).toMatchObject({ score: 0, passed: false });
      // The oracle: one item at a time, every option, reading the score of each submit.
      for (const [i, q] of (content.questions as { options: string[] }[]).entries())
        for (const option of q.options.length ? q.options : ['guess']) {
          const r = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, {
            answers: { [String(i)]: option },
            round: content.round,
          });
          answered.push({ status: r.status, score: r.body.score });
          expect(r.status).toBe(409);
          expect(r.body).toMatchObject({ code: 'practice_attempt_final' });
          expect(r.body.score).toBeUndefined();
        }
      const restart = await call(h, student, 'POST', `/api/support-content/${resultId}/restart`);
      // Rounds 0, 1 and 2: the third Try Again is refused.
      expect(restart.status).toBe(round < 2 ? 200 : 409);
      if (round >= 2) expect(restart.body).toMatchObject({ code: 'practice_rounds_used' });
    }
    expect(answered.length).toBeGreaterThan(10);
    expect(answered.filter((a) => a.score !== undefined)).toEqual([]);
    // One completion per round, none at mastery: the level stays where the result put it.
    const events = (await outboxFor(h, l.assessmentId)).filter((e) => e.message.resultId === resultId);
    expect(events.map((e) => e.message.scorePercent)).toEqual([0, 0, 0]);
    // Each carries the attempt it was (round + 1), which a raise records for the teacher.
    expect(events.map((e) => e.message.attempt)).toEqual([1, 2, 3]);
  });

  it('when a student submits per-assessment practice again and again, then only the first 3 are scored and recorded', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    await submitResult(h, l, student, questions, [false, false, false, false, false]);
    const m = (await material(student)).body;
    const path = `/api/assessments/${l.assessmentId}/support-completion`;
    const statuses: number[] = [];
    for (const q of m.questions as { id: string; options: string[] }[])
      for (const option of q.options.length ? q.options : ['guess']) {
        const r = await call(h, student, 'POST', path, { responses: { [q.id]: option }, type: 'support' });
        statuses.push(r.status);
        if (r.status !== 200) expect(r.body).toMatchObject({ code: 'practice_rounds_used' });
      }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3).every((s) => s === 409)).toBe(true);
    expect(statuses.length).toBeGreaterThan(6);
    const mine = (await outboxFor(h, l.assessmentId)).filter(
      (e) => e.type.endsWith('PracticeCompleted') && e.message.studentId === student.userId,
    );
    expect(mine).toHaveLength(3);
    expect(mine.map((e) => e.message.attempt)).toEqual([1, 2, 3]);
  });

  it('when a tab submits the round that Try Again replaced, then it is refused with 409 practice_round_stale', async () => {
    const student = actor('student', l.tenantId);
    await enrol(h, l, student);
    const resultId = await submitResult(h, l, student, questions, [false, true, false, false, false]);
    const first = (await call(h, student, 'GET', `/api/support-content/${resultId}`)).body;
    expect(first.round).toBe(0);
    const sent = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, { answers: {}, round: 0 });
    expect(sent.status).toBe(200);
    expect((await call(h, student, 'POST', `/api/support-content/${resultId}/restart`)).status).toBe(200);
    const stale = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, { answers: {}, round: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'practice_round_stale',
      // It names the round (try) the tab answered.
      message:
        'Try 1 of this practice was started again in another window. Reload the page to answer the new questions.',
    });
    const fresh = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, { answers: {}, round: 1 });
    expect(fresh.status).toBe(200);
    const bad = await call(h, student, 'POST', `/api/support-content/${resultId}/submit`, { answers: {}, round: -1 });
    expect(bad.status).toBe(400);
  });
});

describe('teacher recommendations', () => {
  it('when results come in, then the guidance reflects the counts per level and the most-missed question', async () => {
    const fresh = await createAssessment(h);
    const qs = await storeQuestions(h, fresh, QUESTIONS);
    const path = `/api/assessments/${fresh.assessmentId}/recommendations/support`;
    const before = await call(h, fresh.teacher, 'GET', path);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ type: 'support', provider: 'offline' });
    expect(before.body.text).toContain('No results have been submitted yet');
    const s1 = actor('student', fresh.tenantId);
    const s2 = actor('student', fresh.tenantId);
    const s3 = actor('student', fresh.tenantId);
    await submitResult(h, fresh, s1, qs, [true, true, false, true, false]); // 60 below
    await submitResult(h, fresh, s2, qs, [true, false, false, true, true]); // 60 below
    await submitResult(h, fresh, s3, qs, [true, true, true, true, true]); // 100 above
    const after = await call(h, fresh.teacher, 'GET', path);
    expect(after.body.summary).toMatchObject({ total: 3, below: 2, at: 0, above: 1 });
    expect(after.body.text).toContain('Below standard: 2 (67%)');
    expect(after.body.text).toContain(`"${QUESTIONS[2]!.questionText}" — missed by 2 of 3`);
    expect(after.body.text).not.toEqual(before.body.text);
    const enrichment = await call(
      h,
      fresh.teacher,
      'GET',
      `/api/assessments/${fresh.assessmentId}/recommendations/enrichment`,
    );
    expect(enrichment.body.text).toContain('1 student is at or above standard');
    expect(enrichment.body.text).toContain(QUESTIONS[0]!.questionText);
    // Only the owner.
    expect((await call(h, actor('teacher', fresh.tenantId), 'GET', path)).status).toBe(404);
    expect((await call(h, s1, 'GET', path)).status).toBe(403);
  });

  it('when the assessment is deleted, then everything kept for it goes', async () => {
    const gone = await createAssessment(h);
    const { AssessmentDeletedSchema } = await import('@checkpoint/events');
    const { deliver } = await import('./helpers.ts');
    await deliver(
      h,
      AssessmentDeletedSchema,
      { assessmentId: gone.assessmentId, tenantId: gone.tenantId, classId: gone.classId },
      gone.assessmentId,
      gone.tenantId,
    );
    expect((await call(h, gone.teacher, 'GET', `/api/assessments/${gone.assessmentId}/generation`)).status).toBe(404);
    const { rows } = await h.sql.query('select count(*)::int as n from generation_jobs where assessment_id = $1', [
      gone.assessmentId,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
