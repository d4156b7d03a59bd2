import { describe, expect, it } from 'vitest';
import {
  AVERAGE_BAND_TEXT,
  distribution,
  itemStatistics,
  reportBand,
  resultLevelText,
  summaryPercent,
  tryText,
  type ItemResult,
} from './figures.ts';

const result = (id: string, percentage: number, answers: Record<string, [string, boolean]>): ItemResult => ({
  id,
  percentage,
  answers: new Map(Object.entries(answers).map(([q, [answer, correct]]) => [q, { answer, correct }])),
});

describe('one level per result (docs/adr/005)', () => {
  it('when practice raised a result, then the export names the raised level and says it was raised', () => {
    expect(resultLevelText('at', 'practice')).toBe('At Standard (raised by practice)');
    expect(resultLevelText('below', null)).toBe('Below Standard');
  });

  it('when the practice attempt that raised it is known, then the export names the try', () => {
    expect(resultLevelText('at', 'practice', 2)).toBe('At Standard (raised by practice, 2nd try)');
    expect(resultLevelText('at', 'practice', null)).toBe('At Standard (raised by practice)');
    expect([1, 2, 3, 4, 11, 12, 13, 21].map(tryText)).toEqual([
      ' (1st try)',
      ' (2nd try)',
      ' (3rd try)',
      ' (4th try)',
      ' (11th try)',
      ' (12th try)',
      ' (13th try)',
      ' (21st try)',
    ]);
    expect(tryText(null)).toBe('');
  });

  it('when an average is banded, then its text names the 80/60 thresholds, never a level name', () => {
    expect(AVERAGE_BAND_TEXT[reportBand(50)]).toBe('Below (average under 60%)');
    expect(AVERAGE_BAND_TEXT[reportBand(66.67)]).toBe('At (average 60-79%)');
    expect(AVERAGE_BAND_TEXT[reportBand(80)]).toBe('Above (average 80% or more)');
    for (const text of Object.values(AVERAGE_BAND_TEXT)) expect(text).not.toMatch(/Standard/);
  });
});

describe('bands and summary percents', () => {
  it('when averages sit on the 80/60 edges, then 80 is above, 60 at and 59.99 below', () => {
    expect([100, 80, 79.99, 60, 59.99, 0].map(reportBand)).toEqual(['above', 'above', 'at', 'at', 'below', 'below']);
  });

  it('when a count is divided by the results, then it is rounded to a whole percent and 0 without results', () => {
    expect(summaryPercent(1, 3)).toBe(33);
    expect(summaryPercent(2, 3)).toBe(67);
    expect(summaryPercent(0, 0)).toBe(0);
  });

  it('when percentages are bucketed, then 100 lands in 90-100 and 89.99 in 80-89', () => {
    const d = distribution([0, 9.99, 10, 89.99, 90, 100]);
    expect(d.map((b) => b.count)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 1, 2]);
    expect(d[9]!.range).toBe('90-100');
  });
});

describe('item statistics', () => {
  // Ten results; question q: the top 3 by score (27 % of 10, rounded) all correct, the bottom 3 one correct.
  const scores = [95, 90, 85, 80, 70, 65, 60, 40, 30, 10];
  const correct = [true, true, true, false, true, false, true, false, true, false];
  const chosen = ['B', 'B', 'B', 'A', 'B', 'C', 'b ', 'A', 'B', ''];
  const results = scores.map((p, i) => result(`r${i}`, p, { q: [chosen[i]!, correct[i]!] }));
  const question = { id: 'q', questionType: 'multiple_choice', options: ['A', 'B', 'C', 'D'], correctAnswer: 'B' };

  it('when worked out by hand, then share correct, discrimination and option counts agree', () => {
    const s = itemStatistics(question, results);
    expect(s.correctCount).toBe(6);
    expect(s.shareCorrect).toBe(0.6);
    expect(s.answered).toBe(9);
    // upper = r0, r1, r2 (3/3 correct); lower = r7, r8, r9 (1/3 correct): D = 1 - 0.33 = 0.67.
    expect(s.discrimination).toBe(0.67);
    expect(s.optionCounts).toEqual([
      { option: 'A', count: 2, shownTo: 10, correct: false },
      { option: 'B', count: 6, shownTo: 10, correct: true },
      { option: 'C', count: 1, shownTo: 10, correct: false },
      { option: 'D', count: 0, shownTo: 10, correct: false },
    ]);
  });

  it('when some students had reduced answer choices, then each option says how many were shown it beside how many chose it', () => {
    // Five results: three saw every option (no shown options stored), two saw only the key and C or D.
    const reduced = (
      id: string,
      percentage: number,
      answer: string,
      correct: boolean,
      shown: string[],
    ): ItemResult => ({
      id,
      percentage,
      answers: new Map([['q', { answer, correct, shownOptions: shown }]]),
    });
    const s = itemStatistics(question, [
      result('a', 100, { q: ['B', true] }),
      result('b', 50, { q: ['A', false] }),
      result('c', 40, { q: ['C', false] }),
      reduced('d', 100, 'B', true, ['B', 'C']),
      reduced('e', 0, 'c', false, ['b', 'D']),
    ]);
    expect(s.optionCounts).toEqual([
      { option: 'A', count: 1, shownTo: 3, correct: false },
      { option: 'B', count: 2, shownTo: 5, correct: true },
      { option: 'C', count: 2, shownTo: 4, correct: false },
      { option: 'D', count: 0, shownTo: 4, correct: false },
    ]);
    // Stored before shown options existed, or all shown: null or empty means every option.
    const old: ItemResult = {
      id: 'o',
      percentage: 0,
      answers: new Map([['q', { answer: 'A', correct: false, shownOptions: null }]]),
    };
    expect(itemStatistics(question, [old]).optionCounts.map((o) => o.shownTo)).toEqual([1, 1, 1, 1]);
  });

  it('when there are no results or only one, then share and discrimination are null or computed as far as they can be', () => {
    expect(itemStatistics(question, [])).toMatchObject({ shareCorrect: null, discrimination: null, answered: 0 });
    expect(itemStatistics(question, [results[0]!])).toMatchObject({ shareCorrect: 1, discrimination: null });
  });

  it('when a short answer is given in several spellings, then they are counted together, most frequent first, with the server’s verdict', () => {
    const sa = { id: 'q', questionType: 'short_answer', options: [], correctAnswer: 'chlorophyll' };
    const s = itemStatistics(sa, [
      result('a', 100, { q: ['Chlorophyll', true] }),
      result('b', 50, { q: ['chlorophyll ', true] }),
      result('c', 0, { q: ['sugar', false] }),
    ]);
    expect(s.optionCounts).toEqual([
      { option: 'Chlorophyll', count: 2, shownTo: 3, correct: true },
      { option: 'sugar', count: 1, shownTo: 3, correct: false },
    ]);
    expect(s.discrimination).toBe(1);
  });

  it('when a short answer waits for review, then it is counted apart and left out of the share, the discrimination and the answers list', () => {
    const sa = { id: 'q', questionType: 'short_answer', options: [], correctAnswer: 'chlorophyll' };
    const waiting: ItemResult = {
      id: 'w',
      percentage: 90,
      answers: new Map([['q', { answer: 'the green stuff', correct: false, pending: true }]]),
    };
    const s = itemStatistics(sa, [
      result('a', 100, { q: ['chlorophyll', true] }),
      result('b', 0, { q: ['sugar', false] }),
      waiting,
    ]);
    expect(s).toMatchObject({ answered: 3, correctCount: 1, awaitingReview: 1, shareCorrect: 0.5, discrimination: 1 });
    expect(s.optionCounts.map((o) => o.option)).toEqual(['chlorophyll', 'sugar']);
    // Only answers waiting: no share yet.
    expect(itemStatistics(sa, [waiting])).toMatchObject({ awaitingReview: 1, correctCount: 0, shareCorrect: null });
  });
});
