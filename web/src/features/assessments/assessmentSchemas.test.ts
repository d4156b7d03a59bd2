import { describe, expect, it } from 'vitest';
import { assessmentDetailsSchema, createAssessmentSchema, questionEditSchema } from './assessmentSchemas';

const valid = {
  classId: 'c1',
  title: 'Fractions',
  contentToAssess: 'Adding fractions with like denominators.',
  questionType: 'mixed',
  numberOfQuestions: '10',
  description: '',
};

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);
}

describe('create assessment validation (spec §5)', () => {
  it('when everything is filled in, then the values pass and the count is a number', () => {
    const parsed = createAssessmentSchema.parse(valid);
    expect(parsed.numberOfQuestions).toBe(10);
    expect(parsed.questionType).toBe('mixed');
  });

  it('when title, content and type are empty, then the three messages show', () => {
    const result = createAssessmentSchema.safeParse({ ...valid, title: ' ', contentToAssess: '', questionType: '' });
    expect(messages(result)).toEqual(
      expect.arrayContaining(['Title is required', 'Content to be assessed is required', 'Question type is required']),
    );
  });

  it('when the count is 0 or 21, then the bounds messages show', () => {
    expect(messages(createAssessmentSchema.safeParse({ ...valid, numberOfQuestions: '0' }))).toEqual([
      'Must have at least 1 question',
    ]);
    expect(messages(createAssessmentSchema.safeParse({ ...valid, numberOfQuestions: '21' }))).toEqual([
      'Maximum 20 questions',
    ]);
  });

  it('when the count is not a number, then it becomes 1', () => {
    expect(createAssessmentSchema.parse({ ...valid, numberOfQuestions: 'abc' }).numberOfQuestions).toBe(1);
    expect(createAssessmentSchema.parse({ ...valid, numberOfQuestions: '' }).numberOfQuestions).toBe(1);
  });
});

describe('edit validation (spec §5)', () => {
  it('when title and topic are empty, then their messages show', () => {
    const result = assessmentDetailsSchema.safeParse({ title: '', description: '', topic: '', standard: '' });
    expect(messages(result)).toEqual(['Title is required', 'Topic is required']);
  });

  it('when question text and correct answer are empty, then their messages show', () => {
    const result = questionEditSchema.safeParse({
      questionText: '',
      questionType: 'multiple_choice',
      options: ['a', 'b', 'c', 'd'],
      correctAnswer: ' ',
    });
    expect(messages(result)).toEqual(['Question text is required', 'Correct answer is required']);
  });
});
