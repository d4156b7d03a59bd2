// Generation jobs against real Postgres: AssessmentCreated queues a job in its inbox transaction,
// the worker runs it and writes QuestionsGenerated (offline) to the outbox; with a model that is
// out of quota the job fails with GenerationFailed and the quota message, and can be retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_MESSAGE } from '../src/domain/errors.ts';
import { isValidSet } from '../src/domain/question.ts';
import { item, QUOTA_ERROR, questionsJson, RATE_LIMITED, startFakeOpenAi, type FakeOpenAi } from './fake-openai.ts';
import {
  actor,
  call,
  createAssessment,
  eventually,
  outboxFor,
  startGenerationService,
  type Harness,
} from './helpers.ts';

describe('with the offline provider', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startGenerationService();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const status = (who: Parameters<typeof call>[1], id: string) =>
    call(h, who, 'GET', `/api/assessments/${id}/generation`);

  it('when AssessmentCreated asks for questions, then a job runs and QuestionsGenerated (offline) is in the outbox', async () => {
    const l = await createAssessment(h, { questionType: 'mixed', count: 4 });
    const done = await eventually(
      () => status(l.teacher, l.assessmentId),
      (r) => r.body?.status === 'succeeded',
    );
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: 'succeeded',
      provider: 'offline',
      questionSource: 'text',
      attempts: 1,
      questionCount: 4,
      questionType: 'mixed',
    });
    expect(done.body.error).toBeUndefined();
    const events = await outboxFor(h, l.assessmentId);
    expect(events.map((e) => e.type)).toEqual(['checkpoint.generation.v1.QuestionsGenerated']);
    const m = events[0]!.message;
    expect(m).toMatchObject({
      assessmentId: l.assessmentId,
      tenantId: l.tenantId,
      provider: 'offline',
      jobId: done.body.jobId,
    });
    expect(isValidSet(m.questions, { questionType: 'mixed', count: 4 })).toBe(true);
  });

  it('when the teacher chose a standard, then every generated item names it and nothing else', async () => {
    const standard = {
      identifier: '6b9d0f52-d7cc-11e8-824f-0242ac160002',
      code: 'NGSS.MS-LS1-6',
      statement:
        'Construct a scientific explanation based on evidence for the role of photosynthesis in the cycling of matter and flow of energy into and out of organisms.',
    };
    const l = await createAssessment(h, { questionType: 'mixed', count: 4, standards: [standard] });
    await eventually(
      () => status(l.teacher, l.assessmentId),
      (r) => r.body?.status === 'succeeded',
    );
    const [generated] = await outboxFor(h, l.assessmentId);
    const questions = generated!.message.questions as { standardIdentifiers: string[] }[];
    expect(questions).toHaveLength(4);
    expect(questions.map((q) => q.standardIdentifiers)).toEqual(questions.map(() => [standard.identifier]));
  });

  it('when the content is only a topic, then the job fails at once as too_little_text, asking for the lesson text, with GenerationFailed', async () => {
    const l = await createAssessment(h, { content: 'Adding and subtracting fractions with unlike denominators.' });
    const failed = await eventually(
      () => status(l.teacher, l.assessmentId),
      (r) => r.body?.status === 'failed',
    );
    // The same text would give the same answer: no second attempt.
    expect(failed.body).toMatchObject({ status: 'failed', attempts: 1, questionSource: 'text' });
    expect(failed.body.error.reason).toBe('too_little_text');
    expect(failed.body.error.message).toMatch(/not enough lesson text.*Paste the lesson itself/);
    const events = await outboxFor(h, l.assessmentId);
    expect(events.map((e) => e.type.split('.').pop())).toEqual(['GenerationFailed']);
    expect(events[0]!.message).toMatchObject({ reason: 'too_little_text', message: failed.body.error.message });
  });

  it('when a short lesson cannot give as many good questions as asked, then the failure says how many it gave', async () => {
    const l = await createAssessment(h, { questionType: 'true_false', count: 20 });
    const failed = await eventually(
      () => status(l.teacher, l.assessmentId),
      (r) => r.body?.status === 'failed',
    );
    expect(failed.body.error.reason).toBe('too_little_text');
    expect(failed.body.error.message).toMatch(/^The lesson text gave \d+ good questions? of the 20 asked for\./);
  });

  it('when the same AssessmentCreated is delivered twice, then there is one job and one QuestionsGenerated', async () => {
    const l = await createAssessment(h, { questionType: 'true_false', count: 3 });
    const { deliver } = await import('./helpers.ts');
    const { AssessmentCreatedSchema } = await import('@checkpoint/events');
    await deliver(
      h,
      AssessmentCreatedSchema,
      {
        assessmentId: l.assessmentId,
        tenantId: l.tenantId,
        classId: l.classId,
        teacherId: l.teacher.userId,
        title: 'x',
        generation: { contentToAssess: 'x', questionType: 'true_false', numberOfQuestions: 3 },
      },
      l.assessmentId,
      l.tenantId,
      l.eventId,
    );
    await eventually(
      () => status(l.teacher, l.assessmentId),
      (r) => r.body?.status === 'succeeded',
    );
    const jobs = await h.sql.query('select count(*)::int as n from generation_jobs where assessment_id = $1', [
      l.assessmentId,
    ]);
    expect(jobs.rows[0].n).toBe(1);
    expect((await outboxFor(h, l.assessmentId)).length).toBe(1);
  });

  it('when anyone but the owning teacher asks for the status, then 401 / 403 / 404', async () => {
    const l = await createAssessment(h);
    expect((await status(undefined, l.assessmentId)).status).toBe(401);
    expect((await status(actor('student', l.tenantId), l.assessmentId)).status).toBe(403);
    expect((await status(actor('teacher', l.tenantId), l.assessmentId)).status).toBe(404);
    // Same user id in another tenant is someone else.
    expect((await status({ ...l.teacher, tenantId: crypto.randomUUID() }, l.assessmentId)).status).toBe(404);
    expect((await status(l.teacher, 'not-a-uuid')).status).toBe(404);
    expect((await status(l.teacher, crypto.randomUUID())).status).toBe(404);
  });

  it('when the assessment was created without generation, then its status answers 404 and a succeeded job cannot be retried', async () => {
    const plain = await createAssessment(h, { generation: false });
    const res = await status(plain.teacher, plain.assessmentId);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No question generation for this assessment');
    const l = await createAssessment(h, { count: 1 });
    await eventually(
      () => status(l.teacher, l.assessmentId),
      (r) => r.body?.status === 'succeeded',
    );
    const retry = await call(h, l.teacher, 'POST', `/api/assessments/${l.assessmentId}/generation/retry`);
    expect(retry.status).toBe(409);
  });
});

describe('with the openai provider (local fake server)', () => {
  let h: Harness;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.script(QUOTA_ERROR);
    h = await startGenerationService({
      GENERATION_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.url,
      OPENAI_RETRY_BASE_MS: '1',
      OPENAI_MAX_RETRIES: '1',
      GENERATION_MAX_ATTEMPTS: '2',
      RATE_LIMIT_GENERATION_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    await h?.stop();
    await fake?.stop();
  });

  it('when the quota is exhausted, then the job fails at once with reason quota, the quota message and GenerationFailed; retry then succeeds', async () => {
    fake.script(QUOTA_ERROR);
    const l = await createAssessment(h, { questionType: 'multiple_choice', count: 2 });
    const failed = await eventually(
      () => call(h, l.teacher, 'GET', `/api/assessments/${l.assessmentId}/generation`),
      (r) => r.body?.status === 'failed',
    );
    expect(failed.body).toMatchObject({
      status: 'failed',
      provider: 'openai',
      attempts: 1,
      error: { reason: 'quota', message: QUOTA_MESSAGE },
    });
    const events = await outboxFor(h, l.assessmentId);
    expect(events.map((e) => e.type)).toEqual(['checkpoint.generation.v1.GenerationFailed']);
    expect(events[0]!.message).toMatchObject({ reason: 'quota', message: QUOTA_MESSAGE, jobId: failed.body.jobId });

    fake.script({ content: questionsJson(2) });
    const retry = await call(h, l.teacher, 'POST', `/api/assessments/${l.assessmentId}/generation/retry`);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ attempts: 0 });
    expect(retry.body.error).toBeUndefined();
    const done = await eventually(
      () => call(h, l.teacher, 'GET', `/api/assessments/${l.assessmentId}/generation`),
      (r) => r.body?.status === 'succeeded',
    );
    expect(done.body).toMatchObject({ status: 'succeeded', provider: 'openai', attempts: 1 });
    const after = await outboxFor(h, l.assessmentId);
    expect(after.map((e) => e.type.split('.').pop())).toEqual(['GenerationFailed', 'QuestionsGenerated']);
    expect(after[1]!.message.provider).toBe('openai');
    expect(after[1]!.message.questions).toHaveLength(2);
  });

  it('when the model keeps rate limiting, then the job is attempted GENERATION_MAX_ATTEMPTS times and fails as rate_limited', async () => {
    fake.script(RATE_LIMITED);
    const l = await createAssessment(h, { count: 2 });
    const failed = await eventually(
      () => call(h, l.teacher, 'GET', `/api/assessments/${l.assessmentId}/generation`),
      (r) => r.body?.status === 'failed',
    );
    expect(failed.body).toMatchObject({ attempts: 2, error: { reason: 'rate_limited' } });
    expect((await outboxFor(h, l.assessmentId)).map((e) => e.type.split('.').pop())).toEqual(['GenerationFailed']);
  });

  it('when the stand-in model only cites a code the teacher did not choose, then the job fails and no question is produced', async () => {
    const invented = JSON.stringify({
      questions: [1, 2, 3].map((k) => ({ ...item('multiple_choice', k), standards: ['CCSS.Math.Content.6.RP.A.7'] })),
    });
    fake.script({ content: invented });
    const standard = { identifier: 'c1', code: 'CCSS.Math.Content.6.RP.A.1', statement: 'Understand ratios.' };
    const l = await createAssessment(h, { questionType: 'multiple_choice', count: 3, standards: [standard] });
    const done = await eventually(
      () => call(h, l.teacher, 'GET', `/api/assessments/${l.assessmentId}/generation`),
      (r) => r.body?.status === 'failed',
    );
    expect(done.body.error.reason).toBe('invalid_output');
    expect((await outboxFor(h, l.assessmentId)).map((e) => e.type.split('.').pop())).toEqual(['GenerationFailed']);
    // The prompt carried the chosen standard's code and statement.
    expect(JSON.stringify(fake.requests[0].messages)).toContain('Understand ratios.');
  });

  it('when the model output is malformed, then the job never stores broken questions', async () => {
    fake.script({ content: 'garbage' });
    const l = await createAssessment(h, { count: 2 });
    const failed = await eventually(
      () => call(h, l.teacher, 'GET', `/api/assessments/${l.assessmentId}/generation`),
      (r) => r.body?.status === 'failed',
    );
    expect(failed.body.error.reason).toBe('invalid_output');
    expect((await outboxFor(h, l.assessmentId)).some((e) => e.type.endsWith('QuestionsGenerated'))).toBe(false);
  });
});

describe('rate limit per teacher', () => {
  let h: Harness;
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await startGenerationService({
      GENERATION_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.url,
      RATE_LIMIT_GENERATION_PER_MINUTE: '2',
    });
  });
  afterAll(async () => {
    await h?.stop();
    await fake?.stop();
  });

  it('when the teacher has spent the budget, then a retry answers 429 with Retry-After and a queued job waits instead of calling the model', async () => {
    fake.script(QUOTA_ERROR);
    const teacher = actor('teacher');
    const l = await createAssessment(h, { teacher });
    const path = `/api/assessments/${l.assessmentId}/generation`;
    // The job's attempt takes 1 of 2 points and fails (quota).
    await eventually(
      () => call(h, teacher, 'GET', path),
      (r) => r.body?.status === 'failed',
    );
    expect(fake.requests).toHaveLength(1);
    // The retry takes the second point; the job's next attempt finds no budget and waits.
    expect((await call(h, teacher, 'POST', `${path}/retry`)).status).toBe(202);
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await call(h, teacher, 'GET', path);
    expect(waiting.body).toMatchObject({ status: 'queued', attempts: 0 });
    expect(fake.requests).toHaveLength(1);
    // A failed job of the same teacher cannot be retried now.
    await h.sql.query(`update generation_jobs set status = 'failed', error_reason = 'quota' where assessment_id = $1`, [
      l.assessmentId,
    ]);
    const res = await call(h, teacher, 'POST', `${path}/retry`);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another teacher has their own budget.
    const other = await createAssessment(h);
    await eventually(
      () => call(h, other.teacher, 'GET', `/api/assessments/${other.assessmentId}/generation`),
      (r) => r.body?.status === 'failed',
    );
    expect(
      (await call(h, other.teacher, 'POST', `/api/assessments/${other.assessmentId}/generation/retry`)).status,
    ).toBe(202);
  });
});
