// The offline generator: valid sets of the requested type and count built from the lesson,
// distractors of the answer's kind from the lesson, stems that stand alone, true/false items that
// are statements (a swapped word cased for its place), items beyond recall, deterministic; too
// little text is refused with a reason, never padded with filler.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GenerationError } from './errors.ts';
import { checkItems, itemSkill, namesSameThing, optionKind } from './item-quality.ts';
import { analyseLesson, flipComparison, negate } from './lesson.ts';
import { generateOfflineQuestions } from './offline-generator.ts';
import { isValidSet, normalizeText, type RequestedType } from './question.ts';

const LESSON = [
  'Photosynthesis is the process plants use to make their own food from sunlight.',
  'It takes place mostly in the leaves, inside small structures called chloroplasts.',
  'Chlorophyll is the green pigment that absorbs light energy inside the chloroplasts.',
  'Plants take in carbon dioxide from the air through tiny openings called stomata.',
  'Water travels from the roots up to the leaves through tubes called xylem.',
  'Because the leaves capture light energy, the plant can turn carbon dioxide and water into glucose.',
  'Oxygen is released into the air as a by-product of photosynthesis.',
  'In 1779, Jan Ingenhousz showed that plants need light to make oxygen.',
  'About 70% of the oxygen in the atmosphere comes from ocean plants and algae.',
  'Phloem carries the sugars made in the leaves to the rest of the plant.',
  'Glucose is the sugar that gives the plant energy to grow.',
  'Animals breathe in the oxygen, and many animals eat plants for the energy stored in glucose.',
].join(' ');
const TYPES: RequestedType[] = ['multiple_choice', 'true_false', 'short_answer', 'mixed'];
const lessonText = normalizeText(LESSON);
const body = (q: { questionText: string }) =>
  q.questionText.replace(/^(True or False|Fill in the blank|Complete the sentence):\s*/, '');

function refusal(fn: () => unknown): GenerationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GenerationError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('offline generator', () => {
  for (const questionType of TYPES)
    // A lesson of 12 sentences asks each sentence once: up to 8 of any type here.
    for (const count of [1, 5, 8])
      it(`when a lesson asks for ${count} ${questionType}, then the set is valid and every item passes the quality rules`, () => {
        const qs = generateOfflineQuestions({ content: LESSON, questionType, count });
        expect(qs).toHaveLength(count);
        expect(isValidSet(qs, { questionType, count })).toBe(true);
        expect(checkItems(qs).flatMap((c) => c.issues)).toEqual([]);
      });

  it('when a lesson says "all" or "each", then no blank falls on such a word and no option names the key or a kind of it', () => {
    const content = [
      'Honeybees and Pollination',
      'Honeybees live in colonies of up to 60,000 bees. Each colony has one queen, who lays all the eggs.',
      'Worker bees are females that collect nectar and pollen from flowers.',
      'Drones are male bees whose only job is to mate with a queen.',
      'When a worker bee visits a flower, pollen sticks to the hairs on her body.',
      'As she flies to the next flower of the same kind, some of that pollen rubs off onto it.',
      'This transfer of pollen is called pollination, and it allows the plant to make seeds and fruit.',
      'About one third of the food we eat depends on pollination by animals such as bees.',
      'Worker bees tell each other where to find food by performing a waggle dance inside the hive.',
    ].join('\n');
    const blanks = generateOfflineQuestions({ content, questionType: 'short_answer', count: 5 });
    expect(
      blanks.filter((q) => /^(?:all|each|every|some|many|most|both|few|none|any)$/i.test(q.correctAnswer)),
    ).toEqual([]);
    expect(blanks.map((q) => q.correctAnswer)).toContain('colony');
    // Bees, honeybees and worker bees: one is a kind of another, so none is a distractor of another.
    const mixed = generateOfflineQuestions({ content, questionType: 'mixed', count: 3 });
    const choices = mixed.filter((q) => q.questionType === 'multiple_choice');
    expect(choices.length).toBeGreaterThan(0);
    for (const q of choices)
      expect(q.options.filter((o) => o !== q.correctAnswer && namesSameThing(o, q.correctAnswer))).toEqual([]);
  });

  it('when a lesson is read, then a verb with an object ends a noun phrase, and "such as" after "X of Y" or before another kind of thing gives no example', () => {
    const examplesOf = (text: string) => Object.fromEntries(analyseLesson(text).examples);
    // The backs are a part of the hands, not an example of hands; 3 o'clock is a time, not an hour.
    expect(
      examplesOf('Scrub every part of your hands, including the backs of your hands, for twenty seconds.'),
    ).toEqual({});
    expect(
      examplesOf("When the minute hand points to the 12, the time is exactly on the hour, such as 3 o'clock."),
    ).toEqual({});
    expect(
      examplesOf('Cost-push inflation happens when the costs of production, such as wages or oil, rise sharply.'),
    ).toEqual({});
    // "needs" and "helps" with an object after them are verbs, not the end of a noun phrase.
    const terms = [
      ...analyseLesson(
        'Every community needs workers who provide services. A librarian helps people find books. Sound waves travel through air.',
      ).terms.keys(),
    ];
    expect(terms).toEqual(expect.arrayContaining(['community', 'worker', 'librarian', 'sound wave']));
    expect(terms.filter((t) => /need|help/.test(t))).toEqual([]);
    // A name opening a sentence stays a name where the lesson capitalizes it inside another.
    const periodic = analyseLesson(
      'Dmitri Mendeleev published the first periodic table in 1869. Mendeleev left gaps in his table for elements.',
    );
    expect(periodic.terms.get('mendeleev')).toMatchObject({ text: 'Mendeleev', kind: 'name' });
    expect(examplesOf('Engineers reduce friction with lubricants such as oil and grease.')).toEqual({
      lubricant: ['oil', 'grease'],
    });
  });

  it('when a name holds an abbreviation ("Mount St. Helens"), then no blank falls inside it', () => {
    const content = [
      'A volcano is an opening in the crust where melted rock escapes to the surface.',
      'In 1980, Mount St. Helens erupted and blew away part of its north side.',
      'In May 1804, the explorers set out from near St. Louis with two boats.',
      'Volcanic ash can travel hundreds of miles and ground airplanes.',
      'Scientists called volcanologists study volcanoes to predict eruptions.',
      'Over time, volcanic soil becomes very fertile, so many farmers live near volcanoes.',
    ].join(' ');
    const qs = generateOfflineQuestions({ content, questionType: 'short_answer', count: 3 });
    expect(qs.map((q) => q.correctAnswer)).not.toEqual(expect.arrayContaining(['Helens']));
    expect(qs.map((q) => q.correctAnswer)).not.toEqual(expect.arrayContaining(['Louis']));
    expect(qs.filter((q) => /St\. _____/.test(q.questionText))).toEqual([]);
  });

  it('when a sentence counts its time from one before ("A few days later, …"), then no item is made of it', () => {
    const content = [
      'During a new moon, the Moon is between Earth and the Sun, so the side facing us is dark.',
      'A few days later, a thin crescent appears in the evening sky.',
      'When we can see half of the Moon’s face, it is called a quarter moon.',
      'A gibbous moon is more than half lit but not full.',
      'Two weeks after that, the whole lit side faces Earth during a full moon.',
      'The Moon’s gravity pulls on Earth’s oceans and causes tides.',
    ].join(' ');
    for (const questionType of ['true_false', 'short_answer'] as const) {
      const qs = generateOfflineQuestions({ content, questionType, count: 3 });
      expect(qs.filter((q) => /crescent|whole lit side/.test(q.questionText))).toEqual([]);
    }
  });

  it('when the same request is made twice, then the same questions come back (deterministic)', () => {
    const req = { content: LESSON, questionType: 'mixed' as const, count: 9 };
    expect(generateOfflineQuestions(req)).toEqual(generateOfflineQuestions(req));
  });

  it('when the type is mixed, then multiple choice, true/false and short answer all appear in turn', () => {
    const qs = generateOfflineQuestions({ content: LESSON, questionType: 'mixed', count: 6 });
    expect(qs.map((q) => q.questionType)).toEqual([
      'multiple_choice',
      'true_false',
      'short_answer',
      'multiple_choice',
      'true_false',
      'short_answer',
    ]);
  });

  it('when building multiple choice, then every option is from the lesson and of the answer’s kind, and the key is not in the stem', () => {
    const qs = generateOfflineQuestions({ content: LESSON, questionType: 'multiple_choice', count: 8 });
    for (const q of qs) {
      const kinds = new Set(q.options.map(optionKind));
      expect(kinds.size, q.options.join(' / ')).toBe(1);
      expect(q.options).toContain(q.correctAnswer);
      expect(normalizeText(body(q).replace('_____', ' '))).not.toContain(normalizeText(q.correctAnswer));
      for (const o of q.options.filter((x) => !/^\d/.test(x)))
        // A noun may stand in the other number ("leaf" for "leaves"): its stem is in the lesson.
        expect(lessonText, o).toContain(
          normalizeText(o)
            .replace(/(?:es|s)$/, '')
            .slice(0, -1),
        );
    }
    const numeric = qs.filter((q) => /^\d/.test(q.correctAnswer));
    for (const q of numeric) for (const o of q.options) expect(o).toMatch(/^\d/);
  });

  it('when some items go beyond recall, then a term is asked from its definition and an effect from its cause', () => {
    const qs = generateOfflineQuestions({ content: LESSON, questionType: 'multiple_choice', count: 8 });
    const definition = qs.find((q) => q.questionText.startsWith('Which term matches this description:'));
    expect(definition?.correctAnswer).toMatch(/^(photosynthesis|chlorophyll|glucose)$/);
    const cause = qs.find((q) => q.questionText.includes('because the leaves capture light energy'));
    expect(cause?.correctAnswer).toBe('the plant can turn carbon dioxide and water into glucose');
    // Beyond recall first: at least a third of the set.
    const lesson = analyseLesson(LESSON);
    expect(qs.filter((q) => itemSkill(q, lesson) !== 'recall').length).toBeGreaterThanOrEqual(qs.length / 3);
  });

  it('when a set is made, then no sentence is asked twice, no answer repeats and no stem gives away another answer', () => {
    const lesson = analyseLesson(LESSON);
    for (const questionType of TYPES) {
      const qs = generateOfflineQuestions({ content: LESSON, questionType, count: 8 });
      expect(checkItems(qs, lesson).flatMap((c) => c.issues)).toEqual([]);
      const keys = qs.filter((q) => q.questionType !== 'true_false').map((q) => normalizeText(q.correctAnswer));
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it('when building stems, then none opens with a pronoun that needs the sentence before', () => {
    for (const questionType of TYPES) {
      const qs = generateOfflineQuestions({ content: LESSON, questionType, count: 8 });
      for (const q of qs) expect(body(q)).not.toMatch(/^(It|They|This|These|Its|Their)\b/);
    }
  });

  it('when building true/false, then both answers appear, True items are lesson sentences and False ones differ, cased for their place', () => {
    const qs = generateOfflineQuestions({ content: LESSON, questionType: 'true_false', count: 8 });
    const answers = qs.map((q) => q.correctAnswer);
    expect(answers.filter((a) => a === 'True').length).toBeGreaterThanOrEqual(3);
    expect(answers.filter((a) => a === 'False').length).toBeGreaterThanOrEqual(3);
    for (const q of qs) {
      const statement = normalizeText(body(q)).replace(/\.$/, '');
      // A True statement is a lesson sentence, or a definition of the lesson said the other way round.
      const termFor = /^the term for (.+) is (.+)$/.exec(statement);
      if (q.correctAnswer === 'True' && termFor) expect(lessonText).toContain(`${termFor[2]} is ${termFor[1]}`);
      else if (q.correctAnswer === 'True') expect(lessonText).toContain(statement);
      else expect(lessonText).not.toContain(statement);
      // A statement starts with a capital; a common noun swapped in mid-sentence does not.
      expect(body(q)).toMatch(/^[A-Z0-9]/);
      expect(body(q).slice(1)).not.toMatch(/\s(?:Chlorophyll|Glucose|Photosynthesis|Water|Xylem|Stomata|Phloem)\b/);
    }
  });

  it('when told to avoid some questions, then none of them is repeated', () => {
    const first = generateOfflineQuestions({ content: LESSON, questionType: 'short_answer', count: 3 });
    const second = generateOfflineQuestions(
      { content: LESSON, questionType: 'short_answer', count: 3 },
      { exclude: first.map((q) => q.questionText) },
    );
    for (const q of second) expect(first.map((f) => f.questionText)).not.toContain(q.questionText);
  });

  it('when the count is out of range, then it is clamped to 1–20', () => {
    expect(generateOfflineQuestions({ content: LESSON, questionType: 'mixed', count: 0 })).toHaveLength(1);
    const long = `${LESSON}\n${readFileSync(new URL('../../quality/corpus/g04-science-water-cycle.txt', import.meta.url), 'utf8')}`;
    expect(generateOfflineQuestions({ content: long, questionType: 'mixed', count: 99 })).toHaveLength(20);
  });

  it('when the text is only a topic or a standard code, then it is refused with a reason asking for the lesson text', () => {
    for (const content of [
      'Adding and subtracting fractions with unlike denominators.',
      'CCSS.MATH.CONTENT.6.NS.A.1',
      'Photosynthesis',
      '!!! ??? ...',
      '',
    ]) {
      const err = refusal(() => generateOfflineQuestions({ content, questionType: 'mixed', count: 5 }));
      expect(err.reason).toBe('too_little_text');
      expect(err.retryable).toBe(false);
      expect(err.userMessage).toMatch(/not enough lesson text.*Paste the lesson itself/);
    }
  });

  it('when a short lesson cannot give as many good questions as asked, then it says how many it gave, never pads', () => {
    const short = 'Fractions name parts of a whole. The denominator tells how many equal parts the whole has.';
    expect(generateOfflineQuestions({ content: short, questionType: 'true_false', count: 1 })).toHaveLength(1);
    const err = refusal(() => generateOfflineQuestions({ content: short, questionType: 'true_false', count: 10 }));
    expect(err.reason).toBe('too_little_text');
    expect(err.userMessage).toMatch(
      /^The lesson text gave [0-9] good questions? of the 10 asked for\. Paste more of the lesson/,
    );
  });

  it('when a condition opens a sentence, then the item asks what happens then, naming the subject its "it" or "they" stood for', () => {
    const water = [
      'The water cycle moves water between the oceans, the air and the land.',
      'The sun heats water in oceans and lakes, and it evaporates into water vapour.',
      'As the vapour rises it cools and condenses into tiny droplets that form clouds.',
      'When the droplets grow heavy they fall as precipitation: rain, snow, sleet or hail.',
      'Water that reaches the ground flows into rivers as runoff or soaks into the soil as groundwater.',
      'Plants release water vapour from their leaves through transpiration.',
    ].join(' ');
    const qs = generateOfflineQuestions({ content: water, questionType: 'multiple_choice', count: 4 });
    const rises = qs.find((q) => q.questionText === 'According to the lesson, what happens as the vapour rises?');
    expect(rises?.correctAnswer).toBe('the vapour cools and condenses into tiny droplets that form clouds');
    const heavy = qs.find(
      (q) => q.questionText === 'According to the lesson, what happens when the droplets grow heavy?',
    );
    expect(heavy?.correctAnswer).toBe('the droplets fall as precipitation: rain, snow, sleet or hail');
    // "As a member of Congress, …" names no condition.
    expect(analyseLesson('As a member of Congress, she voted against the bill.').sentences[0]!.cause).toBeUndefined();
    expect(analyseLesson('When the war ended, prices fell sharply.').sentences[0]!.cause?.link).toBe('when');
  });

  it('when two conditions of one thing have different outcomes, then a false statement gives one condition the other outcome', () => {
    const market = [
      'A market is any place where buyers and sellers exchange goods and services.',
      'The equilibrium price is the price at which the quantity demanded equals the quantity supplied.',
      'When the price is above equilibrium, sellers are left with a surplus.',
      'When the price is below equilibrium, buyers face a shortage.',
      'Governments sometimes set a price ceiling, which is a legal maximum price for a good.',
    ].join(' ');
    const qs = generateOfflineQuestions({ content: market, questionType: 'true_false', count: 4 });
    const swapped = qs.filter((q) =>
      /^True or False: When the price is (above|below) equilibrium/.test(q.questionText),
    );
    expect(swapped.map((q) => [q.questionText, q.correctAnswer])).toContainEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /above equilibrium, buyers face a shortage\.$|below equilibrium, sellers are left with a surplus\.$/,
        ),
        'False',
      ]),
    );
  });

  it('when a sentence defines, then the definition names one term alone, whole, and up to its second verb', () => {
    const def = (text: string) => analyseLesson(text).sentences[0]!.definition;
    // Two terms in one sentence: the first clause defines the first alone.
    expect(
      def('The two upper chambers are called atria, and the two lower chambers are called ventricles.'),
    ).toMatchObject({
      surface: 'atria',
      description: 'the two upper chambers',
    });
    expect(def('Inside the membrane is a jelly-like fluid called cytoplasm.')).toMatchObject({
      key: 'cytoplasm',
      description: 'a jelly-like fluid',
    });
    expect(
      def('The Nile is the longest river in Africa and flows north into the Mediterranean Sea.')?.description,
    ).toBe('the longest river in Africa');
    // A list is no second verb, and is kept whole.
    expect(def('Inflation is a general rise in the prices of goods and services over time.')?.description).toBe(
      'a general rise in the prices of goods and services over time',
    );
    expect(def('A community is a place where people live, work and help each other.')?.description).toBe(
      'a place where people live, work and help each other',
    );
    // A person, an example in quotes, "some examples": no definition to ask.
    expect(def('Ana is a fast worker who finishes her chores early.')).toBeUndefined();
    expect(def('The sentence "Her smile was as bright as the sun" is a simile.')).toBeUndefined();
    expect(def('Some examples are the snare drum, bass drum, cymbals, xylophone and triangle.')).toBeUndefined();
  });

  it('when a false statement is made, then the main verb is negated or a part is swapped for a part, never the lesson’s whole', () => {
    expect(negate('A compass has a small magnetic needle inside it.')).toBe(
      'A compass does not have a small magnetic needle inside it.',
    );
    expect(negate('Mitochondria can release energy from food.')).toBe('Mitochondria cannot release energy from food.');
    // compromise reads "keep" as a noun and would negate "flowing".
    expect(negate('Valves between the chambers keep blood flowing in one direction.')).toBeUndefined();
    // The tagger finds no verb to negate and puts "Does not" before the subject: no statement.
    expect(negate('Adding heat can change matter from one state to another.')).toBeUndefined();
    expect(negate('Sort algorithms put items in order.')).toBeUndefined();
    const heart = [
      'The heart is a muscle that pumps blood through the body.',
      'The two upper chambers are called atria, and the two lower chambers are called ventricles.',
      'Blood from the body enters the right atrium.',
      'The right ventricle pumps blood to the lungs, where it picks up oxygen.',
      'Valves between the chambers keep blood flowing in one direction.',
      'Arteries carry blood away from the heart.',
      'Veins carry blood back to the heart.',
      'Capillaries are tiny blood vessels that connect arteries and veins.',
      'Exercise makes the heart stronger.',
      'A healthy adult heart beats about 70 times a minute.',
    ];
    const statements = generateOfflineQuestions({ content: heart.join(' '), questionType: 'true_false', count: 8 })
      .filter((q) => q.correctAnswer === 'False')
      .map(body);
    expect(statements.length).toBeGreaterThan(0);
    // "Veins carry blood back to the atria" is true: the heart is never traded for one of its parts.
    const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const sentence of heart.filter((x) => /\bheart\b/.test(x))) {
      const traded = new RegExp(`^${escape(sentence).replace(/\bheart\b/, '(?!heart\\b)[\\w-]+')}$`, 'i');
      for (const statement of statements) expect(statement).not.toMatch(traded);
    }
    expect(statements.join(' ')).not.toMatch(/does not flow|atria beats/);
  });

  it('when a sentence compares, then a false statement turns its comparative into the opposite; a number after "than" is no comparison', () => {
    expect(flipComparison('The Amazon carries more water than any other river on Earth.')).toBe(
      'The Amazon carries less water than any other river on Earth.',
    );
    expect(
      flipComparison(
        'A larger force produces a larger acceleration, while a larger mass produces a smaller acceleration.',
      ),
    ).toBe('A larger force produces a larger acceleration, while a larger mass produces a larger acceleration.');
    expect(flipComparison('In 1963, more than 250,000 people joined the March on Washington.')).toBeUndefined();
    expect(flipComparison('A larger force produces a larger acceleration.')).toBeUndefined();
    const lesson = analyseLesson(
      'The Amazon carries more water than any other river on Earth. The Nile is the longest river in Africa.',
    );
    const tf = (questionText: string) => ({
      questionText,
      questionType: 'true_false' as const,
      options: ['True', 'False'],
      correctAnswer: 'False',
    });
    expect(itemSkill(tf('True or False: The Amazon carries less water than any other river on Earth.'), lesson)).toBe(
      'comparison',
    );
    // Another word changed, or the comparative kept: no comparison asked.
    expect(itemSkill(tf('True or False: The Amazon carries more water than any other lake on Earth.'), lesson)).toBe(
      'recall',
    );
  });
});
