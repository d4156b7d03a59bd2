// Editing and adding questions against real Postgres: what the teacher leaves out of an edit keeps
// its stored value, and options that are not a flat list of texts answer 400 naming the field.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, givenClass, MC, startAssessmentService, VALID_CREATE, type Harness } from './helpers.ts';

let h: Harness;
const teacher = actor('teacher', randomUUID());

beforeAll(async () => {
  h = await startAssessmentService({ RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

async function questionOf(points: number) {
  const classId = await givenClass(h, teacher);
  const created = await call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const added = await call(h, teacher, 'POST', `/api/assessments/${created.body.id}/questions`, { ...MC, points });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { assessmentId: created.body.id as string, question: added.body as { id: string; points: string } };
}

const stored = async (id: string) =>
  (
    await h.sql.query<{ points: string; options: string[] }>('select points, options from questions where id = $1', [
      id,
    ])
  ).rows[0]!;

describe('editing a question', () => {
  it("when the edit is the spec's payload (no points), then the stored points stay", async () => {
    const { question } = await questionOf(3);
    expect(question.points).toBe('3.00');
    // The edit form's call: PUT /api/questions/{id} with {questionText, questionType, options,
    // correctAnswer}, no points.
    const edit = { questionText: 'What is 1/4 + 1/4?', questionType: 'multiple_choice', options: MC.options };
    const res = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, { ...edit, correctAnswer: '2/4' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ questionText: 'What is 1/4 + 1/4?', correctAnswer: '2/4', points: '3.00' });
    expect(Number((await stored(question.id)).points)).toBe(3);
    // null and '' are no value either; a value given is taken.
    for (const points of [null, '']) {
      const again = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, { ...MC, points });
      expect(again.body.points).toBe('3.00');
    }
    const changed = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, { ...MC, points: 5 });
    expect(changed.body.points).toBe('5.00');
  });

  it('when a multiple choice edit leaves out the options, then the stored options stay', async () => {
    const { question } = await questionOf(2);
    const { options, points: _points, ...withoutOptions } = MC;
    const res = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, {
      ...withoutOptions,
      questionText: 'Which is 3/4?',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ questionText: 'Which is 3/4?', options, points: '2.00' });
    expect((await stored(question.id)).options).toEqual(options);
  });

  it('when a new question has no points, then it is worth 1', async () => {
    const { assessmentId } = await questionOf(4);
    const { points, ...withoutPoints } = MC;
    expect(points).toBe(1);
    const res = await call(h, teacher, 'POST', `/api/assessments/${assessmentId}/questions`, {
      ...withoutPoints,
      points: undefined,
    });
    expect(res.status).toBe(201);
    expect(res.body.points).toBe('1.00');
  });
});

describe('options that are not a flat list of texts', () => {
  const deep = (depth: number): unknown => (depth === 0 ? 'a' : [deep(depth - 1)]);
  const cases: [string, unknown][] = [
    ['nested lists', [[[[['Paris']]]], 'Lyon', 'Nice', 'Lille']],
    ['a deeply nested list', deep(25)],
    ['an object in the list', [{ a: ['Paris'] }, 'Lyon', 'Nice', 'Lille']],
    ['an object with its own toString', [{ toString: 1 }, 'Lyon', 'Nice', 'Lille']],
    ['an object', { a: 1 }],
    ['a number', 7],
  ];

  it.each(cases)('when options are %s, then adding and editing answer 400 naming options', async (_name, options) => {
    const { assessmentId, question } = await questionOf(1);
    for (const [method, path] of [
      ['POST', `/api/assessments/${assessmentId}/questions`],
      ['PUT', `/api/questions/${question.id}`],
    ] as const) {
      const res = await call(h, teacher, method, path, { ...MC, options });
      expect(res.status, `${method} ${JSON.stringify(res.body)}`).toBe(400);
      expect(Object.keys(res.body.fields)).toEqual(['options']);
    }
    // Nothing was changed or added.
    const list = await call(h, teacher, 'GET', `/api/assessments/${assessmentId}/questions`);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ questionText: MC.questionText, options: MC.options });
  });

  it('when options arrive as a JSON-encoded deeply nested list, then the answer is 400 on options, not 500', async () => {
    const { question } = await questionOf(1);
    const options = `${'['.repeat(5_000)}"a"${']'.repeat(5_000)}`;
    const res = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, { ...MC, options });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ options: 'Multiple choice questions need 4 options (A to D)' });
    const own = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, {
      ...MC,
      options: '[{"toString":1},"Lyon","Nice","Lille"]',
    });
    expect(own.status).toBe(400);
  });

  it('when an option is too long or there are too many, then the answer is 400 on options', async () => {
    const { question } = await questionOf(1);
    const long = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, {
      ...MC,
      options: ['x'.repeat(5_001), 'Lyon', 'Nice', 'Lille'],
    });
    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual({ 'options.0': 'Each option must be at most 5000 characters' });
    const many = await call(h, teacher, 'PUT', `/api/questions/${question.id}`, {
      ...MC,
      options: Array.from({ length: 21 }, (_, i) => `o${i}`),
    });
    expect(many.status).toBe(400);
    expect(many.body.fields).toEqual({ options: 'At most 20 options' });
  });
});
