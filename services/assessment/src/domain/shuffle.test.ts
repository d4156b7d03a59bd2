import { describe, expect, it } from 'vitest';
import type { QuestionRow } from './assessment.ts';
import { studentOrder } from './shuffle.ts';

const question = (n: number, questionType = 'multiple_choice'): QuestionRow => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  assessmentId: 'a',
  position: n,
  questionText: `Q${n}`,
  questionType,
  options: questionType === 'true_false' ? ['True', 'False'] : ['A', 'B', 'C', 'D'],
  correctAnswer: 'A',
  acceptedAnswers: [],
  points: 1,
});
const QUESTIONS = Array.from({ length: 10 }, (_, i) => question(i + 1));
const both = { shuffleQuestions: true, shuffleOptions: true };

describe('studentOrder', () => {
  it('when nothing is set, then the teacher’s order and options come back as they are', () => {
    expect(studentOrder(QUESTIONS, 's1', { shuffleQuestions: false, shuffleOptions: false })).toEqual(QUESTIONS);
  });

  it('when both are set, then each student gets a permutation of their own, the same every time', () => {
    const one = studentOrder(QUESTIONS, 's1', both);
    expect(studentOrder(QUESTIONS, 's1', both)).toEqual(one);
    expect(one.map((q) => q.id).sort()).toEqual(QUESTIONS.map((q) => q.id).sort());
    expect(one.map((q) => q.id)).not.toEqual(studentOrder(QUESTIONS, 's2', both).map((q) => q.id));
    for (const q of one) expect([...q.options].sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(one.some((q) => q.options.join() !== 'A,B,C,D')).toBe(true);
    expect(one.map((q) => q.position)).toEqual(QUESTIONS.map((_, i) => i + 1));
  });

  it('when options are shuffled, then true/false keeps True before False', () => {
    const tf = [question(1, 'true_false'), question(2, 'true_false')];
    expect(studentOrder(tf, 's1', both).map((q) => q.options)).toEqual([
      ['True', 'False'],
      ['True', 'False'],
    ]);
  });

  it('when 2,000 students shuffle four options, then each option leads about a quarter of the time', () => {
    const first = new Map<string, number>();
    for (let s = 0; s < 2000; s++) {
      const [q] = studentOrder([QUESTIONS[0]!], `student-${s}`, { shuffleQuestions: false, shuffleOptions: true });
      first.set(q!.options[0]!, (first.get(q!.options[0]!) ?? 0) + 1);
    }
    // 500 expected each; ±100 is more than 5 standard deviations (σ ≈ 19.4).
    for (const option of ['A', 'B', 'C', 'D']) expect(Math.abs((first.get(option) ?? 0) - 500)).toBeLessThan(100);
  });
});
