// Authoring and the lifecycle against real Postgres: due dates, draft / assigned /
// closed, accepted alternatives for short answers, reordering and duplicating questions, and what
// may change once students have submitted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  call,
  enrol,
  givenClass,
  MC,
  outboxFor,
  startAssessmentService,
  VALID_CREATE,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);

beforeAll(async () => {
  h = await startAssessmentService({
    RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000',
    RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '1000',
  });
});
afterAll(async () => {
  await h?.stop();
});

const SHORT = {
  questionText: 'Where does photosynthesis happen?',
  questionType: 'short_answer',
  correctAnswer: 'chloroplast',
  acceptedAnswers: ['plastid', ' ', 'Chloroplasts'],
  points: 3,
};

async function draft(body: object = {}, className = 'Biology 7') {
  const classId = await givenClass(h, teacher, className, 'Science');
  const res = await call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, ...body, classId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { classId, id: res.body.id as string, body: res.body };
}

async function add(id: string, question: object) {
  const res = await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, question);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; questionText: string; position: number };
}

const questionsOf = async (id: string) =>
  (await call(h, teacher, 'GET', `/api/assessments/${id}/questions`)).body as {
    id: string;
    questionText: string;
    position: number;
    acceptedAnswers?: string[];
  }[];

describe('due dates', () => {
  it('when an assessment is created with a due date, then it is stored and published as due_at', async () => {
    const { id, body } = await draft({ dueDate: '2026-12-01T15:00:00+01:00' });
    expect(body.dueDate).toBe('2026-12-01T14:00:00.000Z');
    const created = (await outboxFor(h, id))[0]!.message as { dueAt?: { seconds: bigint } };
    expect(Number(created.dueAt?.seconds)).toBe(Date.parse('2026-12-01T14:00:00Z') / 1000);
  });

  it('when the details are saved with, without or with a null due date, then it is set, kept or cleared', async () => {
    const { id } = await draft();
    const details = { title: 'Cells', description: '', topic: 'Cells', standard: '' };
    const set = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { ...details, dueDate: '2027-01-10T08:30Z' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.dueDate).toBe('2027-01-10T08:30:00.000Z');
    const kept = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { ...details, title: 'Cells 2' });
    expect(kept.body).toMatchObject({ title: 'Cells 2', dueDate: '2027-01-10T08:30:00.000Z' });
    const cleared = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { ...details, dueDate: null });
    expect(cleared.body.dueDate).toBeNull();
  });

  it('when a due date is not a real date and time, then 400 names dueDate and nothing changes', async () => {
    const { id } = await draft();
    const details = { title: 'Cells', description: '', topic: 'Cells', standard: '' };
    for (const dueDate of ['2026-02-30T10:00Z', 'tomorrow', '2026-12-01', '1999-12-31T10:00Z', 42]) {
      const res = await call(h, teacher, 'PUT', `/api/assessments/${id}`, { ...details, dueDate });
      expect(res.status, String(dueDate)).toBe(400);
      expect(JSON.stringify(res.body)).toContain('dueDate');
    }
    const create = await call(h, teacher, 'POST', '/api/assessments', {
      ...VALID_CREATE,
      classId: await givenClass(h, teacher),
      dueDate: 'next week',
    });
    expect(create.status).toBe(400);
    expect(JSON.stringify(create.body)).toContain('Due date must be a date and time');
    expect((await call(h, teacher, 'GET', `/api/assessments/${id}`)).body.dueDate).toBeNull();
  });
});

describe('lifecycle', () => {
  it('when an assessment is created, assigned, deactivated and activated, then it reads draft, assigned (to its class), closed, assigned', async () => {
    const { id } = await draft({}, 'Period 3 Biology');
    const get = async () => (await call(h, teacher, 'GET', `/api/assessments/${id}`)).body;
    expect(await get()).toMatchObject({ status: 'draft', isActive: true, assignedTo: [] });
    await add(id, MC);
    expect((await call(h, teacher, 'POST', `/api/assessments/${id}/assign`)).status).toBe(200);
    const assigned = await get();
    expect(assigned).toMatchObject({ status: 'assigned', assignedTo: [{ className: 'Period 3 Biology' }] });
    expect(assigned.assignedTo[0].classId).toBe(assigned.classId);
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { isActive: false });
    expect(await get()).toMatchObject({ status: 'closed', isActive: false });
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { isActive: true });
    expect(await get()).toMatchObject({ status: 'assigned' });
    const listed = (await call(h, teacher, 'GET', '/api/assessments')).body.find((a: { id: string }) => a.id === id);
    expect(listed).toMatchObject({ status: 'assigned', assignedTo: [{ className: 'Period 3 Biology' }] });
  });

  it('when a student had it open and the teacher closes it, then saving, submitting and opening it again answer 409 saying it is closed', async () => {
    const { classId, id } = await draft();
    const q = await add(id, MC);
    const s = actor('student', tenant);
    await enrol(h, classId, tenant, s);
    await call(h, teacher, 'POST', `/api/assessments/${id}/assign`);
    const open = await call(h, s, 'POST', '/api/responses', { assessmentId: id, questionId: q.id, answer: '3/4' });
    expect(open.status).toBe(200);
    await call(h, teacher, 'PUT', `/api/assessments/${id}`, { isActive: false });
    const save = await call(h, s, 'POST', '/api/responses', { assessmentId: id, questionId: q.id, answer: '2/4' });
    const submit = await call(h, s, 'POST', '/api/results', { assessmentId: id });
    // Opened again: the taking page learns it is closed (not "not found").
    const reopen = await call(h, s, 'GET', `/api/assessments/${id}`);
    for (const res of [save, submit, reopen]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('assessment_inactive');
      expect(res.body.message).toContain('This assessment is closed');
    }
  });
});

describe('short answers with accepted alternatives', () => {
  it('when a short answer is added with alternatives, then the teacher sees them cleaned and a student only after submitting', async () => {
    const { classId, id } = await draft();
    const added = await add(id, SHORT);
    expect(added).toMatchObject({ acceptedAnswers: ['plastid'], points: '3.00', correctAnswer: 'chloroplast' });
    const s = actor('student', tenant);
    await enrol(h, classId, tenant, s);
    await call(h, teacher, 'POST', `/api/assessments/${id}/assign`);
    const before = (await call(h, s, 'GET', `/api/assessments/${id}/questions`)).body;
    expect(before[0]).not.toHaveProperty('acceptedAnswers');
    expect(before[0]).not.toHaveProperty('correctAnswer');
    await call(h, s, 'POST', '/api/responses', { assessmentId: id, questionId: added.id, answer: ' Plastids. ' });
    const result = await call(h, s, 'POST', '/api/results', { assessmentId: id });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ percentage: '100.00', earnedPoints: '3.00', correctAnswers: 1 });
    expect(result.body.questions[0]).toMatchObject({ acceptedAnswers: ['plastid'], correct: true });
  });

  it('when an edit leaves the alternatives out, then the stored ones stay; too many answer 400 naming acceptedAnswers', async () => {
    const { id } = await draft();
    const added = await add(id, SHORT);
    const { acceptedAnswers: _left, ...edit } = SHORT;
    const kept = await call(h, teacher, 'PUT', `/api/questions/${added.id}`, { ...edit, questionText: 'Where?' });
    expect(kept.body).toMatchObject({ questionText: 'Where?', acceptedAnswers: ['plastid'] });
    const many = Array.from({ length: 11 }, (_, i) => `alt ${i}`);
    const refused = await call(h, teacher, 'PUT', `/api/questions/${added.id}`, { ...SHORT, acceptedAnswers: many });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('acceptedAnswers');
    const notList = await call(h, teacher, 'PUT', `/api/questions/${added.id}`, {
      ...SHORT,
      acceptedAnswers: 'plastid',
    });
    expect(notList.status).toBe(400);
  });
});

describe('reordering and duplicating', () => {
  it('when the questions are put in a new order, then they are listed in it; a list that is not every question once is 400', async () => {
    const { id } = await draft();
    const [a, b, c] = [
      await add(id, { ...MC, questionText: 'A?' }),
      await add(id, { ...MC, questionText: 'B?' }),
      await add(id, { ...MC, questionText: 'C?' }),
    ];
    const url = `/api/assessments/${id}/questions/order`;
    const res = await call(h, teacher, 'PUT', url, { questionIds: [c!.id, a!.id, b!.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.map((q: { questionText: string }) => q.questionText)).toEqual(['C?', 'A?', 'B?']);
    expect((await questionsOf(id)).map((q) => [q.questionText, q.position])).toEqual([
      ['C?', 1],
      ['A?', 2],
      ['B?', 3],
    ]);
    for (const questionIds of [[a!.id, b!.id], [a!.id, a!.id, b!.id], [a!.id, b!.id, randomUUID()], 'x']) {
      const bad = await call(h, teacher, 'PUT', url, { questionIds });
      expect(bad.status, JSON.stringify(questionIds)).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('questionIds');
    }
    const other = actor('teacher', tenant);
    expect((await call(h, other, 'PUT', url, { questionIds: [a!.id, b!.id, c!.id] })).status).toBe(404);
    const events = await outboxFor(h, id);
    expect(events.at(-1)!.type).toBe('QuestionsChanged');
  });

  it('when a question is duplicated, then the copy comes right after it; past 20 questions it is 409', async () => {
    const { id } = await draft();
    const first = await add(id, { ...SHORT, questionText: 'First?' });
    await add(id, { ...MC, questionText: 'Second?' });
    const copy = await call(h, teacher, 'POST', `/api/questions/${first.id}/duplicate`);
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body).toMatchObject({
      questionText: 'First?',
      acceptedAnswers: ['plastid'],
      points: '3.00',
      position: 2,
    });
    expect(copy.body.id).not.toBe(first.id);
    expect((await questionsOf(id)).map((q) => q.questionText)).toEqual(['First?', 'First?', 'Second?']);
    for (let i = 3; i < 20; i++) await add(id, { ...MC, questionText: `Q${i}?` });
    const full = await call(h, teacher, 'POST', `/api/questions/${first.id}/duplicate`);
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('too_many_questions');
    expect((await call(h, actor('teacher', tenant), 'POST', `/api/questions/${first.id}/duplicate`)).status).toBe(404);
  });
});

describe('after students submitted', () => {
  it('when a result exists, then adding, duplicating, deleting and re-keying answer 409; rewording and reordering still work', async () => {
    const { classId, id } = await draft();
    const q1 = await add(id, MC);
    const q2 = await add(id, SHORT);
    const s = actor('student', tenant);
    await enrol(h, classId, tenant, s);
    await call(h, teacher, 'POST', `/api/assessments/${id}/assign`);
    expect((await call(h, s, 'POST', '/api/results', { assessmentId: id })).status).toBe(201);
    const refusals = [
      await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, MC),
      await call(h, teacher, 'POST', `/api/questions/${q1.id}/duplicate`),
      await call(h, teacher, 'DELETE', `/api/questions/${q1.id}`),
      await call(h, teacher, 'PUT', `/api/questions/${q1.id}`, { ...MC, correctAnswer: '2/4' }),
      await call(h, teacher, 'PUT', `/api/questions/${q1.id}`, { ...MC, points: 2 }),
      await call(h, teacher, 'PUT', `/api/questions/${q2.id}`, { ...SHORT, acceptedAnswers: ['stroma'] }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('has_submissions');
    }
    const reworded = await call(h, teacher, 'PUT', `/api/questions/${q1.id}`, {
      ...MC,
      questionText: 'Add 1/2 and 1/4.',
    });
    expect(reworded.status).toBe(200);
    const reordered = await call(h, teacher, 'PUT', `/api/assessments/${id}/questions/order`, {
      questionIds: [q2.id, q1.id],
    });
    expect(reordered.status).toBe(200);
    expect((await questionsOf(id)).map((q) => q.questionText)).toEqual([SHORT.questionText, 'Add 1/2 and 1/4.']);
  });
});
