import { describe, expect, it } from 'vitest';
import {
  answerIsCorrect,
  isCorrect,
  levelAfterPractice,
  levelAfterRegrade,
  levelFor,
  scoreMarks,
  normalizeShortAnswer,
  numericString,
  scoreSubmission,
} from './scoring.ts';

const q = (id: string, correctAnswer: string, points = 1) => ({ id, correctAnswer, points });

describe('levels', () => {
  it('when the percentage is at a threshold, then the level follows the 80 and 90 thresholds exactly', () => {
    expect(levelFor(0)).toBe('below');
    expect(levelFor(79.99)).toBe('below');
    expect(levelFor(80)).toBe('at');
    expect(levelFor(89.99)).toBe('at');
    expect(levelFor(90)).toBe('above');
    expect(levelFor(100)).toBe('above');
  });

  it('when points give 79.99 / 80 / 89.99 / 90 percent, then the scored level matches', () => {
    const make = (earned: number, total: number) => {
      const questions = [q('a', 'x', earned), q('b', 'x', total - earned)];
      return scoreSubmission(questions, new Map([['a', 'x']]));
    };
    expect(make(79.99, 100)).toMatchObject({ percentage: 79.99, level: 'below' });
    expect(make(80, 100)).toMatchObject({ percentage: 80, level: 'at' });
    expect(make(89.99, 100)).toMatchObject({ percentage: 89.99, level: 'at' });
    expect(make(90, 100)).toMatchObject({ percentage: 90, level: 'above' });
  });

  it('when float sums would land just under 80 (0.1 + 0.7 of 1), then the level is still at', () => {
    const s = scoreSubmission(
      [q('a', 'x', 0.1), q('b', 'x', 0.7), q('c', 'x', 0.2)],
      new Map([
        ['a', 'x'],
        ['b', 'x'],
      ]),
    );
    expect(s.percentage).toBe(80);
    expect(s.level).toBe('at');
  });
});

describe('scoring', () => {
  it('when answers differ only in case and spaces, then they count as correct', () => {
    expect(isCorrect('  paris ', 'Paris')).toBe(true);
    expect(isCorrect('TRUE', 'True')).toBe(true);
    expect(isCorrect('Lyon', 'Paris')).toBe(false);
    expect(isCorrect(undefined, 'Paris')).toBe(false);
    expect(isCorrect('   ', '')).toBe(false);
  });

  it('when questions carry points, then earned, total, percentage and counts come from them', () => {
    const s = scoreSubmission(
      [q('a', 'Paris', 2), q('b', 'True', 1), q('c', '4', 1)],
      new Map([
        ['a', 'paris'],
        ['b', 'false'],
      ]),
    );
    expect(s).toMatchObject({
      earnedPoints: 2,
      totalPoints: 4,
      percentage: 50,
      level: 'below',
      correctAnswers: 1,
      incorrectAnswers: 2,
      totalQuestions: 3,
    });
    expect(s.answers).toEqual([
      { questionId: 'a', answer: 'paris', correct: true, pending: false, earnedPoints: 2 },
      { questionId: 'b', answer: 'false', correct: false, pending: false, earnedPoints: 0 },
      { questionId: 'c', answer: '', correct: false, pending: false, earnedPoints: 0 },
    ]);
  });

  it('when there are no questions, then the score is 0 and below', () => {
    expect(scoreSubmission([], new Map())).toMatchObject({ percentage: 0, totalPoints: 0, level: 'below' });
  });

  it('when a third is right, then the percentage is rounded to two decimals', () => {
    const s = scoreSubmission([q('a', 'x'), q('b', 'x'), q('c', 'x')], new Map([['a', 'x']]));
    expect(s.percentage).toBe(33.33);
  });

  it('when numbers are shown as strings, then they have two decimals', () => {
    expect(numericString(85)).toBe('85.00');
    expect(numericString(33.333)).toBe('33.33');
    expect(numericString(0)).toBe('0.00');
    expect(numericString(1.5)).toBe('1.50');
    expect(Number(numericString(79.99))).toBe(79.99);
  });
});

describe('short answers', () => {
  const short = (correctAnswer: string, acceptedAnswers: string[] = []) => ({
    correctAnswer,
    questionType: 'short_answer',
    acceptedAnswers,
  });

  it('when a short answer differs in case, spacing, punctuation or width, then it is right', () => {
    expect(answerIsCorrect('  The   CHLOROPLAST. ', short('the chloroplast'))).toBe(true);
    expect(answerIsCorrect('carbon-dioxide!', short('Carbon dioxide'))).toBe(true);
    expect(answerIsCorrect("don't know", short('dont know'))).toBe(true);
    expect(answerIsCorrect('ＰＡＲＩＳ', short('Paris'))).toBe(true);
    expect(answerIsCorrect('STRASSE', short('Straße'))).toBe(true);
  });

  it('when a word of 4 or more letters has a plural s or es, then it is right; shorter words must match', () => {
    expect(answerIsCorrect('chloroplasts', short('chloroplast'))).toBe(true);
    expect(answerIsCorrect('chloroplast', short('chloroplasts'))).toBe(true);
    expect(answerIsCorrect('boxes', short('box'))).toBe(true);
    expect(answerIsCorrect('red cells', short('red cell'))).toBe(true);
    expect(answerIsCorrect('as', short('a'))).toBe(false);
    expect(answerIsCorrect('chloroplastic', short('chloroplast'))).toBe(false);
    expect(answerIsCorrect('chloroplast', short('chlorophyll'))).toBe(false);
  });

  it('when numbers carry a decimal point, a fraction bar or a minus, then those still count', () => {
    expect(answerIsCorrect('35', short('3.5'))).toBe(false);
    expect(answerIsCorrect('3.5', short('3.5.'))).toBe(true);
    expect(answerIsCorrect('12', short('1/2'))).toBe(false);
    expect(answerIsCorrect('5', short('-5'))).toBe(false);
    expect(answerIsCorrect('\u22125', short('-5'))).toBe(true);
    expect(normalizeShortAnswer(' 10:30, -4 ')).toBe('10:30 -4');
  });

  it('when an accepted alternative matches, then it is right; a blank or punctuation-only answer never is', () => {
    expect(answerIsCorrect('plastids', short('chloroplast', ['plastid']))).toBe(true);
    expect(answerIsCorrect('mitochondrion', short('chloroplast', ['plastid']))).toBe(false);
    expect(answerIsCorrect('...', short('...'))).toBe(false);
    expect(answerIsCorrect(undefined, short('x'))).toBe(false);
  });

  it('when the question is multiple choice, then only case and surrounding spaces are ignored', () => {
    const mc = { correctAnswer: '1/2', questionType: 'multiple_choice', acceptedAnswers: [] };
    expect(answerIsCorrect(' 1/2 ', mc)).toBe(true);
    expect(answerIsCorrect('1 2', mc)).toBe(false);
  });

  it('when points differ per question, then the percentage is weighted by them', () => {
    const s = scoreSubmission(
      [
        { id: 'a', points: 3, ...short('photosynthesis') },
        { id: 'b', points: 1, ...short('chloroplast', ['plastid']) },
      ],
      new Map([
        ['a', 'Photosynthesis.'],
        ['b', 'nucleus'],
      ]),
    );
    expect(s).toMatchObject({ earnedPoints: 3, totalPoints: 4, percentage: 75, correctAnswers: 1 });
  });
});

describe('practice', () => {
  it('when support practice reaches 80, then below rises to at; otherwise nothing changes', () => {
    expect(levelAfterPractice('below', 'support', 80)).toBe('at');
    expect(levelAfterPractice('below', 'support', 79.9)).toBeUndefined();
    expect(levelAfterPractice('at', 'support', 100)).toBeUndefined();
    expect(levelAfterPractice('above', 'support', 100)).toBeUndefined();
    expect(levelAfterPractice('below', 'enrichment', 100)).toBeUndefined();
  });
});

describe('marks by hand and answers waiting for review', () => {
  const mark = (questionId: string, points: number, earnedPoints: number, pending = false) => ({
    questionId,
    answer: 'x',
    points,
    earnedPoints,
    pending,
  });

  it('when a teacher gives part points, then the score sums them and only full points count as correct', () => {
    const s = scoreMarks([mark('a', 2, 1.5), mark('b', 2, 2), mark('c', 1, 0)]);
    expect(s).toMatchObject({
      earnedPoints: 3.5,
      totalPoints: 5,
      percentage: 70,
      level: 'below',
      correctAnswers: 1,
      incorrectAnswers: 2,
      pendingReview: 0,
    });
  });

  it('when part points reach the threshold exactly, then the level is at (thresholds as for a submission)', () => {
    expect(scoreMarks([mark('a', 10, 8), mark('b', 0.1, 0)]).level).toBe('below');
    expect(scoreMarks([mark('a', 5, 4)]).level).toBe('at');
    expect(scoreMarks([mark('a', 10, 9)]).level).toBe('above');
  });

  it('when an answer waits for review, then it earns nothing yet and is neither correct nor incorrect', () => {
    const s = scoreMarks([mark('a', 1, 1), mark('b', 1, 1, true)]);
    expect(s).toMatchObject({
      earnedPoints: 1,
      totalPoints: 2,
      correctAnswers: 1,
      incorrectAnswers: 0,
      pendingReview: 1,
    });
    expect(s.answers[1]).toMatchObject({ pending: true, correct: false, earnedPoints: 0 });
  });

  it('when review is on, then only a non-blank short answer off the key waits', () => {
    const sa = { id: 's', correctAnswer: 'evaporation', questionType: 'short_answer', points: 1 };
    const mc = { id: 'm', correctAnswer: 'A', questionType: 'multiple_choice', points: 1 };
    const review = { reviewShortAnswers: true };
    const answers = (s: string, m: string) =>
      new Map([
        ['s', s],
        ['m', m],
      ]);
    expect(scoreSubmission([sa, mc], answers('the sun heats the water', 'B'), review).answers).toMatchObject([
      { pending: true },
      { pending: false, correct: false },
    ]);
    expect(scoreSubmission([sa, mc], answers('Evaporation', 'A'), review).answers).toMatchObject([
      { pending: false, correct: true },
      { pending: false, correct: true },
    ]);
    expect(scoreSubmission([sa], answers('  ', ''), review).answers[0]).toMatchObject({
      pending: false,
      correct: false,
    });
    expect(scoreSubmission([sa], answers('the sun heats the water', ''), {}).answers[0]).toMatchObject({
      pending: false,
      correct: false,
    });
  });

  it('when practice raised the result, then a regrade keeps at as a floor; otherwise the score decides', () => {
    expect(levelAfterRegrade('below', 'practice')).toBe('at');
    expect(levelAfterRegrade('above', 'practice')).toBe('above');
    expect(levelAfterRegrade('below', null)).toBe('below');
    expect(levelAfterRegrade('at', null)).toBe('at');
  });
});
