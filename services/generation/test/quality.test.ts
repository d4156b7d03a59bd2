// The quality gate (issue 13): the offline generator over the corpus of lesson texts written for
// it must give every set asked for, and at least 90 % of its items must pass every quality rule.
import { describe, expect, it } from 'vitest';
import { GATE_PASS_SHARE, GATE_TYPES, readCorpus, runCorpus } from '../quality/corpus.ts';

describe('question quality gate', () => {
  const lessons = readCorpus();

  it('when the corpus is read, then it has at least 20 lessons of 150–400 words over several subjects and grades 3–12', () => {
    expect(lessons.length).toBeGreaterThanOrEqual(20);
    expect(new Set(lessons.map((l) => l.subject)).size).toBeGreaterThanOrEqual(6);
    const grades = new Set(lessons.map((l) => l.grade));
    for (const g of [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) expect(grades, `grade ${g}`).toContain(g);
    for (const l of lessons) {
      const words = l.text.split(/\s+/).filter(Boolean).length;
      expect(words, l.file).toBeGreaterThanOrEqual(150);
      expect(words, l.file).toBeLessThanOrEqual(400);
    }
  });

  it('when every type is generated from every lesson, then every set is made and at least 90 % of items pass every rule', () => {
    const { report, refused, sets } = runCorpus(lessons);
    expect(refused).toEqual([]);
    expect(sets).toHaveLength(lessons.length * GATE_TYPES.length);
    expect(report.passing / report.items).toBeGreaterThanOrEqual(GATE_PASS_SHARE);
  }, 300_000);
});
