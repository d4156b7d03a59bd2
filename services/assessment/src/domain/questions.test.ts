import { describe, expect, it } from 'vitest';
import { isProblem, normalizeQuestion, parseOptions, type QuestionInput } from './questions.ts';

describe('option parsing', () => {
  it('when options arrive as an array, a JSON string or delimited text, then the same list comes out', () => {
    const want = ['Paris', 'Lyon', 'Nice', 'Lille'];
    expect(parseOptions(want)).toEqual(want);
    expect(parseOptions(JSON.stringify(want))).toEqual(want);
    expect(parseOptions('Paris, Lyon, Nice, Lille')).toEqual(want);
    expect(parseOptions('Paris|Lyon|Nice|Lille')).toEqual(want);
    expect(parseOptions('Paris\nLyon\nNice\nLille')).toEqual(want);
    expect(parseOptions(' Paris ; Lyon;Nice ;Lille')).toEqual(want);
  });

  it('when options are missing or empty, then the list is empty', () => {
    expect(parseOptions(undefined)).toEqual([]);
    expect(parseOptions(null)).toEqual([]);
    expect(parseOptions('')).toEqual([]);
    expect(parseOptions(['', ' '])).toEqual([]);
    expect(parseOptions(42)).toEqual([]);
  });

  it('when a list holds lists or objects (an own toString, deep nesting), then nothing is String()ed and nothing throws', () => {
    const deep = `${'['.repeat(20_000)}"a"${']'.repeat(20_000)}`;
    expect(() => parseOptions(deep)).not.toThrow();
    expect(parseOptions(deep)).toEqual([deep]);
    expect(parseOptions(JSON.parse(deep))).toEqual([]);
    expect(parseOptions('[{"toString":1},"b"]')).toEqual(['[{"toString":1}', '"b"]']);
    expect(parseOptions([{ toString: 1 }, 'b'])).toEqual([]);
    expect(parseOptions([['Paris'], 'Lyon'])).toEqual([]);
    expect(parseOptions([1, true, null, ' x '])).toEqual(['1', 'true', 'x']);
  });
});

describe('question rules', () => {
  const mc = (over: Partial<QuestionInput> = {}): QuestionInput => ({
    questionText: 'Capital of France?',
    questionType: 'multiple_choice',
    options: ['Paris', 'Lyon', 'Nice', 'Lille'],
    correctAnswer: 'paris',
    acceptedAnswers: [],
    points: 1,
    ...over,
  });

  it('when a multiple choice question is valid, then its answer takes the option spelling', () => {
    const q = normalizeQuestion(mc());
    expect(isProblem(q)).toBe(false);
    expect(q).toMatchObject({ correctAnswer: 'Paris' });
  });

  it('when multiple choice has too few, empty, duplicate options or a foreign answer, then it is refused', () => {
    expect(normalizeQuestion(mc({ options: ['a', 'b', 'c'] }))).toMatchObject({ field: 'options' });
    expect(normalizeQuestion(mc({ options: ['a', 'b', 'c', ' '] }))).toMatchObject({ field: 'options' });
    expect(normalizeQuestion(mc({ options: ['Paris', 'paris', 'c', 'd'] }))).toMatchObject({
      message: 'Options must all be different',
    });
    expect(normalizeQuestion(mc({ correctAnswer: 'Rome' }))).toMatchObject({ field: 'correctAnswer' });
  });

  it('when a true/false answer is given in any case, then it is stored as True/False with both options', () => {
    expect(normalizeQuestion(mc({ questionType: 'true_false', correctAnswer: 'false', options: [] }))).toMatchObject({
      correctAnswer: 'False',
      options: ['True', 'False'],
    });
    expect(normalizeQuestion(mc({ questionType: 'true_false', correctAnswer: 'maybe' }))).toMatchObject({
      field: 'correctAnswer',
    });
  });

  it('when a short answer question has options, then they are dropped', () => {
    expect(normalizeQuestion(mc({ questionType: 'short_answer', correctAnswer: ' 42 ' }))).toMatchObject({
      options: [],
      correctAnswer: '42',
    });
  });

  it('when a short answer lists alternatives, then blanks, repeats and the key itself are dropped', () => {
    const q = normalizeQuestion(
      mc({
        questionType: 'short_answer',
        correctAnswer: 'chloroplast',
        acceptedAnswers: [' plastid ', '', 'Chloroplasts', 'plastid.', 'green plastid'],
      }),
    );
    expect(q).toMatchObject({ acceptedAnswers: ['plastid', 'green plastid'] });
  });

  it('when a short answer has more than 10 alternatives or a long one, then acceptedAnswers is named', () => {
    const many = Array.from({ length: 11 }, (_, i) => `answer ${i}`);
    expect(normalizeQuestion(mc({ questionType: 'short_answer', acceptedAnswers: many }))).toEqual({
      field: 'acceptedAnswers',
      message: 'At most 10 accepted answers',
    });
    expect(normalizeQuestion(mc({ questionType: 'short_answer', acceptedAnswers: ['x'.repeat(201)] }))).toMatchObject({
      field: 'acceptedAnswers',
    });
  });

  it('when a multiple choice or true/false question carries alternatives, then they are dropped', () => {
    expect(normalizeQuestion(mc({ acceptedAnswers: ['Lyon'] }))).toMatchObject({ acceptedAnswers: [] });
    expect(
      normalizeQuestion(mc({ questionType: 'true_false', correctAnswer: 'true', acceptedAnswers: ['yes'] })),
    ).toMatchObject({ acceptedAnswers: [] });
  });
});
