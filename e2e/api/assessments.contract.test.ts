// Assessment calls through the gateway, for each role and a non-owner: 401 signed out,
// 403 wrong role, 404 not yours (a colleague of the same district, a teacher of another tenant, a
// student not in the class), and the teacher's and student's journeys: correct answers hidden until the result,
// one submit only, server-side scoring, later joiners, inactive assessments, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services } from '../../app/src/compose.ts';
import { LONG_LESSON } from '../../services/assessment/test/lessons.ts';
import { Client, eventually, joinDistrict, signUp, startBackend, type Backend, type ClassJson } from './helpers.ts';

const DISTRICT = 'demo.checkpoint.school';
const HAS_GENERATION = services.some((s) => s.name === 'generation');
const UUID_OF_NOTHING = '00000000-0000-4000-8000-000000000000';

let backend: Backend;
let anon: Client;
let owner: Client;
let colleague: Client;
let outsider: Client;
let student: Client;
let stranger: Client; // a student of the district who is not in the class
let cls: ClassJson;

const MC = {
  questionText: 'What is 1/2 + 1/4?',
  questionType: 'multiple_choice',
  options: ['3/4', '2/6', '1/8', '2/4'],
  correctAnswer: '3/4',
};
const TF = { questionText: 'A half is more than a third.', questionType: 'true_false', correctAnswer: 'True' };
const SA = { questionText: 'Write one half as a decimal.', questionType: 'short_answer', correctAnswer: '0.5' };
const QUESTIONS = [MC, TF, SA, { ...SA, questionText: 'Write one quarter as a decimal.', correctAnswer: '0.25' }];

const CREATE = {
  title: 'Fractions check',
  contentToAssess:
    'Fractions name parts of a whole. The denominator tells how many equal parts the whole has. ' +
    'The numerator tells how many parts are taken. Equivalent fractions name the same amount. ' +
    'A unit fraction has a numerator of one. A mixed number has a whole number part and a fraction part. ' +
    'A number line shows where each fraction lies between zero and one.',
  questionType: 'multiple_choice',
  numberOfQuestions: 4,
  description: 'Quick check',
};

async function joinClass(c: Client, joinCode: string) {
  const res = await c.post('/api/classes/join', { joinCode });
  expect(res.status).toBe(200);
}

/** Creates an assessment once the class has reached the assessment service (events are async). */
async function createAssessment(classId = cls.id, body: object = CREATE) {
  const res = await eventually(
    () => owner.post('/api/assessments', { ...body, classId }),
    (r) => r.status !== 404,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; [k: string]: unknown };
}

/** A ready assessment with our 4 questions (generated ones replaced by the teacher's). */
async function seededAssessment(assign = true) {
  const a = await createAssessment();
  if (HAS_GENERATION)
    await eventually(
      () => owner.get(`/api/assessments/${a.id}`),
      (r) => r.body.generationStatus !== 'generating',
      30_000,
    );
  for (const q of (await owner.get(`/api/assessments/${a.id}/questions`)).body)
    expect((await owner.del(`/api/questions/${q.id}`)).status).toBe(204);
  for (const q of QUESTIONS) expect((await owner.post(`/api/assessments/${a.id}/questions`, q)).status).toBe(201);
  if (assign) expect((await owner.post(`/api/assessments/${a.id}/assign`)).status).toBe(200);
  const questions = (await owner.get(`/api/assessments/${a.id}/questions`)).body as { id: string }[];
  return { id: a.id, questions };
}

/** Waits until the student's membership reached the assessment service. */
const availableTo = (c: Client, id: string) =>
  eventually(
    () => c.get('/api/student/available-assessments'),
    (r) => r.status === 200 && r.body.some((a: { id: string }) => a.id === id),
  );

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  anon = new Client(backend.url);
  [owner, colleague, outsider, student, stranger] = await Promise.all([
    joinDistrict(backend, 'teacher', { domain: DISTRICT, firstName: 'Olive', lastName: 'Owner' }),
    joinDistrict(backend, 'teacher', { domain: DISTRICT }),
    signUp(backend.url, 'teacher'),
    joinDistrict(backend, 'student', { domain: DISTRICT, firstName: 'Stu', lastName: 'Dent' }),
    joinDistrict(backend, 'student', { domain: DISTRICT }),
  ]);
  const created = await owner.post('/api/classes', { name: 'Maths 7', subject: 'Math', period: '2' });
  expect(created.status).toBe(201);
  cls = created.body;
  await joinClass(student, cls.joinCode);
}, 120_000);

afterAll(async () => {
  await backend?.stop();
});

describe('teacher calls: who may call them', () => {
  let id: string;
  let questionId: string;
  beforeAll(async () => {
    const a = await seededAssessment(false);
    id = a.id;
    questionId = a.questions[0]!.id;
  });

  const calls = (): [string, string, unknown?][] => [
    ['GET', '/api/assessments'],
    ['POST', '/api/assessments', { ...CREATE, classId: cls.id }],
    ['GET', `/api/classes/${cls.id}/assessments`],
    ['PUT', `/api/assessments/${id}`, { isActive: false }],
    ['PUT', `/api/assessments/${id}`, { title: 'Hacked', topic: 'x', description: '', standard: '' }],
    ['DELETE', `/api/assessments/${id}`],
    ['POST', `/api/assessments/${id}/assign`],
    ['POST', `/api/assessments/${id}/questions`, MC],
    ['PUT', `/api/questions/${questionId}`, MC],
    ['DELETE', `/api/questions/${questionId}`],
  ];

  it('when signed out, then every assessment call answers 401', async () => {
    for (const [method, path, body] of [
      ...calls(),
      ['GET', `/api/assessments/${id}`],
      ['GET', `/api/assessments/${id}/questions`],
      ['GET', `/api/assessments/${id}/responses`],
      ['GET', '/api/student/available-assessments'],
      ['GET', '/api/student/results'],
      ['POST', '/api/responses', { assessmentId: id, questionId, answer: 'x' }],
      ['POST', '/api/results', { assessmentId: id }],
      ['GET', `/api/results/${UUID_OF_NOTHING}`],
    ] as [string, string, unknown?][]) {
      expect((await anon.request(method, path, body)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('when a student calls a teacher-only call, then it answers 403', async () => {
    for (const [method, path, body] of calls())
      expect((await student.request(method, path, body)).status, `${method} ${path}`).toBe(403);
  });

  it('when a teacher calls a student-only call, then it answers 403', async () => {
    expect((await owner.get('/api/student/available-assessments')).status).toBe(403);
    expect((await owner.get('/api/student/results')).status).toBe(403);
    expect((await owner.post('/api/responses', { assessmentId: id, questionId, answer: 'x' })).status).toBe(403);
    expect((await owner.post('/api/results', { assessmentId: id })).status).toBe(403);
  });

  it('when a colleague or a teacher of another tenant names the assessment, then every call answers 404 and nothing changes', async () => {
    for (const other of [colleague, outsider]) {
      for (const [method, path, body] of calls().filter(([m, p]) => !(m === 'GET' && p === '/api/assessments'))) {
        if (method === 'POST' && path === '/api/assessments') continue;
        expect((await other.request(method, path, body)).status, `${method} ${path}`).toBe(404);
      }
      expect((await other.get(`/api/assessments/${id}`)).status).toBe(404);
      expect((await other.get(`/api/assessments/${id}/questions`)).status).toBe(404);
      expect((await other.get(`/api/assessments/${id}/responses`)).status).toBe(404);
      expect((await other.post('/api/assessments', { ...CREATE, classId: cls.id })).status).toBe(404);
      expect((await other.get('/api/assessments')).body).toEqual([]);
    }
    const mine = (await owner.get(`/api/assessments/${id}`)).body;
    expect(mine).toMatchObject({ title: 'Fractions check', isActive: true, questionCount: 4 });
  });

  it('when ids are not UUIDs or name nothing, then the answer is 404', async () => {
    expect((await owner.get('/api/assessments/not-a-uuid')).status).toBe(404);
    expect((await owner.get(`/api/assessments/${UUID_OF_NOTHING}`)).status).toBe(404);
    expect((await owner.put('/api/questions/123', MC)).status).toBe(404);
    expect((await owner.get(`/api/classes/${UUID_OF_NOTHING}/assessments`)).status).toBe(404);
    expect((await owner.get(`/api/results/${UUID_OF_NOTHING}`)).status).toBe(404);
  });
});

describe('teacher journeys', () => {
  it('when a teacher creates, lists, edits, toggles and assigns, then the product shapes, validation messages and error texts come back', async () => {
    const noClass = await owner.post('/api/assessments', CREATE);
    expect(noClass.status).toBe(400);
    expect(noClass.body.message).toBe('No class selected');
    const invalid = await owner.post('/api/assessments', { classId: cls.id, title: '', contentToAssess: ' ' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fields).toMatchObject({
      title: 'Title is required',
      contentToAssess: 'Content to be assessed is required',
      questionType: 'Question type is required',
    });
    const other = await createAssessment(cls.id, {
      title: 'Reading one',
      description: '',
      standard: 'Main idea',
      topic: 'Main idea',
      questions: { type: 'mixed', count: 3, instructions: CREATE.contentToAssess },
    });
    expect(other).toMatchObject({ isActive: true, topic: 'Main idea', questionType: 'mixed', numberOfQuestions: 3 });
    const { id } = await seededAssessment(false);
    const list = (await owner.get('/api/assessments')).body;
    expect(list.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([id, other.id]));
    expect(list.find((a: { id: string }) => a.id === id)).toMatchObject({
      className: 'Maths 7',
      subject: 'Math',
      questionCount: 4,
      responseCount: 0,
      assignedCount: 0,
    });
    expect((await owner.get(`/api/classes/${cls.id}/assessments`)).body.length).toBeGreaterThanOrEqual(2);
    const edit = await owner.put(`/api/assessments/${id}`, { title: '', topic: '', description: '', standard: '' });
    expect(edit.body.fields).toMatchObject({ title: 'Title is required', topic: 'Topic is required' });
    expect((await owner.put(`/api/assessments/${id}`, { isActive: false })).body.isActive).toBe(false);
    expect((await owner.put(`/api/assessments/${id}`, { isActive: true })).body.isActive).toBe(true);
    const qs = (await owner.get(`/api/assessments/${id}/questions`)).body;
    expect(qs[0]).toMatchObject({ questionText: MC.questionText, correctAnswer: '3/4', points: '1.00' });
    const badQ = await owner.put(`/api/questions/${qs[0].id}`, { ...MC, questionText: '' });
    expect(badQ.body.message).toBe('Question text is required');
    const badMc = await owner.put(`/api/questions/${qs[0].id}`, { ...MC, correctAnswer: '5/4' });
    expect(badMc.status).toBe(400);
    const json = await owner.put(`/api/questions/${qs[0].id}`, { ...MC, options: JSON.stringify(MC.options) });
    expect(json.body.options).toEqual(MC.options);
    const assigned = await owner.post(`/api/assessments/${id}/assign`);
    expect(assigned.body.message).toBe('Assessment assigned to 1 student');
    expect((await owner.get(`/api/assessments/${id}`)).body).toMatchObject({ isAssigned: true, assignedCount: 1 });
  });

  it('when a lesson of several paragraphs comes in either form (contentToAssess, or questions.instructions), then both create it, generate from it and keep short labels the edit form takes', async () => {
    const first = await createAssessment(cls.id, {
      title: 'Industrial Revolution check',
      description: '',
      standard: LONG_LESSON,
      topic: LONG_LESSON,
      questions: { type: 'multiple_choice', count: 5, instructions: LONG_LESSON },
    });
    const second = await createAssessment(cls.id, {
      title: 'Industrial Revolution check',
      contentToAssess: LONG_LESSON,
      questionType: 'multiple_choice',
      numberOfQuestions: 5,
      topic: 'Industrial Revolution',
    });
    expect(first).toMatchObject({ topic: 'The Industrial Revolution', standard: '', contentToAssess: LONG_LESSON });
    expect(second).toMatchObject({ topic: 'Industrial Revolution', standard: '', contentToAssess: LONG_LESSON });
    for (const a of [first, second]) {
      if (HAS_GENERATION) {
        const done = await eventually(
          () => owner.get(`/api/assessments/${a.id}`),
          (r) => r.body.generationStatus !== 'generating',
          30_000,
        );
        expect(done.body.generationStatus, JSON.stringify(done.body.generationError)).toBe('ready');
        expect(done.body.questionCount).toBeGreaterThan(0);
      }
      // The edit form sends back the labels it shows: they validate and save.
      const view = (await owner.get(`/api/assessments/${a.id}`)).body;
      const edit = await owner.put(`/api/assessments/${a.id}`, {
        title: view.title,
        description: view.description,
        topic: view.topic,
        standard: view.standard,
      });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    }
    // A long text in a label field that is not the lesson is still refused, naming the field.
    const mixed = await owner.post('/api/assessments', {
      title: 'T',
      classId: cls.id,
      standard: LONG_LESSON,
      questions: { type: 'multiple_choice', count: 5, instructions: CREATE.contentToAssess },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.fields).toMatchObject({ standard: 'Standard must be at most 120 characters' });
  });

  it.runIf(HAS_GENERATION)(
    'when the offline provider generates the questions, then the assessment becomes ready with valid questions',
    async () => {
      const a = await createAssessment();
      expect(a.generationStatus).toBe('generating');
      const ready = await eventually(
        () => owner.get(`/api/assessments/${a.id}`),
        (r) => r.body.generationStatus !== 'generating',
        30_000,
      );
      expect(ready.body).toMatchObject({ generationStatus: 'ready', generationProvider: 'offline', questionCount: 4 });
      const qs = (await owner.get(`/api/assessments/${a.id}/questions`)).body;
      for (const q of qs) {
        expect(q.correctAnswer).toBeTruthy();
        if (q.questionType === 'multiple_choice') expect(q.options).toContain(q.correctAnswer);
      }
    },
  );
});

describe('student journeys', () => {
  it('when a student takes an assessment, then answers are hidden until the result, the score is the server’s, and one submit only', async () => {
    const { id, questions } = await seededAssessment();
    await availableTo(student, id);
    const available = (await student.get('/api/student/available-assessments')).body.find(
      (a: { id: string }) => a.id === id,
    );
    expect(available).toEqual({
      id,
      title: 'Fractions check',
      description: 'Quick check',
      className: 'Maths 7',
      subject: 'Math',
      questionCount: 4,
      classId: cls.id,
    });
    const view = await student.get(`/api/assessments/${id}`);
    expect(view.status).toBe(200);
    expect(view.body).not.toHaveProperty('contentToAssess');
    const before = (await student.get(`/api/assessments/${id}/questions`)).body;
    expect(before).toHaveLength(4);
    expect(JSON.stringify(before)).not.toContain('correctAnswer');
    // 3 of 4 right (75 %): below standard, whatever the client claims.
    const answers = [' 3/4 ', 'true', '0.5', '0.3'];
    for (const [i, q] of questions.entries()) {
      const r = await student.post('/api/responses', { assessmentId: id, questionId: q.id, answer: answers[i] });
      expect(r.status).toBe(200);
    }
    const own = (await student.get(`/api/assessments/${id}/responses`)).body;
    expect(own).toHaveLength(4);
    expect((await stranger.get(`/api/assessments/${id}/responses`)).status).toBe(404);
    const teacherSees = (await owner.get(`/api/assessments/${id}/responses`)).body;
    expect(teacherSees).toHaveLength(4);
    expect(teacherSees[0]).toMatchObject({ studentId: student.user!.id });
    const forged = await student.post('/api/results', {
      assessmentId: id,
      totalPoints: '4',
      earnedPoints: '4',
      percentage: '100',
      performanceLevel: 'above',
      isSubmitted: true,
      submittedAt: new Date().toISOString(),
    });
    expect(forged.status).toBe(201);
    expect(forged.body).toMatchObject({
      assessmentId: id,
      totalPoints: '4.00',
      earnedPoints: '3.00',
      percentage: '75.00',
      performanceLevel: 'below',
      isSubmitted: true,
      correctAnswers: 3,
      incorrectAnswers: 1,
    });
    const twice = await student.post('/api/results', { assessmentId: id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('You have already submitted this assessment');
    expect(
      (await student.post('/api/responses', { assessmentId: id, questionId: questions[3]!.id, answer: '0.25' })).status,
    ).toBe(409);
    const after = (await student.get(`/api/assessments/${id}/questions`)).body;
    expect(after[0].correctAnswer).toBe('3/4');
    const result = await student.get(`/api/results/${forged.body.id}`);
    expect(result.body).toMatchObject({ percentage: '75.00', assessment: { title: 'Fractions check' } });
    expect((await owner.get(`/api/results/${forged.body.id}`)).status).toBe(200);
    for (const c of [stranger, colleague, outsider])
      expect((await c.get(`/api/results/${forged.body.id}`)).status).toBe(404);
    const results = (await student.get('/api/student/results')).body;
    expect(results.find((r: { id: string }) => r.id === forged.body.id)).toMatchObject({
      assessmentId: id,
      score: 75,
      percentage: '75.00',
      performanceLevel: 'below',
      correctAnswers: 3,
      incorrectAnswers: 1,
      totalQuestions: 4,
      className: 'Maths 7',
      assessment: { title: 'Fractions check', description: 'Quick check' },
    });
    expect(
      (await student.get('/api/student/available-assessments')).body.map((a: { id: string }) => a.id),
    ).not.toContain(id);
    expect((await owner.get(`/api/assessments/${id}`)).body.responseCount).toBe(1);
    // The class counts follow (class service, from ResultSubmitted).
    const counted = await eventually(
      () => owner.get(`/api/classes/${cls.id}`),
      (r) => r.body.belowStandard >= 1,
    );
    expect(counted.body.belowStandard).toBeGreaterThanOrEqual(1);
    expect(counted.body.assessmentCount).toBeGreaterThanOrEqual(1);
  });

  it('when a student is not in the class, then they cannot read, answer or submit (404)', async () => {
    const { id, questions } = await seededAssessment();
    expect((await stranger.get(`/api/assessments/${id}`)).status).toBe(404);
    expect((await stranger.get(`/api/assessments/${id}/questions`)).status).toBe(404);
    expect(
      (await stranger.post('/api/responses', { assessmentId: id, questionId: questions[0]!.id, answer: '3/4' })).status,
    ).toBe(404);
    expect((await stranger.post('/api/results', { assessmentId: id })).status).toBe(404);
    expect((await stranger.get('/api/student/available-assessments')).body).toEqual([]);
  });

  it('when the assessment is inactive or not assigned, then a member cannot take it', async () => {
    const draft = await seededAssessment(false);
    expect((await student.get(`/api/assessments/${draft.id}`)).status).toBe(404);
    expect((await student.post('/api/results', { assessmentId: draft.id })).status).toBe(404);
    const { id, questions } = await seededAssessment();
    await availableTo(student, id);
    await owner.put(`/api/assessments/${id}`, { isActive: false });
    const save = await student.post('/api/responses', { assessmentId: id, questionId: questions[0]!.id, answer: 'x' });
    expect(save.status).toBe(409);
    expect(save.body.message).toMatch(/is closed/);
    expect((await student.post('/api/results', { assessmentId: id })).status).toBe(409);
    expect((await student.get(`/api/assessments/${id}/questions`)).status).toBe(404);
    expect(
      (await student.get('/api/student/available-assessments')).body.map((a: { id: string }) => a.id),
    ).not.toContain(id);
  });

  it('when a student joins after the assessment was assigned, then it is available to them', async () => {
    const { id } = await seededAssessment();
    const late = await signUp(backend.url, 'student');
    expect((await late.get('/api/student/available-assessments')).body).toEqual([]);
    await joinClass(late, cls.joinCode);
    await availableTo(late, id);
    const assigned = await eventually(
      () => owner.get(`/api/assessments/${id}`),
      (r) => r.body.assignedCount >= 2,
    );
    expect(assigned.body.assignedCount).toBeGreaterThanOrEqual(2);
  });

  it('when the teacher deletes an assessment, then its questions, responses and result are gone for everyone', async () => {
    const { id, questions } = await seededAssessment();
    await availableTo(student, id);
    await student.post('/api/responses', { assessmentId: id, questionId: questions[0]!.id, answer: '3/4' });
    const result = (await student.post('/api/results', { assessmentId: id })).body;
    expect((await colleague.del(`/api/assessments/${id}`)).status).toBe(404);
    expect((await owner.del(`/api/assessments/${id}`)).status).toBe(204);
    expect((await owner.get(`/api/assessments/${id}`)).status).toBe(404);
    expect((await owner.get(`/api/assessments/${id}/questions`)).status).toBe(404);
    expect((await student.get(`/api/assessments/${id}`)).status).toBe(404);
    expect((await student.get(`/api/results/${result.id}`)).status).toBe(404);
    expect((await student.get('/api/student/results')).body.map((r: { id: string }) => r.id)).not.toContain(result.id);
    expect((await owner.put(`/api/questions/${questions[0]!.id}`, MC)).status).toBe(404);
  });
});
