// Offline generation grounded in the standards a teacher chose (docs/adr/012-standards.md): the
// items come from the lesson, those about what the standard's statement names first, and each is
// aligned only to chosen standards.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateOfflineQuestions } from './offline-generator.ts';
import { alignmentProblem, isValidSet, type RequestStandard } from './question.ts';

const RATIOS = readFileSync(new URL('../../quality/corpus/g06-math-ratios.txt', import.meta.url), 'utf8');
const RATIO: RequestStandard = {
  identifier: '6b9d0f52-d7cc-11e8-824f-0242ac160002',
  code: 'CCSS.Math.Content.6.RP.A.1',
  statement:
    'Understand the concept of a ratio and use ratio language to describe a ratio relationship between two quantities.',
};
const UNIT_RATE: RequestStandard = {
  identifier: '6b9d1156-d7cc-11e8-824f-0242ac160002',
  code: 'CCSS.Math.Content.6.RP.A.2',
  statement:
    'Understand the concept of a unit rate a/b associated with a ratio a:b with b ≠ 0, and use rate language in the context of a ratio relationship.',
};

describe('offline generation with chosen standards', () => {
  it('when the teacher chose one standard, then every item is from the lesson and carries exactly that alignment', () => {
    const request = { content: RATIOS, questionType: 'mixed' as const, count: 6, standards: [RATIO] };
    const qs = generateOfflineQuestions(request);
    expect(isValidSet(qs, request)).toBe(true);
    expect(qs.map((q) => q.standardIdentifiers)).toEqual(qs.map(() => [RATIO.identifier]));
  });

  it('when the teacher chose two standards, then each item names one or both of them and nothing else', () => {
    const request = { content: RATIOS, questionType: 'mixed' as const, count: 8, standards: [RATIO, UNIT_RATE] };
    const qs = generateOfflineQuestions(request);
    expect(isValidSet(qs, request)).toBe(true);
    for (const q of qs) expect(alignmentProblem(q, request.standards)).toBeUndefined();
    // An item about unit rates is aligned to the unit-rate standard.
    const unitRate = qs.filter((q) => /unit rate/i.test(`${q.questionText} ${q.correctAnswer}`));
    for (const q of unitRate) expect(q.standardIdentifiers).toContain(UNIT_RATE.identifier);
  });

  it('when the chosen standard is about part of the lesson, then more items ask about that part than without it', () => {
    const about = (qs: { questionText: string; correctAnswer: string }[], re: RegExp) =>
      qs.filter((q) => re.test(`${q.questionText} ${q.correctAnswer}`)).length;
    const TABLES: RequestStandard = {
      identifier: '6b9d1246-d7cc-11e8-824f-0242ac160002',
      code: 'CCSS.Math.Content.6.RP.A.3a',
      statement:
        'Make tables of equivalent ratios relating quantities with whole-number measurements, find missing values in the tables, and plot the pairs of values on the coordinate plane.',
    };
    for (const [standard, re] of [
      [UNIT_RATE, /\brates?\b/i],
      [TABLES, /\btables?\b/i],
    ] as const) {
      const plain = generateOfflineQuestions({ content: RATIOS, questionType: 'mixed', count: 5 });
      const grounded = generateOfflineQuestions({
        content: RATIOS,
        questionType: 'mixed',
        count: 5,
        standards: [standard],
      });
      expect(about(grounded, re), standard.code).toBeGreaterThan(about(plain, re));
    }
  });

  it('when no standard was chosen, then the items name none', () => {
    const qs = generateOfflineQuestions({ content: RATIOS, questionType: 'mixed', count: 4 });
    expect(qs.every((q) => q.standardIdentifiers === undefined)).toBe(true);
  });

  it('when an item names a standard that was not chosen, or none while some were, then the set is not valid', () => {
    const request = { content: RATIOS, questionType: 'mixed' as const, count: 3, standards: [RATIO] };
    const qs = generateOfflineQuestions(request);
    const invented = qs.map((q, i) => (i === 1 ? { ...q, standardIdentifiers: ['CCSS.Math.Content.6.RP.A.7'] } : q));
    expect(isValidSet(invented, request)).toBe(false);
    expect(alignmentProblem(invented[1]!, request.standards)).toMatch(/not chosen/);
    const unaligned = qs.map((q, i) => (i === 0 ? { ...q, standardIdentifiers: [] } : q));
    expect(isValidSet(unaligned, request)).toBe(false);
  });
});
