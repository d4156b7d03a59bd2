// Item validation: type, 4 distinct options with the answer, True/False, no
// repeats, no empty text.
import { describe, expect, it } from 'vitest';
import { checkQuestion, checkQuestions, clampCount } from './question.ts';

const mc = {
  questionText: 'Which gas?',
  questionType: 'multiple_choice',
  options: ['Oxygen', 'Nitrogen', 'Helium', 'Argon'],
  correctAnswer: 'oxygen ',
};

describe('item validation', () => {
  it('when a multiple choice item is right, then it is kept with the answer spelled as its option', () => {
    const r = checkQuestion(mc, 'multiple_choice');
    expect(r).toEqual({ ok: true, question: { ...mc, correctAnswer: 'Oxygen', points: 1 } });
  });

  it.each([
    ['3 options', { ...mc, options: ['a', 'b', 'Oxygen'] }, '3 options, need 4'],
    ['repeated options', { ...mc, options: ['Oxygen', 'oxygen', 'b', 'c'] }, 'options repeat'],
    ['answer not an option', { ...mc, correctAnswer: 'water' }, 'correct answer not among options'],
    ['empty option', { ...mc, options: ['Oxygen', '', 'b', 'c'] }, 'empty option'],
    ['empty text', { ...mc, questionText: '  ' }, 'empty question text'],
    ['unknown type', { ...mc, questionType: 'essay' }, 'unknown type essay'],
    ['wrong type', { ...mc, questionType: 'short_answer' }, 'type short_answer, asked multiple_choice'],
    ['no answer', { ...mc, correctAnswer: '' }, 'empty correct answer'],
  ])('when an item has %s, then it is rejected', (_, item, problem) => {
    expect(checkQuestion(item, 'multiple_choice')).toEqual({ ok: false, problem });
  });

  it('when a true/false answer is not True or False, then it is rejected; other cases are normalized', () => {
    const tf = { questionText: 'Plants need light.', questionType: 'true_false', options: [], correctAnswer: 'yes' };
    expect(checkQuestion(tf, 'true_false').ok).toBe(false);
    const ok = checkQuestion({ ...tf, correctAnswer: 'FALSE' }, 'mixed');
    expect(ok).toMatchObject({ ok: true, question: { options: ['True', 'False'], correctAnswer: 'False' } });
  });

  it('when a list repeats a question (case and spaces aside), then the repeat is dropped', () => {
    const { valid, rejected } = checkQuestions([mc, { ...mc, questionText: ' which   GAS? ' }], 'mixed');
    expect(valid).toHaveLength(1);
    expect(rejected).toEqual([{ index: 1, problem: 'duplicate question' }]);
  });

  it('when a count is outside 1–20 or not a number, then it is clamped', () => {
    expect([clampCount(0), clampCount(21), clampCount(Number.NaN), clampCount(7.9)]).toEqual([1, 20, 1, 7]);
  });
});
