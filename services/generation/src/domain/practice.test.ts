// Practice scoring (mastery 80, server side) and the material builders.
import { describe, expect, it } from 'vitest';
import {
  buildPracticeMaterial,
  buildResultPractice,
  completionMessage,
  materialVersion,
  scorePractice,
  statementOf,
  type LessonFacts,
} from './practice.ts';
import { composeRecommendation, summarizeResults } from './recommendations.ts';

const key = ['Oxygen', 'True', 'chloroplasts', 'blue', 'False'].map((correctAnswer) => ({ correctAnswer }));

describe('practice scoring', () => {
  it('when 4 of 5 answers match (case and spaces aside), then 80% passes', () => {
    const answers = [' oxygen', 'TRUE', 'chloroplasts', 'red', 'false'];
    expect(scorePractice(key, (i) => answers[i])).toEqual({ correct: 4, total: 5, score: 80, passed: true });
  });
  it('when 3 of 5 match or answers are blank, then it does not pass', () => {
    expect(scorePractice(key, (i) => ['oxygen', 'true', 'chloroplasts', '', undefined][i])).toMatchObject({
      score: 60,
      passed: false,
    });
    expect(scorePractice(key, () => '  ')).toMatchObject({ score: 0, passed: false });
  });
  it('when 2 of 3 match, then the score is rounded to a whole percent', () => {
    expect(scorePractice(key.slice(0, 3), (i) => ['oxygen', 'true', 'x'][i]).score).toBe(67);
  });
  it('when support is passed, then the message says the level is now At Standard', () => {
    expect(completionMessage({ correct: 4, total: 5, score: 80, passed: true }, 'support')).toContain('At Standard');
    expect(completionMessage({ correct: 1, total: 5, score: 20, passed: false }, 'support')).toContain(
      'Keep Practicing',
    );
  });
});

const lesson: LessonFacts = {
  title: 'Plants',
  topic: 'Photosynthesis',
  content:
    'Photosynthesis turns sunlight, water and carbon dioxide into glucose and oxygen. It happens in the chloroplasts. Chlorophyll reflects green light.',
  questions: [
    {
      id: 'q1',
      text: 'Which gas do plants release?',
      type: 'multiple_choice',
      options: ['oxygen', 'helium', 'argon', 'neon'],
      correctAnswer: 'oxygen',
      points: 1,
    },
    {
      id: 'q2',
      text: 'True or False: Chlorophyll reflects red light.',
      type: 'true_false',
      options: ['True', 'False'],
      correctAnswer: 'False',
      points: 1,
    },
    {
      id: 'q3',
      text: 'Fill in the blank: It happens in the _____.',
      type: 'short_answer',
      options: [],
      correctAnswer: 'chloroplasts',
      points: 1,
    },
  ],
};

describe('practice material', () => {
  it('when questions are turned into statements, then the answer is in them', () => {
    expect(statementOf(lesson.questions[2]!)).toBe('It happens in the chloroplasts.');
    expect(statementOf(lesson.questions[1]!)).toBe('It is not true that chlorophyll reflects red light.');
  });
  it('when support and enrichment are built, then each has a reading and 5 valid new questions, deterministically', () => {
    for (const type of ['support', 'enrichment'] as const) {
      const m = buildPracticeMaterial(lesson, type);
      expect(m.questions).toHaveLength(5);
      expect(new Set(m.questions.map((q) => q.id)).size).toBe(5);
      expect(m.reading.length).toBeGreaterThan(50);
      expect(buildPracticeMaterial(lesson, type)).toEqual(m);
    }
  });
  it('when the material is the same, then so is its version; any changed question changes it', () => {
    const m = buildPracticeMaterial(lesson, 'support');
    expect(materialVersion(buildPracticeMaterial(lesson, 'support'))).toBe(materialVersion(m));
    const [first, ...rest] = m.questions;
    const edited = { ...m, questions: [{ ...first!, question: `${first!.question} again` }, ...rest] };
    expect(materialVersion(edited)).not.toBe(materialVersion(m));
    const reordered = { ...m, questions: [{ ...first!, options: [...first!.options].reverse() }, ...rest] };
    expect(materialVersion(reordered)).not.toBe(materialVersion(m));
    expect(materialVersion({ ...m, reading: `${m.reading} More.` })).not.toBe(materialVersion(m));
  });
  it('when only the keys differ, then the version is the same: the student gets it, so it must not be a digest of the keys', () => {
    const m = buildPracticeMaterial(lesson, 'support');
    const otherKeys = {
      ...m,
      questions: m.questions.map((q) => ({ ...q, correctAnswer: q.options.find((o) => o !== q.correctAnswer) ?? 'x' })),
    };
    expect(materialVersion(otherKeys)).toBe(materialVersion(m));
  });
  it('when the assessment has no teacher text, then practice is built from its questions', () => {
    const m = buildPracticeMaterial({ ...lesson, content: '' }, 'support');
    expect(m.questions).toHaveLength(5);
    expect(m.reading).toContain('chloroplasts');
  });
  it('when result practice is built, then it covers the wrong answers only', () => {
    const p = buildResultPractice(
      lesson,
      [
        { questionId: 'q1', answer: 'oxygen', correct: true },
        { questionId: 'q2', answer: 'True', correct: false },
        { questionId: 'q3', answer: 'x', correct: false },
      ],
      'support',
    );
    expect(p.reading).toContain('2 questions you missed');
    expect(p.reading).toContain('Correct answer: chloroplasts');
    expect(p.reading).not.toContain('Which gas do plants release?');
    expect(p.questions.length).toBeGreaterThanOrEqual(3);
  });
});

describe('recommendations', () => {
  it('when results exist, then the text carries real counts and the most-missed question', () => {
    const results = [
      {
        percentage: 33,
        level: 'below',
        answers: [
          { questionId: 'q1', correct: true },
          { questionId: 'q2', correct: false },
          { questionId: 'q3', correct: false },
        ],
      },
      {
        percentage: 67,
        level: 'below',
        answers: [
          { questionId: 'q1', correct: true },
          { questionId: 'q2', correct: true },
        ],
      },
      {
        percentage: 100,
        level: 'above',
        answers: [
          { questionId: 'q1', correct: true },
          { questionId: 'q2', correct: true },
          { questionId: 'q3', correct: true },
        ],
      },
    ];
    const s = summarizeResults(lesson, results);
    expect(s).toMatchObject({ total: 3, below: 2, at: 0, above: 1, averagePercent: 67 });
    expect(s.mostMissed[0]).toMatchObject({ questionId: 'q3', missed: 2, answered: 3 });
    const text = composeRecommendation(lesson, s, 'support');
    expect(text).toContain('2 students are below standard');
    expect(text).toContain('"Fill in the blank: It happens in the _____." — missed by 2 of 3');
    expect(composeRecommendation(lesson, s, 'enrichment')).toContain('Mastered by everyone so far');
  });
});
