// The openai provider against a local server that speaks the OpenAI API: structured output
// parsed and checked, retries with backoff on 429 and 5xx, quota mapped without retry, malformed
// or invalid output asked for again or topped up, and never returned broken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerationError, QUOTA_MESSAGE } from '../src/domain/errors.ts';
import { isValidSet } from '../src/domain/question.ts';
import { openAiProvider } from '../src/providers/openai.provider.ts';
import { item, QUOTA_ERROR, questionsJson, RATE_LIMITED, startFakeOpenAi, type FakeOpenAi } from './fake-openai.ts';

let fake: FakeOpenAi;
const sleeps: number[] = [];
const provider = () =>
  openAiProvider({
    apiKey: 'sk-test',
    baseURL: fake.url,
    model: 'gpt-test',
    timeoutMs: 5_000,
    maxRetries: 3,
    retryBaseMs: 10,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
const request = {
  content: 'Plants make glucose and release oxygen. Contact jane.doe@school.example for help.',
  questionType: 'multiple_choice' as const,
  count: 3,
  topic: 'Plants',
};

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake?.stop();
});

async function failure(p: Promise<unknown>): Promise<GenerationError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof GenerationError) return err;
    throw err;
  }
  throw new Error('expected a GenerationError');
}

describe('openai provider', () => {
  it('when the model answers valid structured output, then the questions come back checked, with a json_schema request', async () => {
    fake.script({ content: questionsJson(3) });
    const qs = await provider().generateQuestions(request);
    expect(isValidSet(qs, request)).toBe(true);
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0];
    expect(sent.model).toBe('gpt-test');
    expect(sent.response_format.type).toBe('json_schema');
    expect(sent.response_format.json_schema.strict).toBe(true);
    const prompt = JSON.stringify(sent.messages);
    expect(prompt).toContain('Plants make glucose');
    // No e-mail address ever reaches the model.
    expect(prompt).not.toContain('jane.doe@school.example');
  });

  it('when the API answers 429 rate limit, then it backs off and retries, then succeeds', async () => {
    sleeps.length = 0;
    fake.script(RATE_LIMITED, RATE_LIMITED, { content: questionsJson(3) });
    const qs = await provider().generateQuestions(request);
    expect(qs).toHaveLength(3);
    expect(fake.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    // Exponential: the second wait is at least the doubled base.
    expect(sleeps[1]!).toBeGreaterThanOrEqual(20);
  });

  it('when the API answers 5xx, then it retries; when it keeps failing, then provider_error after bounded retries', async () => {
    fake.script({ status: 503, error: { message: 'overloaded' } }, { content: questionsJson(3) });
    expect(await provider().generateQuestions(request)).toHaveLength(3);
    fake.script({ status: 500, error: { message: 'boom' } });
    const err = await failure(provider().generateQuestions(request));
    expect(err.reason).toBe('provider_error');
    expect(fake.requests).toHaveLength(4); // 1 + 3 retries
  });

  it('when the rate limit never clears, then rate_limited (retryable by the job)', async () => {
    fake.script(RATE_LIMITED);
    const err = await failure(provider().generateQuestions(request));
    expect(err.reason).toBe('rate_limited');
    expect(err.retryable).toBe(true);
  });

  it('when the quota is exhausted (insufficient_quota), then quota failure at once, without retry, with the quota message', async () => {
    fake.script(QUOTA_ERROR);
    const err = await failure(provider().generateQuestions(request));
    expect(err.reason).toBe('quota');
    expect(err.retryable).toBe(false);
    expect(err.userMessage).toBe(QUOTA_MESSAGE);
    expect(fake.requests).toHaveLength(1);
  });

  it('when the output is not JSON, then it asks again and uses the next good answer', async () => {
    fake.script({ content: 'Sure! Here are your questions: 1. ...' }, { content: questionsJson(3) });
    const qs = await provider().generateQuestions(request);
    expect(qs).toHaveLength(3);
    expect(fake.requests).toHaveLength(2);
  });

  it('when some items are invalid, then they are dropped and topped up with another call that lists the kept ones', async () => {
    const bad = [
      item('multiple_choice', 1),
      { ...item('multiple_choice', 2), options: ['oxygen', 'oxygen', 'helium', 'argon'] }, // repeats
      { ...item('multiple_choice', 3), correctAnswer: 'water' }, // not an option
      { ...item('true_false', 4) }, // wrong type
      item('multiple_choice', 1), // duplicate
    ];
    fake.script({ content: JSON.stringify({ questions: bad }) }, { content: questionsJson(2, 'multiple_choice', 10) });
    const qs = await provider().generateQuestions(request);
    expect(isValidSet(qs, request)).toBe(true);
    expect(qs.map((q) => q.questionText)).toEqual([
      'Question 1: what do plants release?',
      'Question 10: what do plants release?',
      'Question 11: what do plants release?',
    ]);
    const topUp = JSON.stringify(fake.requests[1].messages);
    expect(topUp).toContain('Write 2 multiple_choice questions');
    expect(topUp).toContain('Do not repeat these questions');
  });

  it('when the output stays malformed, then invalid_output and nothing is returned', async () => {
    fake.script(
      { content: '{"questions": [{"questionText": ""}]}' },
      { content: 'not json' },
      { content: null, refusal: 'I cannot help' },
    );
    const err = await failure(provider().generateQuestions(request));
    expect(err.reason).toBe('invalid_output');
    expect(fake.requests).toHaveLength(3);
  });

  it('when true/false answers come in another case, then they are stored as True/False', async () => {
    fake.script({
      content: JSON.stringify({
        questions: [
          { ...item('true_false', 1), correctAnswer: 'true' },
          { ...item('true_false', 2), correctAnswer: 'FALSE' },
        ],
      }),
    });
    const qs = await provider().generateQuestions({ ...request, questionType: 'true_false', count: 2 });
    expect(qs.map((q) => q.correctAnswer)).toEqual(['True', 'False']);
  });

  it('when practice material is asked for, then reading and checked questions come back; a recommendation is plain text', async () => {
    fake.script({
      content: JSON.stringify({
        reading: 'Plants need light.',
        questions: [item('multiple_choice', 1), item('true_false', 2), item('short_answer', 3), { questionText: '' }],
      }),
    });
    const lesson = { title: 'Plants', topic: 'Plants', content: 'Plants make glucose.', questions: [] };
    const m = await provider().writePractice(lesson, 'support');
    expect(m.reading).toBe('Plants need light.');
    expect(m.questions.map((q) => q.id)).toEqual(['s1', 's2', 's3']);
    fake.script({ content: 'Re-teach glucose with a diagram.' });
    const summary = {
      total: 2,
      below: 1,
      at: 1,
      raised: 0,
      above: 0,
      averagePercent: 70,
      mostMissed: [],
      mostCorrect: [],
    };
    expect(await provider().writeRecommendation(lesson, summary, 'support')).toBe('Re-teach glucose with a diagram.');
    expect(JSON.stringify(fake.requests[0].messages)).toContain('below standard 1');
  });
});

describe('openai provider with chosen standards', () => {
  const RATIO = {
    identifier: '6b9d0f52-d7cc-11e8-824f-0242ac160002',
    code: 'CCSS.Math.Content.6.RP.A.1',
    statement: 'Understand the concept of a ratio and use ratio language to describe a ratio relationship.',
  };
  const aligned = { ...request, standards: [RATIO] };
  const withStandards = (n: number, from: number, standards: (k: number) => unknown) =>
    JSON.stringify({
      questions: Array.from({ length: n }, (_, i) => ({
        ...item('multiple_choice', from + i),
        standards: standards(i),
      })),
    });

  it('when standards are chosen, then the prompt gives each code and statement, the schema asks for identifiers, and every item carries its alignment', async () => {
    fake.script({ content: withStandards(3, 1, (i) => (i === 1 ? [RATIO.code] : [RATIO.identifier])) });
    const qs = await provider().generateQuestions(aligned);
    expect(isValidSet(qs, aligned)).toBe(true);
    expect(qs.map((q) => q.standardIdentifiers)).toEqual([[RATIO.identifier], [RATIO.identifier], [RATIO.identifier]]);
    const sent = fake.requests[0];
    const prompt = JSON.stringify(sent.messages);
    expect(prompt).toContain(RATIO.code);
    expect(prompt).toContain(RATIO.statement);
    const itemSchema = sent.response_format.json_schema.schema.properties.questions.items;
    expect(itemSchema.required).toContain('standards');
    expect(itemSchema.properties.standards.items.enum).toEqual([RATIO.identifier]);
  });

  it('when the stand-in model cites an invented code, then that item is refused and asked for again', async () => {
    fake.script(
      { content: withStandards(3, 1, (i) => (i === 2 ? ['CCSS.Math.Content.6.RP.A.7'] : [RATIO.identifier])) },
      { content: withStandards(1, 10, () => [RATIO.identifier]) },
    );
    const qs = await provider().generateQuestions(aligned);
    expect(fake.requests).toHaveLength(2);
    expect(qs.map((q) => q.questionText)).toEqual([
      'Question 1: what do plants release?',
      'Question 2: what do plants release?',
      'Question 10: what do plants release?',
    ]);
    expect(qs.every((q) => q.standardIdentifiers?.join() === RATIO.identifier)).toBe(true);
    expect(JSON.stringify(qs)).not.toContain('6.RP.A.7');
  });

  it('when the stand-in model keeps citing invented codes (or none), then invalid_output naming the refusals, and nothing is returned', async () => {
    fake.script(
      { content: withStandards(3, 1, () => ['CCSS.Math.Content.6.RP.A.7']) },
      { content: withStandards(3, 4, () => []) },
      { content: withStandards(3, 7, () => 'CCSS.Math.Content.6.RP.A.1') },
    );
    const err = await failure(provider().generateQuestions(aligned));
    expect(err.reason).toBe('invalid_output');
    expect(err.message).toMatch(/9 refused for naming a standard that was not chosen/);
  });
});
