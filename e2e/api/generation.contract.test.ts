// Generation calls through the gateway with the whole backend: a teacher creates an assessment
// and its questions appear (offline provider); job status per role; a student submits and gets
// practice from their wrong answers; practice material and its server-scored completion raise a
// below-standard result to at standard; recommendations reflect the results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, signUp, startBackend, type Backend, type Client } from './helpers.ts';

const LESSON =
  'Photosynthesis is the process plants use to turn sunlight, water and carbon dioxide into glucose and oxygen. ' +
  'It happens in the chloroplasts, which contain chlorophyll. Chlorophyll absorbs mostly red and blue light and reflects green light. ' +
  'The oxygen leaves the leaf through small pores called stomata. ' +
  'Water travels from the roots to the leaves through tubes called xylem. ' +
  'Glucose is the sugar that gives the plant energy to grow.';

let b: Backend;
let teacher: Client;
let otherTeacher: Client;
let student: Client;
let classmate: Client;
let assessmentId: string;
let resultId: string;
// Questions as the teacher sees them (with answers).
let questions: { id: string; questionText: string; correctAnswer: string }[];

beforeAll(async () => {
  b = await startBackend({ RATE_LIMIT_JOIN_PER_MINUTE: '1000', RATE_LIMIT_GENERATION_PER_MINUTE: '1000' });
  teacher = await signUp(b.url, 'teacher');
  otherTeacher = await signUp(b.url, 'teacher');
  student = await signUp(b.url, 'student');
  classmate = await signUp(b.url, 'student');
  const cls = await teacher.post('/api/classes', { name: 'Biology', subject: 'Science', period: '1' });
  expect(cls.status).toBe(201);
  for (const s of [student, classmate])
    expect((await s.post('/api/classes/join', { joinCode: cls.body.joinCode })).status).toBe(200);
  const created = await teacher.post('/api/assessments', {
    title: 'Photosynthesis check',
    contentToAssess: LESSON,
    questionType: 'mixed',
    numberOfQuestions: 5,
    description: '',
    classId: cls.body.id,
  });
  expect(created.status).toBe(201);
  assessmentId = created.body.id;
});
afterAll(async () => {
  await b?.stop();
});

describe('question generation', () => {
  it('when a teacher creates an assessment, then the job succeeds with the offline provider and the questions appear', async () => {
    const job = await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}/generation`),
      (r) => r.body?.status === 'succeeded',
      20_000,
    );
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({
      assessmentId,
      status: 'succeeded',
      provider: 'offline',
      attempts: 1,
      questionCount: 5,
    });
    const qs = await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}/questions`),
      (r) => r.body?.length === 5,
    );
    expect(qs.body).toHaveLength(5);
    expect(qs.body.map((q: { questionType: string }) => q.questionType)).toEqual([
      'multiple_choice',
      'true_false',
      'short_answer',
      'multiple_choice',
      'true_false',
    ]);
    questions = qs.body;
  });

  it('when someone else asks for the job status or a retry, then 401 signed out, 403 student, 404 another teacher', async () => {
    const path = `/api/assessments/${assessmentId}/generation`;
    const anonymous = await signUp(b.url, 'student');
    anonymous.cookies.clear();
    expect((await anonymous.get(path)).status).toBe(401);
    expect((await student.get(path)).status).toBe(403);
    expect((await otherTeacher.get(path)).status).toBe(404);
    expect((await otherTeacher.post(`${path}/retry`)).status).toBe(404);
    expect((await teacher.post(`${path}/retry`)).status).toBe(409);
  });
});

describe('practice', () => {
  it('when the student has not submitted, then practice material (with answers) is not served', async () => {
    expect((await student.get(`/api/assessments/${assessmentId}/support-material/support`)).status).toBe(404);
  });

  it('when the student submits with wrong answers, then result-based practice is support built from them, for the student and the teacher only', async () => {
    expect((await teacher.post(`/api/assessments/${assessmentId}/assign`)).status).toBe(200);
    // Right on the first two, wrong on the rest: 40%, below standard.
    for (const [i, q] of questions.entries()) {
      const answer = i < 2 ? q.correctAnswer : 'not this';
      expect((await student.post('/api/responses', { assessmentId, questionId: q.id, answer })).status).toBeLessThan(
        300,
      );
    }
    const result = await student.post('/api/results', { assessmentId, percentage: '100', performanceLevel: 'above' });
    expect(result.status).toBe(201);
    expect(result.body.performanceLevel).toBe('below');
    resultId = result.body.id;
    const content = await eventually(
      () => student.get(`/api/support-content/${resultId}`),
      (r) => r.status === 200,
    );
    expect(content.status).toBe(200);
    expect(content.body).toMatchObject({ assessmentId, performanceLevel: 'below', type: 'support' });
    expect(content.body.reading).toContain('3 questions you missed');
    expect(content.body.reading).toContain(questions[2]!.questionText);
    expect(content.body.reading).not.toContain(questions[0]!.questionText);
    for (const q of content.body.questions) expect(q.correctAnswer).toBeUndefined();
    expect((await teacher.get(`/api/support-content/${resultId}`)).status).toBe(200);
    expect((await classmate.get(`/api/support-content/${resultId}`)).status).toBe(404);
    expect((await otherTeacher.get(`/api/support-content/${resultId}`)).status).toBe(404);
    const scored = await student.post(`/api/support-content/${resultId}/submit`, { answers: { 0: 'x' } });
    expect(scored.status).toBe(200);
    expect(scored.body).toMatchObject({ correct: 0, passed: false, total: content.body.questions.length });
    expect((await student.post(`/api/support-content/${resultId}/restart`)).status).toBe(200);
    expect((await classmate.post(`/api/support-content/${resultId}/restart`)).status).toBe(404);
  });

  it('when the student completes support material at 80+, then the server scores it and the result is raised to at standard', async () => {
    const material = await student.get(`/api/assessments/${assessmentId}/support-material/support`);
    expect(material.status).toBe(200);
    expect(material.body.questions).toHaveLength(5);
    // A classmate without a result, and another teacher, get nothing.
    expect((await classmate.get(`/api/assessments/${assessmentId}/support-material/support`)).status).toBe(404);
    expect((await otherTeacher.get(`/api/assessments/${assessmentId}/support-material/support`)).status).toBe(404);
    // The keys stay on the server: only the class's teacher sees them.
    expect(JSON.stringify(material.body)).not.toContain('correctAnswer');
    const withKeys = (await teacher.get(`/api/assessments/${assessmentId}/support-material/support`)).body;
    // The same material; the student's reading may start with what they missed.
    expect({ ...withKeys, questions: material.body.questions, reading: material.body.reading }).toEqual(material.body);
    expect(material.body.reading.endsWith(withKeys.reading)).toBe(true);
    const path = `/api/assessments/${assessmentId}/support-completion`;
    const forged = await student.post(path, { responses: {}, score: 100, type: 'support' });
    expect(forged.body).toMatchObject({ score: 0, passed: false });
    const responses = Object.fromEntries(
      withKeys.questions.map((q: { id: string; correctAnswer: string }) => [q.id, q.correctAnswer]),
    );
    const done = await student.post(path, { responses, score: 0, type: 'support' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ score: 100, passed: true });
    const raised = await eventually(
      () => student.get(`/api/results/${resultId}`),
      (r) => r.body?.performanceLevel === 'at',
    );
    // The score's own level and what raised it travel with the result (docs/adr/005) …
    expect(raised.body).toMatchObject({ performanceLevel: 'at', originalLevel: 'below', raisedBy: 'practice' });
    // … and reach the teacher's views, where it counts at its raised level.
    const page = await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}/results`),
      (r) => r.body?.results?.[0]?.raisedBy === 'practice',
    );
    expect(page.body.results[0]).toMatchObject({ performanceLevel: 'at', originalLevel: 'below' });
    expect(page.body.summary).toMatchObject({ atStandard: 1, belowStandard: 0 });
  });

  it('when the teacher asks for recommendations, then they reflect the submitted results', async () => {
    const support = await eventually(
      () => teacher.get(`/api/assessments/${assessmentId}/recommendations/support`),
      (r) => r.body?.summary?.total === 1,
    );
    expect(support.status).toBe(200);
    expect(support.body).toMatchObject({ type: 'support', provider: 'offline' });
    expect(support.body.summary.mostMissed.map((m: { questionId: string }) => m.questionId)).toContain(
      questions[2]!.id,
    );
    expect(support.body.text).toContain('1 submission');
    expect(support.body.text).toContain(questions[2]!.questionText);
    expect((await teacher.get(`/api/assessments/${assessmentId}/recommendations/enrichment`)).body.type).toBe(
      'enrichment',
    );
    expect((await student.get(`/api/assessments/${assessmentId}/recommendations/support`)).status).toBe(403);
    expect((await otherTeacher.get(`/api/assessments/${assessmentId}/recommendations/support`)).status).toBe(404);
  });
});
