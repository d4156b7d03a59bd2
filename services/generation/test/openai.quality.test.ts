// The openai provider held to the same quality rules as the offline generator, with recorded
// model answers (test/fixtures/openai-answers.json) served by a local server that speaks the API:
// items that break a rule are dropped and asked for again, and what comes back passes the gate.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkItem, qualityReport } from '../src/domain/item-quality.ts';
import type { GeneratedQuestion, RequestedType } from '../src/domain/question.ts';
import { openAiProvider } from '../src/providers/openai.provider.ts';
import { CORPUS_DIR, GATE_PASS_SHARE } from '../quality/corpus.ts';
import { startFakeOpenAi, type FakeOpenAi } from './fake-openai.ts';

interface Recorded {
  lessons: { corpus: string; questionType: RequestedType; count: number; replies: unknown[] }[];
}
const recorded = JSON.parse(
  readFileSync(new URL('./fixtures/openai-answers.json', import.meta.url), 'utf8'),
) as Recorded;

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake?.stop();
});

const provider = () =>
  openAiProvider({
    apiKey: 'sk-test',
    baseURL: fake.url,
    model: 'gpt-test',
    timeoutMs: 5_000,
    maxRetries: 0,
    retryBaseMs: 1,
    sleep: async () => {},
  });

describe('openai provider quality', () => {
  it('when the recorded model answers hold items that break a rule, then the checker names them', () => {
    const all = recorded.lessons.flatMap((l) =>
      l.replies.flatMap((r) => (r as { questions: GeneratedQuestion[] }).questions),
    );
    const broken = all.filter((q) => checkItem(q).length > 0).map((q) => [q.questionText, checkItem(q)[0]!.rule]);
    expect(broken).toEqual([
      ['True or False: Mitochondria, the powerhouses of the cell.', 'true_false_statement'],
      ['The jelly-like fluid inside the cell membrane is called cytoplasm. What is it called?', 'answer_not_in_stem'],
    ]);
  });

  it('when the provider writes questions for corpus lessons, then rule breakers are asked for again and at least 90 % pass every rule', async () => {
    const sets: GeneratedQuestion[][] = [];
    for (const lesson of recorded.lessons) {
      fake.script(...lesson.replies.map((r) => ({ content: JSON.stringify(r) })));
      const content = readFileSync(`${CORPUS_DIR}/${lesson.corpus}`, 'utf8');
      const qs = await provider().generateQuestions({
        content,
        questionType: lesson.questionType,
        count: lesson.count,
      });
      expect(qs).toHaveLength(lesson.count);
      expect(fake.requests).toHaveLength(lesson.replies.length);
      // The rule breakers of a first reply never reach the teacher.
      for (const q of qs) expect(checkItem(q), q.questionText).toEqual([]);
      sets.push(qs);
    }
    const report = qualityReport(sets);
    expect(report.items).toBe(24);
    expect(report.passing / report.items).toBeGreaterThanOrEqual(GATE_PASS_SHARE);
    // The call for more names the kept questions so they are not repeated.
    expect(JSON.stringify(fake.requests.at(-1))).not.toContain('Mitochondria, the powerhouses');
  });
});
