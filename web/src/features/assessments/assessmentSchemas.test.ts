import { describe, expect, it } from 'vitest';
import {
  assessmentDetailsSchema,
  createAssessmentSchema,
  dueDateToSend,
  questionEditSchema,
  questionToSend,
  toDateTimeLocal,
  type QuestionEditValues,
} from './assessmentSchemas';

const valid = {
  classId: 'c1',
  title: 'Fractions',
  contentToAssess: 'Adding fractions with like denominators.',
  questionType: 'mixed',
  numberOfQuestions: '10',
  description: '',
  topic: 'Adding fractions',
  standard: '5.NF.A.1',
};

function messages(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
  return result.success ? [] : (result.error?.issues.map((i) => i.message) ?? []);
}

describe('create assessment validation', () => {
  it('when everything is filled in, then the values pass and the count is a number', () => {
    const parsed = createAssessmentSchema.parse(valid);
    expect(parsed.numberOfQuestions).toBe(10);
    expect(parsed.questionType).toBe('mixed');
  });

  it('when topic or standard is longer than the server keeps, then the message names the field', () => {
    const long = 'x'.repeat(121);
    expect(messages(createAssessmentSchema.safeParse({ ...valid, topic: long, standard: long }))).toEqual([
      'Topic must be at most 120 characters',
      'Standard must be at most 120 characters',
    ]);
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

describe('edit validation', () => {
  it('when title and topic are empty, then their messages show', () => {
    const result = assessmentDetailsSchema.safeParse({
      title: '',
      description: '',
      topic: '',
      standard: '',
      dueDate: '',
    });
    expect(messages(result)).toEqual(['Title is required', 'Topic is required']);
  });

  it('when the due date is not a date or outside 2000–2099, then the message names the due date', () => {
    const details = { title: 'T', description: '', topic: 'T', standard: '' };
    expect(messages(assessmentDetailsSchema.safeParse({ ...details, dueDate: 'soon' }))).toEqual([
      'Due date must be a valid date and time',
    ]);
    expect(messages(assessmentDetailsSchema.safeParse({ ...details, dueDate: '1999-12-31T10:00' }))).toEqual([
      'Due date must be between the years 2000 and 2099',
    ]);
    expect(assessmentDetailsSchema.safeParse({ ...details, dueDate: '2026-12-01T15:00' }).success).toBe(true);
  });

  it('when a due date goes from the input to the API and back, then it is the same local minute', () => {
    const sent = dueDateToSend('2026-12-01T15:30');
    expect(sent).toBe(new Date(2026, 11, 1, 15, 30).toISOString());
    expect(toDateTimeLocal(sent)).toBe('2026-12-01T15:30');
    expect(dueDateToSend(' ')).toBeNull();
    expect(toDateTimeLocal(null)).toBe('');
  });
});

describe('question validation', () => {
  const base: QuestionEditValues = {
    questionText: 'Capital of France?',
    questionType: 'multiple_choice',
    options: ['Paris', 'Lyon', 'Nice', 'Lille'],
    correctOption: '0',
    trueFalse: '',
    correctAnswer: '',
    acceptedAnswers: '',
    points: '2',
  };

  it('when question text is empty and no option is marked, then both messages show', () => {
    const result = questionEditSchema.safeParse({ ...base, questionText: '', correctOption: '' });
    expect(messages(result)).toEqual([
      'Question text is required',
      'Mark the correct answer: choose one of the options',
    ]);
  });

  it('when options repeat or one is blank, then the options message shows', () => {
    expect(messages(questionEditSchema.safeParse({ ...base, options: ['a', 'A', 'b', 'c'] }))).toEqual([
      'Options must all be different',
    ]);
    expect(messages(questionEditSchema.safeParse({ ...base, options: ['a', 'b', 'c', ' '] }))).toEqual([
      'Multiple choice questions need 4 options (A to D)',
    ]);
  });

  it('when points are not a number from 0.01 to 100 in hundredths, then the points message shows', () => {
    for (const points of ['0', '0.001', '0.00', '101', '100.01', '1.255', '-1', '1e1', 'x', '']) {
      expect(messages(questionEditSchema.safeParse({ ...base, points })), points).toEqual([
        'Points must be a number from 0.01 to 100, in hundredths at most (e.g. 0.5)',
      ]);
    }
  });

  it('when points are in hundredths from 0.01 to 100 (as the API takes them), then they pass and are sent as numbers', () => {
    for (const [points, sent] of [
      ['0.01', 0.01],
      ['0.5', 0.5],
      ['1.25', 1.25],
      [' 2 ', 2],
      ['.75', 0.75],
      ['100', 100],
    ] as const) {
      const parsed = questionEditSchema.safeParse({ ...base, points });
      expect(parsed.success, points).toBe(true);
      if (parsed.success) expect(questionToSend(parsed.data).points).toBe(sent);
    }
  });

  it('when a short answer has no key or more than 10 alternatives, then their messages show', () => {
    const short = { ...base, questionType: 'short_answer' as const, correctAnswer: ' ' };
    const many = Array.from({ length: 11 }, (_, i) => `a${i}`).join('\n');
    expect(messages(questionEditSchema.safeParse({ ...short, acceptedAnswers: many }))).toEqual([
      'Correct answer is required',
      'At most 10 accepted answers',
    ]);
  });

  it('when the form is sent, then the marked option is the key and alternatives are one per line', () => {
    expect(questionToSend({ ...base, correctOption: '2' })).toEqual({
      questionText: 'Capital of France?',
      questionType: 'multiple_choice',
      options: ['Paris', 'Lyon', 'Nice', 'Lille'],
      correctAnswer: 'Nice',
      points: 2,
    });
    expect(
      questionToSend({
        ...base,
        questionType: 'short_answer',
        correctAnswer: ' chloroplast ',
        acceptedAnswers: 'plastid\n\n  green plastid ',
      }),
    ).toMatchObject({ options: [], correctAnswer: 'chloroplast', acceptedAnswers: ['plastid', 'green plastid'] });
    expect(questionToSend({ ...base, questionType: 'true_false', trueFalse: 'False' })).toMatchObject({
      options: ['True', 'False'],
      correctAnswer: 'False',
    });
  });
});
