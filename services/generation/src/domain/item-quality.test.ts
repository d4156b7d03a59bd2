// Each quality rule on its own: an item that breaks it is caught, a good item passes.
import { describe, expect, it } from 'vitest';
import { checkItem, checkItems, optionKind, qualityReport, type CheckedItem } from './item-quality.ts';

const mc = (questionText: string, options: string[], correctAnswer: string): CheckedItem => ({
  questionText,
  questionType: 'multiple_choice',
  options,
  correctAnswer,
});
const tf = (statement: string, correctAnswer = 'True'): CheckedItem => ({
  questionText: `True or False: ${statement}`,
  questionType: 'true_false',
  options: ['True', 'False'],
  correctAnswer,
});
const sa = (questionText: string, correctAnswer: string): CheckedItem => ({
  questionText,
  questionType: 'short_answer',
  options: [],
  correctAnswer,
});
const rules = (q: CheckedItem) => checkItem(q).map((x) => x.rule);

const GOOD_MC = mc(
  'Complete the sentence: Plants take in carbon dioxide through small openings called _____.',
  ['stomata', 'xylem', 'chlorophyll', 'glucose'],
  'stomata',
);

describe('item quality rules', () => {
  it('when an item is well made, then it breaks no rule', () => {
    expect(rules(GOOD_MC)).toEqual([]);
    expect(rules(tf('Water travels from the roots to the leaves through tubes called xylem.'))).toEqual([]);
    expect(rules(sa('Fill in the blank: Chlorophyll is the green _____ of leaves.', 'pigment'))).toEqual([]);
  });

  it('when two options are the same (case and spaces aside), then distinct_options fails', () => {
    expect(rules(mc(GOOD_MC.questionText, ['stomata', 'Stomata ', 'xylem', 'glucose'], 'stomata'))).toContain(
      'distinct_options',
    );
    expect(rules({ ...tf('Plants need light to grow food.'), options: ['True', 'True'] })).toContain(
      'distinct_options',
    );
  });

  it('when the key is not among the options, then key_among_options fails', () => {
    expect(rules(mc(GOOD_MC.questionText, ['xylem', 'chlorophyll', 'glucose', 'roots'], 'stomata'))).toContain(
      'key_among_options',
    );
    expect(rules(tf('Plants need light to grow food.', 'Maybe'))).toContain('key_among_options');
  });

  it('when a distractor is another kind of word than the key, then same_kind_options fails', () => {
    // The issue's own example: a noun among an adjective and others.
    expect(
      rules(mc('Complete the sentence: Plants need _____ to live.', ['water', 'small', 'place', 'green'], 'water')),
    ).toContain('same_kind_options');
    expect(
      rules(mc('Complete the sentence: The war ended in _____.', ['1945', 'Paris', '1918', '1939'], '1945')),
    ).toContain('same_kind_options');
    // A plural among singulars does not fit the blank either.
    expect(
      rules(
        mc(
          'Complete the sentence: The _____ controls the cell.',
          ['nucleus', 'membranes', 'vacuole', 'wall'],
          'nucleus',
        ),
      ),
    ).toContain('same_kind_options');
  });

  it('when the answer stands elsewhere in the stem (in any number), then answer_not_in_stem fails', () => {
    expect(
      rules(
        sa('Fill in the blank: Chloroplasts hold chlorophyll, so photosynthesis happens in the _____.', 'chloroplast'),
      ),
    ).toContain('answer_not_in_stem');
    expect(
      rules(
        mc(
          'Complete the sentence: _____ is the pigment; chlorophyll is green.',
          ['chlorophyll', 'xylem', 'stomata', 'glucose'],
          'chlorophyll',
        ),
      ),
    ).toContain('answer_not_in_stem');
  });

  it('when the stem opens with a pronoun that points back at a missing sentence, then no_dangling_pronoun fails', () => {
    expect(rules(sa('Fill in the blank: It happens in the _____.', 'chloroplasts'))).toContain('no_dangling_pronoun');
    expect(rules(tf('They release oxygen into the air.'))).toContain('no_dangling_pronoun');
    expect(rules(tf('This process needs sunlight to work.'))).toContain('no_dangling_pronoun');
  });

  it('when a true/false item is no statement (a fragment, a question, a blank), then true_false_statement fails', () => {
    // The issue's example: a topic is no statement.
    expect(rules(tf('Adding and subtracting fractions with unlike denominators.'))).toContain('true_false_statement');
    expect(rules(tf('Do plants need light?'))).toContain('true_false_statement');
    expect(rules(tf('Plants take in _____ through stomata.'))).toContain('true_false_statement');
    expect(rules(tf('CCSS.MATH.CONTENT.6.NS.A.1'))).toContain('true_false_statement');
  });

  it('when a set asks the same thing twice, then the later item fails no_duplicates', () => {
    const cloze = 'Plants take in carbon dioxide through small openings called _____.';
    const set = [
      GOOD_MC,
      sa(`Fill in the blank: ${cloze}`, 'stomata'),
      tf('Water travels from the roots to the leaves through tubes called xylem.'),
      tf('Water does not travel from the roots to the leaves through tubes called xylem.', 'False'),
      tf('Glucose is the sugar that plants make.'),
    ];
    const checked = checkItems(set).map((c) => c.issues.map((x) => x.rule));
    expect(checked).toEqual([[], ['no_duplicates'], [], ['no_duplicates'], []]);
  });

  it('when options are classified, then nouns, plurals, names, years, percentages and clauses are told apart', () => {
    expect(
      ['stomata', 'carbon dioxide', 'parts', 'cells', 'Abraham Lincoln', '1945', '70%', '3.5', 'green'].map(optionKind),
    ).toEqual(['noun-sg', 'noun-sg', 'noun-pl', 'noun-pl', 'name', 'year', 'percent', 'number', 'adjective']);
    expect(optionKind('the plant can turn water into glucose')).toBe('clause');
  });

  it('when a report is made, then it counts items passing overall and per rule', () => {
    const r = qualityReport([[GOOD_MC, tf('They release oxygen.')]]);
    expect(r.items).toBe(2);
    expect(r.passing).toBe(1);
    expect(r.perRule.no_dangling_pronoun).toBe(1);
    expect(r.perRule.distinct_options).toBe(2);
    expect(r.failures.map((f) => f.rule)).toEqual(['true_false_statement', 'no_dangling_pronoun']);
  });
});
