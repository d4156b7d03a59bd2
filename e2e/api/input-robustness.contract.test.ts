// User mistakes never answer 5xx (SECURITY: fuzzing, no 5xx): text with a NUL character, an email
// at the length limit, points that round to nothing, a query at the gateway's limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, eventually, signUp, startBackend, type Backend, type ClassJson } from './helpers.ts';

let backend: Backend;
let owner: Client;
let student: Client;
let cls: ClassJson;

beforeAll(async () => {
  backend = await startBackend({ RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  [owner, student] = await Promise.all([signUp(backend.url, 'teacher'), signUp(backend.url, 'student')]);
  cls = (await owner.post('/api/classes', { name: 'Robust', subject: 'Science', period: '1' })).body;
  expect((await student.post('/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await backend?.stop();
});

/** An assessment of the class with one short-answer question, assigned and open to the student. */
async function openAssessment() {
  const created = await eventually(
    () =>
      owner.post('/api/assessments', {
        classId: cls.id,
        title: 'Robust check',
        contentToAssess:
          'A mammal is an animal that feeds its young with milk. Cats, dogs and whales are mammals. Fish breathe through gills and live in water.',
        questionType: 'short_answer',
        numberOfQuestions: 1,
      }),
    (r) => r.status !== 404,
  );
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  await eventually(
    () => owner.get(`/api/assessments/${id}`),
    (r) => r.body.generationStatus !== 'generating',
    30_000,
  );
  expect((await owner.post(`/api/assessments/${id}/assign`)).status).toBe(200);
  await eventually(
    () => student.get('/api/student/available-assessments'),
    (r) => r.body.some((a: { id: string }) => a.id === id),
  );
  return id;
}

describe('text with a NUL character', () => {
  it('when a NUL is in a body text of any service, then the answer is 400, not 500', async () => {
    const id = await openAssessment();
    const question = (await owner.get(`/api/assessments/${id}/questions`)).body[0];
    const replies = [
      await owner.post('/api/classes', { name: 'a\u0000b', subject: 'Science' }),
      await owner.put(`/api/classes/${cls.id}`, { name: 'a\u0000b', subject: 'Science', period: '1' }),
      await owner.post('/api/assessments', {
        classId: cls.id,
        title: 'x\u0000',
        contentToAssess: 'abc',
        questionType: 'short_answer',
      }),
      await owner.post(`/api/assessments/${id}/questions`, {
        questionText: 'Why\u0000?',
        questionType: 'short_answer',
        correctAnswer: 'yes',
      }),
      await owner.put('/api/auth/user', { firstName: 'a\u0000', lastName: 'b', email: 'nul@example.com' }),
      await student.post('/api/responses', { assessmentId: id, questionId: question.id, answer: 'a\u0000' }),
    ];
    expect(replies.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400]);
    expect(replies[5]!.body.fields).toHaveProperty('answer');
  });
});

describe('sign-in with a long email', () => {
  it('when the email is long but valid (under 254 characters), then a failed sign-in answers 401', async () => {
    const email = `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`;
    expect(email.length).toBeLessThanOrEqual(254);
    const res = await new Client(backend.url).post('/api/auth/simple-login', { email, password: 'wrong password' });
    expect(res.status).toBe(401);
  });
});

describe('a long query', () => {
  it("when the request fits the gateway's 16 KB with little to spare, then the service gets it with the gateway's own headers added (not 503)", async () => {
    // The request line is ~16.2 KB: just under Node's 16 KB (16,384 bytes) at the gateway, over it once the gateway adds
    // the service token and X-Forwarded-* (services accept 32 KB for that reason).
    const path = `/api/auth/sso/not-a-connection/initiate?login_hint=${'x'.repeat(16_150)}`;
    const res = await fetch(new URL(path, backend.url), { redirect: 'manual' });
    expect(res.status).toBeLessThan(500);
    expect([302, 400]).toContain(res.status);
  });
});

describe('question points', () => {
  it('when points are more than 0 but round to 0.00, then the question is refused (a question is worth something)', async () => {
    const id = await openAssessment();
    const res = await owner.post(`/api/assessments/${id}/questions`, {
      questionText: 'Tiny?',
      questionType: 'short_answer',
      correctAnswer: 'yes',
      points: 0.001,
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('points');
  });
});
