// The quality gate: the offline generator over the corpus of lesson texts written for it
// and the held-out lessons it was never tuned on. At least 90 % of its items must pass every rule
// (item-quality.ts: sound false statements, distractors of the key's kind, no cue between items, no
// sentence asked twice), at least a third must ask more than recall, and where a lesson cannot give
// a whole set it gives fewer (the teacher is told), never padding with weak items.
import { describe, expect, it } from 'vitest';
import {
  CORPUS_DIR,
  GATE_BEYOND_RECALL_SHARE,
  GATE_COUNT,
  GATE_MADE_SHARE,
  GATE_PASS_SHARE,
  GATE_TYPES,
  HOLDOUT_DIR,
  readCorpus,
  readLessons,
  runCorpus,
} from '../quality/corpus.ts';

describe('question quality gate', () => {
  const lessons = readLessons();

  it('when the corpus is read, then it has at least 20 tuned and 10 held-out lessons of 150–400 words over several subjects and grades 3–12', () => {
    expect(readCorpus(CORPUS_DIR).length).toBeGreaterThanOrEqual(20);
    expect(readCorpus(HOLDOUT_DIR).length).toBeGreaterThanOrEqual(10);
    expect(new Set(lessons.map((l) => l.subject)).size).toBeGreaterThanOrEqual(6);
    const grades = new Set(lessons.map((l) => l.grade));
    for (const g of [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) expect(grades, `grade ${g}`).toContain(g);
    for (const l of lessons) {
      const words = l.text.split(/\s+/).filter(Boolean).length;
      expect(words, l.file).toBeGreaterThanOrEqual(150);
      expect(words, l.file).toBeLessThanOrEqual(400);
    }
  });

  it('when every type is generated from every lesson, then 90 % of items are sound, a third go beyond recall and most of each set is made', () => {
    const { report, heldOut, sets } = runCorpus(lessons);
    expect(sets).toHaveLength(lessons.length * GATE_TYPES.length);
    expect(report.passing / report.items).toBeGreaterThanOrEqual(GATE_PASS_SHARE);
    expect(heldOut.passing / heldOut.items).toBeGreaterThanOrEqual(GATE_PASS_SHARE);
    expect(report.beyondRecall / report.items).toBeGreaterThanOrEqual(GATE_BEYOND_RECALL_SHARE);
    expect(report.items / (sets.length * GATE_COUNT)).toBeGreaterThanOrEqual(GATE_MADE_SHARE);
  }, 300_000);
});
