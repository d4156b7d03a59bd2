// Per-student order against real Postgres: the teacher turns shuffling on with PUT
// /api/assessments/:id (alone or with the details); each student then reads the questions and the
// multiple-choice options in an order of their own, the same on every read, and is scored as
// anyone else; the teacher's reads keep the teacher's order.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, assignedAssessment, call, startAssessmentService, VALID_CREATE, type Harness } from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);
const students = Array.from({ length: 6 }, () => actor('student', tenant));

// Twelve multiple-choice questions of four options: two students share a question order by chance
// with probability 1/12!, and all twelve option orders with (1/4!)^12.
const QUESTIONS = Array.from({ length: 12 }, (_, i) => ({
  questionText: `Question ${i + 1}: which letter?`,
  questionType: 'multiple_choice',
  options: ['A', 'B', 'C', 'D'].map((l) => `${l}${i + 1}`),
  correctAnswer: `C${i + 1}`,
  points: 1,
}));

interface StudentQuestion {
  id: string;
  questionText: string;
  options: string[];
}

beforeAll(async () => {
  h = await startAssessmentService();
});
afterAll(async () => {
  await h?.stop();
});

/** The twelve questions, assigned to the class of the six students. */
const assigned = async () => (await assignedAssessment(h, teacher, students, { questions: QUESTIONS })).id;

const read = async (s: (typeof students)[number], id: string) => {
  const res = await call(h, s, 'GET', `/api/assessments/${id}/questions`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as StudentQuestion[];
};
const texts = (qs: StudentQuestion[]) => qs.map((q) => q.questionText);
const teacherOrder = QUESTIONS.map((q) => q.questionText);

describe('shuffled order', () => {
  it('when nothing is set, then every student reads the questions and options in the teacher’s order', async () => {
    const id = await assigned();
    const teacherView = await call(h, teacher, 'GET', `/api/assessments/${id}`);
    expect(teacherView.body).toMatchObject({ shuffleQuestions: false, shuffleOptions: false });
    for (const s of students.slice(0, 2)) {
      const qs = await read(s, id);
      expect(texts(qs)).toEqual(teacherOrder);
      expect(qs.map((q) => q.options)).toEqual(QUESTIONS.map((q) => q.options));
    }
  });

  it('when both shuffles are set alone, then each student has an order of their own, stable across reads, with the same questions and options, and is scored by text', async () => {
    const id = await assigned();
    const set = await call(h, teacher, 'PUT', `/api/assessments/${id}`, {
      shuffleQuestions: true,
      shuffleOptions: true,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      shuffleQuestions: true,
      shuffleOptions: true,
      isActive: true,
      title: VALID_CREATE.title,
    });

    const orders = new Map<string, StudentQuestion[]>();
    for (const s of students) {
      const first = await read(s, id);
      expect(await read(s, id)).toEqual(first); // a reload: the same order
      expect([...texts(first)].sort()).toEqual([...teacherOrder].sort());
      for (const q of first) {
        const original = QUESTIONS.find((o) => o.questionText === q.questionText)!;
        expect([...q.options].sort()).toEqual([...original.options].sort());
      }
      orders.set(s.userId, first);
    }
    const distinctQuestionOrders = new Set([...orders.values()].map((qs) => texts(qs).join('|')));
    expect(distinctQuestionOrders.size).toBe(students.length);
    expect(texts(orders.get(students[0]!.userId)!)).not.toEqual(teacherOrder);
    const optionOrders = new Set(
      [...orders.values()].map((qs) =>
        qs
          .map((q) => q.options.join(','))
          .sort()
          .join('|'),
      ),
    );
    expect(optionOrders.size).toBe(students.length);

    // The teacher's reads keep the teacher's order.
    const teacherQuestions = (await call(h, teacher, 'GET', `/api/assessments/${id}/questions`))
      .body as StudentQuestion[];
    expect(texts(teacherQuestions)).toEqual(teacherOrder);

    // A student who answers every question right (by the text of the option) scores 100 %.
    const s = students[0]!;
    for (const q of orders.get(s.userId)!) {
      const key = `C${q.questionText.match(/Question (\d+)/)![1]}`;
      const saved = await call(h, s, 'POST', '/api/responses', { assessmentId: id, questionId: q.id, answer: key });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const submitted = await call(h, s, 'POST', '/api/results', { assessmentId: id });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect(Number(submitted.body.percentage)).toBe(100);
  });

  it('when only the options are shuffled, then the question order stays the teacher’s; turning it off restores the options', async () => {
    const id = await assigned();
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { shuffleOptions: true });
    const qs = await read(students[1]!, id);
    expect(texts(qs)).toEqual(teacherOrder);
    expect(qs.map((q) => q.options)).not.toEqual(QUESTIONS.map((q) => q.options));

    // The details form without the settings keeps them; with one, changes only that one.
    const details = { title: 'Renamed', topic: 'Letters', description: '', standard: '' };
    expect((await call(h, teacher, 'PUT', `/api/assessments/${id}`, details)).body).toMatchObject({
      title: 'Renamed',
      shuffleOptions: true,
      shuffleQuestions: false,
    });
    expect(
      (await call(h, teacher, 'PUT', `/api/assessments/${id}`, { ...details, shuffleOptions: false })).body,
    ).toMatchObject({ shuffleOptions: false });
    expect((await read(students[1]!, id)).map((q) => q.options)).toEqual(QUESTIONS.map((q) => q.options));
  });

  it('when a setting is not a boolean or an unknown key comes with one, then 400 names it and nothing changes', async () => {
    const id = await assigned();
    const bad = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { shuffleQuestions: 'yes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('shuffleQuestions must be true or false');
    const empty = await call(h, teacher, 'PUT', `/api/assessments/${id}`, {});
    expect(empty.status).toBe(400);
    const mixed = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { shuffleQuestions: true, colour: 'red' });
    expect(mixed.status).toBe(400); // not settings alone: the details form, whose title is missing
    expect(JSON.stringify(mixed.body)).toContain('Title is required');
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body).toMatchObject({ shuffleQuestions: false });
    // Someone else's assessment: not found, not changed.
    const other = actor('teacher', tenant);
    expect((await call(h, other, 'PUT', `/api/assessments/${id}`, { shuffleQuestions: true })).status).toBe(404);
    expect((await call(h, students[0]!, 'PUT', `/api/assessments/${id}`, { shuffleQuestions: true })).status).toBe(403);
  });
});
