// Practice scoring (mastery 80, server side) and the material builders.
import { describe, expect, it } from 'vitest';
import {
  buildPracticeMaterial,
  buildResultPractice,
  reviewOfMissed,
  completionMessage,
  materialVersion,
  scorePractice,
  statementOf,
  type LessonFacts,
} from './practice.ts';
import { checkItems } from './item-quality.ts';
import { composeRecommendation, summarizeResults } from './recommendations.ts';

const asItem = (q: { question: string; type: string; options: string[]; correctAnswer: string }) => ({
  questionText: q.question,
  questionType: q.type as 'multiple_choice' | 'true_false' | 'short_answer',
  options: q.options,
  correctAnswer: q.correctAnswer,
});

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
  content: [
    'Photosynthesis is the process plants use to turn sunlight, water and carbon dioxide into glucose and oxygen.',
    'It happens in the chloroplasts.',
    'Chlorophyll is the green pigment that reflects green light and absorbs red and blue light.',
    'Plants take in carbon dioxide from the air through tiny openings called stomata.',
    'Water travels from the roots up to the leaves through tubes called xylem.',
    'Because the leaves capture light energy, the plant can turn carbon dioxide and water into glucose.',
    'Glucose is the sugar that gives the plant energy to grow.',
    'Phloem carries the sugars made in the leaves to the rest of the plant.',
  ].join(' '),
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
  it('when questions are turned into statements, then only blanks and true statements make one, with the answer in it', () => {
    expect(statementOf(lesson.questions[2]!)).toBe('It happens in the chloroplasts.');
    // A false statement or a question is no fact to study from.
    expect(statementOf(lesson.questions[1]!)).toBeUndefined();
    expect(statementOf(lesson.questions[0]!)).toBeUndefined();
  });
  it('when support and enrichment are built, then each has a reading and 3 to 5 valid new questions, none on the assessment’s sentences, deterministically', () => {
    for (const type of ['support', 'enrichment'] as const) {
      const m = buildPracticeMaterial(lesson, type);
      // The assessment's sentences are not asked again: a short lesson leaves fewer than 5.
      expect(m.questions.length).toBeGreaterThanOrEqual(3);
      expect(m.questions.length).toBeLessThanOrEqual(5);
      expect(new Set(m.questions.map((q) => q.id)).size).toBe(m.questions.length);
      expect(m.reading.length).toBeGreaterThan(50);
      expect(buildPracticeMaterial(lesson, type)).toEqual(m);
      expect(checkItems(m.questions.map(asItem)).flatMap((c) => c.issues)).toEqual([]);
      // Never an item built from a question stem ("Which term best _____ the statement?").
      for (const q of m.questions) {
        expect(q.question).not.toMatch(/Which term best|Fill in the blank: Fill in|True or False: True or False/);
        expect(lesson.questions.map((x) => x.text)).not.toContain(q.question);
      }
    }
  });
  it('when support is built, then it re-teaches from the lesson’s key sentences, without filler, with easier items', () => {
    const m = buildPracticeMaterial(lesson, 'support');
    expect(m.reading).toContain('Plants take in carbon dioxide from the air through tiny openings called stomata.');
    expect(m.reading).toContain(
      'photosynthesis: the process plants use to turn sunlight, water and carbon dioxide into glucose and oxygen.',
    );
    expect(m.reading).not.toMatch(/Let's review Photosynthesis is/);
    // A sentence that leans on the one before is no key idea on its own.
    expect(m.reading).not.toContain('It happens in the chloroplasts.');
    expect(new Set(m.questions.map((q) => q.type))).toEqual(new Set(['true_false', 'multiple_choice']));
  });
  it('when enrichment is built, then it asks harder items: recall without options, terms from definitions, effects from causes', () => {
    const m = buildPracticeMaterial(lesson, 'enrichment');
    expect(m.questions.filter((q) => q.type === 'short_answer').length).toBeGreaterThanOrEqual(1);
    expect(m.questions.some((q) => /matches this description|what happens because/.test(q.question))).toBe(true);
    // Every prompt a student is asked to answer is a question with a place to answer: the reading
    // states the connections, it asks nothing.
    expect(m.reading).toContain('Because the leaves capture light energy, the plant can turn carbon dioxide and water');
    expect(m.reading).not.toMatch(/\?|Explain in your own words|give an example|How are .* connected/);
    const support = buildPracticeMaterial(lesson, 'support').questions.map((q) => q.question);
    expect(m.questions.filter((q) => support.includes(q.question))).toEqual([]);
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
  it('when the assessment has no teacher text, then practice asks its own questions again, never items built from their stems', () => {
    const m = buildPracticeMaterial({ ...lesson, content: '' }, 'support');
    expect(m.questions.map((q) => q.question)).toEqual(lesson.questions.map((q) => q.text));
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

describe('practice aimed at what a student missed', () => {
  const missed = [
    { questionId: 'q1', answer: 'oxygen', correct: true },
    { questionId: 'q2', answer: 'True', correct: false },
    { questionId: 'q3', answer: 'x', correct: false },
  ];
  it('when result practice is tried again, then other items come where the lesson allows, in another order, never an assessment stem', () => {
    const first = buildResultPractice(lesson, missed, 'support');
    const again = buildResultPractice(lesson, missed, 'support', {
      round: 1,
      avoid: first.questions.map((q) => q.question),
    });
    expect(again.questions.length).toBeGreaterThanOrEqual(3);
    expect(again.questions.map((q) => q.question)).not.toEqual(first.questions.map((q) => q.question));
    const own = lesson.questions.map((q) => q.text);
    for (const q of [...first.questions, ...again.questions]) expect(own).not.toContain(q.question);
    expect(checkItems(again.questions.map(asItem)).flatMap((c) => c.issues)).toEqual([]);
  });
  it('when a student with a result reads support, then the review names each missed question, its answer and what the lesson says', () => {
    const review = reviewOfMissed(lesson, missed);
    expect(review).toMatch(/^What you missed on /);
    expect(review).toContain('Correct answer: chloroplasts.');
    expect(review).toContain('The lesson says:');
    expect(review).not.toContain(lesson.questions[0]!.text);
    expect(reviewOfMissed(lesson, [])).toBe('');
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

  it('when practice raised a result, then the guidance counts it at its level and says it was raised', () => {
    const raised = { percentage: 40, level: 'at', answers: [{ questionId: 'q1', correct: true }] };
    const plain = { percentage: 85, level: 'at', answers: [{ questionId: 'q1', correct: true }] };
    const s = summarizeResults(lesson, [raised, plain]);
    expect(s).toMatchObject({ total: 2, below: 0, at: 2, raised: 1, above: 0 });
    expect(composeRecommendation(lesson, s, 'support')).toContain(
      'at standard: 2 (100%, 1 of them raised by support practice)',
    );
    expect(composeRecommendation(lesson, summarizeResults(lesson, [plain]), 'support')).not.toContain('raised by');
  });
});
