// The offline generator on varied texts: every set valid (ARCHITECTURE §7), exact count 1–20,
// the requested type (mixed cycles all three), built from the text, and deterministic.
import { describe, expect, it } from 'vitest';
import { generateOfflineQuestions } from './offline-generator.ts';
import { checkQuestions, isValidSet, normalizeText, type RequestedType } from './question.ts';

const TEXTS: Record<string, string> = {
  paragraph:
    'Photosynthesis is the process plants use to turn sunlight, water and carbon dioxide into glucose and oxygen. It happens in the chloroplasts, which contain chlorophyll. Chlorophyll absorbs mostly red and blue light and reflects green light.',
  oneWord: 'Photosynthesis',
  shortWords: 'a cat sat on a mat',
  list: '- Mercury\n- Venus\n- Earth\n- Mars\n* Jupiter has 95 moons\n1. Saturn has rings',
  numbers:
    'World War II began in 1939 and ended in 1945. About 70 million people fought. The United Nations was founded in 1945 with 51 members; pi is about 3.14 and 50% of 10 is 5.',
  long: Array.from(
    { length: 60 },
    (_, i) =>
      `Fact ${i + 1}: the river Delta${i} carries sediment to Harbor${i % 7} during season ${i % 4} every year.`,
  ).join(' '),
  punctuation: '“Quoted text!” Really? Yes; semicolons, commas — and dashes... Élan vital über alles.',
  symbols: '!!! ??? ...',
};
const TYPES: RequestedType[] = ['multiple_choice', 'true_false', 'short_answer', 'mixed'];

describe('offline generator', () => {
  for (const [name, content] of Object.entries(TEXTS))
    for (const questionType of TYPES)
      for (const count of [1, 7, 20])
        it(`when the text is ${name}, type ${questionType}, count ${count}, then the set is valid`, () => {
          const qs = generateOfflineQuestions({ content, questionType, count });
          expect(qs).toHaveLength(count);
          const { rejected } = checkQuestions(qs, questionType);
          expect(rejected).toEqual([]);
          expect(isValidSet(qs, { questionType, count })).toBe(true);
        });

  it('when the same request is made twice, then the same questions come back (deterministic)', () => {
    const req = { content: TEXTS.paragraph!, questionType: 'mixed' as const, count: 12 };
    expect(generateOfflineQuestions(req)).toEqual(generateOfflineQuestions(req));
    expect(generateOfflineQuestions({ ...req, content: TEXTS.numbers! })).not.toEqual(generateOfflineQuestions(req));
  });

  it('when the type is mixed, then multiple choice, true/false and short answer all appear in turn', () => {
    const qs = generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'mixed', count: 6 });
    expect(qs.map((q) => q.questionType)).toEqual([
      'multiple_choice',
      'true_false',
      'short_answer',
      'multiple_choice',
      'true_false',
      'short_answer',
    ]);
  });

  it('when building cloze items, then the answer is a term of the sentence and the blank replaces it', () => {
    const qs = generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'short_answer', count: 5 });
    for (const q of qs) {
      expect(q.questionText).toMatch(/^Fill in the blank: .*_____/);
      const restored = q.questionText.replace('Fill in the blank: ', '').replace('_____', q.correctAnswer);
      expect(normalizeText(TEXTS.paragraph!)).toContain(normalizeText(restored).replace(/\.$/, ''));
    }
  });

  it('when building multiple choice, then the distractors are other terms of the text and numbers get numbers', () => {
    const words = generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'multiple_choice', count: 5 });
    const text = TEXTS.paragraph!.toLowerCase();
    for (const q of words) for (const o of q.options) expect(text).toContain(o.toLowerCase());
    const nums = generateOfflineQuestions({ content: TEXTS.numbers!, questionType: 'multiple_choice', count: 8 });
    const numeric = nums.filter((q) => /^\d/.test(q.correctAnswer));
    expect(numeric.length).toBeGreaterThan(0);
    for (const q of numeric) for (const o of q.options) expect(o).toMatch(/^\d/);
  });

  it('when building true/false, then both True and False appear and False statements differ from the text', () => {
    const qs = generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'true_false', count: 6 });
    expect(new Set(qs.map((q) => q.correctAnswer))).toEqual(new Set(['True', 'False']));
    for (const q of qs.filter((x) => x.correctAnswer === 'True'))
      expect(normalizeText(TEXTS.paragraph!)).toContain(
        normalizeText(q.questionText.replace('True or False: ', '')).replace(/\.$/, ''),
      );
    for (const q of qs.filter((x) => x.correctAnswer === 'False'))
      expect(normalizeText(TEXTS.paragraph!)).not.toContain(
        normalizeText(q.questionText.replace('True or False: ', '')).replace(/\.$/, ''),
      );
  });

  it('when told to avoid some questions, then none of them is repeated', () => {
    const first = generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'short_answer', count: 3 });
    const second = generateOfflineQuestions(
      { content: TEXTS.paragraph!, questionType: 'short_answer', count: 3 },
      { exclude: first.map((q) => q.questionText) },
    );
    expect(second.map((q) => q.questionText)).not.toEqual(expect.arrayContaining([first[0]!.questionText]));
  });

  it('when the count is out of range, then it is clamped to 1–20', () => {
    expect(generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'mixed', count: 0 })).toHaveLength(1);
    expect(generateOfflineQuestions({ content: TEXTS.paragraph!, questionType: 'mixed', count: 99 })).toHaveLength(20);
  });
});
