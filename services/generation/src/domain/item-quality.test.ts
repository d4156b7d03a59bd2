// Each quality rule on its own: an item that breaks it is caught, a good item passes.
import { describe, expect, it } from 'vitest';
import {
  checkItem,
  checkItems,
  itemSkill,
  optionKind,
  qualityReport,
  swapProblem,
  type CheckedItem,
} from './item-quality.ts';
import { analyseLesson } from './lesson.ts';

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
    // A time counted from a sentence not shown: later than what?
    expect(rules(tf('A few days later, a thin crescent appears.'))).toContain('no_dangling_pronoun');
    expect(rules(sa('Fill in the blank: Two weeks later, the _____ hatch.', 'eggs'))).toContain('no_dangling_pronoun');
    expect(rules(tf('Soon after, the colonists built a fort.'))).toContain('no_dangling_pronoun');
    expect(rules(tf('The eggs hatch in two weeks.'))).not.toContain('no_dangling_pronoun');
    expect(rules(tf('A day on Mars lasts a little longer than a day on Earth.'))).not.toContain('no_dangling_pronoun');
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

describe('quality rules that read the lesson', () => {
  const lesson = analyseLesson(
    [
      'Organelles such as the nucleus, mitochondria and chloroplasts do the work of a cell.',
      'The nucleus is the control center of the cell.',
      'Mitochondria release energy from food.',
      'Chloroplasts capture energy from sunlight to make food.',
      'Families moved from farms to work in textile mills.',
      'In 1769, James Watt improved the steam engine.',
      'In 1825, the first public steam railway opened in England.',
      'Factories were built near cities, so millions of people moved to towns.',
    ].join(' '),
  );
  const rulesIn = (q: CheckedItem) => checkItems([q], lesson)[0]!.issues.map((x) => x.rule);

  it('when a false statement swaps a term for one of its kind, then it is sound; another kind, part of speech or a word that is no term is not', () => {
    expect(swapProblem('The mitochondria is the control center of the cell.', lesson)).toBeUndefined();
    expect(swapProblem('In 1779, James Watt improved the steam engine.', lesson)).toBeUndefined();
    // "work" (a verb here) for "hour", a word the lesson never uses as a term.
    expect(swapProblem('Families moved from farms to hour in textile mills.', lesson)).toBeDefined();
    expect(swapProblem('Families moved from farms to energy in textile mills.', lesson)).toBeDefined();
    expect(swapProblem('The nucleus is the control center of the cell.', lesson)).toMatch(/as written/);
    expect(rulesIn(tf('Mitochondria release energy from sunlight.', 'False'))).toContain('false_statement_swap');
  });

  it('when a distractor is not a term of the key’s kind in the lesson, then distractor_of_key_kind fails', () => {
    const good = mc(
      'Which of these release energy from food?',
      ['Mitochondria', 'Nucleus', 'Chloroplasts', 'Organelles'],
      'Mitochondria',
    );
    expect(rulesIn({ ...good, options: ['Mitochondria', 'Nucleus', 'Chloroplasts', 'Textbooks'] })).toContain(
      'distractor_of_key_kind',
    );
  });

  it('when a distractor names the key or a kind of it, then one_defensible_answer fails; a prefixed word is another thing', () => {
    const stem = 'Complete the sentence: Crops depend on pollination by animals such as _____.';
    // "honeybees" are bees, and "worker bees" too: a student could defend either.
    expect(rules(mc(stem, ['bees', 'honeybees', 'seeds', 'drones'], 'bees'))).toContain('one_defensible_answer');
    expect(rules(mc(stem, ['honeybees', 'worker bees', 'seeds', 'drones'], 'honeybees'))).toContain(
      'one_defensible_answer',
    );
    expect(rules(mc(stem, ['plantations', 'plantation', 'settlers', 'historians'], 'plantations'))).toContain(
      'one_defensible_answer',
    );
    // Metals, nonmetals and metalloids; inflation, deflation and hyperinflation: distinct concepts.
    expect(rules(mc(stem, ['metals', 'nonmetals', 'metalloids', 'groups'], 'metals'))).not.toContain(
      'one_defensible_answer',
    );
    expect(rules(mc(stem, ['inflation', 'deflation', 'hyperinflation', 'recession'], 'inflation'))).not.toContain(
      'one_defensible_answer',
    );
    expect(rules(GOOD_MC)).toEqual([]);
  });

  it('when one item’s stem gives away another’s answer, or asks its sentence again, then the set flags it', () => {
    const cloze = sa('Fill in the blank: The _____ is the control center of the cell.', 'nucleus');
    const cue = tf('The nucleus is the control center of the cell.');
    expect(checkItems([cloze, cue])[1]!.issues.map((x) => x.rule)).toEqual(
      expect.arrayContaining(['no_cue_between_items']),
    );
    const again = mc(
      'Complete the sentence: Mitochondria release _____ from food.',
      ['energy', 'sunlight', 'cells', 'food'],
      'energy',
    );
    const twice = tf('Mitochondria do not release energy from food.', 'False');
    const flagged = checkItems([again, twice])[1]!.issues.map((x) => x.rule);
    expect(flagged.some((r) => r === 'no_repeat_across_types' || r === 'no_cue_between_items')).toBe(true);
    const elsewhere = tf('Chloroplasts capture energy from sunlight to make food.');
    expect(checkItems([again, elsewhere])[1]!.issues).toEqual([]);
  });

  it('when items are classified, then definitions, causes, sequences and examples are beyond recall and a cloze is recall', () => {
    expect(itemSkill(mc('Which term matches this description: the control center of the cell?', [], 'nucleus'))).toBe(
      'definition',
    );
    expect(
      itemSkill(mc('According to the lesson, what happens because factories were built near cities?', [], 'x')),
    ).toBe('cause');
    expect(
      itemSkill(
        tf('James Watt improved the steam engine before the first public steam railway opened in England.'),
        lesson,
      ),
    ).toBe('sequence');
    expect(itemSkill(tf('The lesson gives mitochondria as an example of organelles.'), lesson)).toBe('example');
    expect(itemSkill(sa('Fill in the blank: Mitochondria release _____ from food.', 'energy'), lesson)).toBe('recall');
    expect(
      itemSkill(tf('Because millions of people moved to towns, factories were built near cities.', 'False'), lesson),
    ).toBe('cause');
  });

  it('when a condition is given the outcome of another condition of the lesson, then the statement asks a cause; any other change is recall', () => {
    const market = analyseLesson(
      [
        'When the price is above equilibrium, sellers are left with a surplus.',
        'When the price is below equilibrium, buyers face a shortage.',
        'As the price falls, buyers purchase more of the good.',
      ].join(' '),
    );
    expect(itemSkill(tf('When the price is above equilibrium, buyers face a shortage.', 'False'), market)).toBe(
      'cause',
    );
    // Not an outcome the lesson gives to any condition: a plain false statement.
    expect(itemSkill(tf('When the price is above equilibrium, sellers face a shortage.', 'False'), market)).toBe(
      'recall',
    );
    expect(
      itemSkill(mc('According to the lesson, what happens as the price falls?', [], 'buyers purchase more'), market),
    ).toBe('cause');
    expect(itemSkill(mc('According to the lesson, what happened when the war ended?', [], 'x'))).toBe('cause');
  });
});
