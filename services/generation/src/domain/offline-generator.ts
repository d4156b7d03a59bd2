// The offline provider's question maker: deterministic (same text and request, same questions),
// built only from the teacher's own lesson as read by lesson.ts. Items beyond recall come first
// where the lesson allows: a term from its description, an effect from its cause (or the cause of
// an effect), the order of dated events or of a process's steps, an example of a concept, two
// things of one kind compared (their places exchanged in a statement). Then recall: which thing
// does what, which term completes a sentence, a statement as written or made false by a swap of
// the same kind (an organelle for an organelle, a year for a year). Distractors and swaps come
// only from the lesson's own terms of the key's category (lesson.ts). A set asks each sentence
// once and no item gives away another's answer. Every item passes the quality rules
// (item-quality.ts) or is dropped. Too little text is refused with a reason, never padded.
//
// Standards the teacher chose (grounded generation, docs/adr/012-standards.md): the lesson's terms
// that a chosen standard's statement names are asked about first, so the set is about what the
// standard says as the lesson teaches it; items still come only from the lesson's sentences (a
// statement such as "Understand the concept of a ratio…" is a goal, not a fact to quiz). Each item
// is aligned to the chosen standards whose statement it shares terms with, or (none shared) to
// every chosen one: the teacher chose them for this lesson. It never names any other.
import nlp from 'compromise';
import { GenerationError } from './errors.ts';
import { checkNext, namesSameThing, optionKind, type Skill } from './item-quality.ts';
import {
  analyseLesson,
  endWithStop,
  findTerm,
  flipComparison,
  inflect,
  lowerFirst,
  memo,
  mentions,
  negate,
  sameCategory,
  seededRandom,
  shuffled,
  siblings,
  termKey,
  upperFirst,
  type Lesson,
  type Occurrence,
  type Sentence,
  type Term,
} from './lesson.ts';
import {
  clampCount,
  normalizeText,
  type GeneratedQuestion,
  type GenerationRequest,
  type QuestionType,
  type RequestStandard,
} from './question.ts';

export const BLANK = '_____';
/** Below this a text is a topic or a code, not a lesson. */
export const MIN_LESSON_WORDS = 12;
const MIXED_CYCLE: QuestionType[] = ['multiple_choice', 'true_false', 'short_answer'];

export interface OfflineOptions {
  /** Varies the choice of items for a second set from the same text (practice material). */
  salt?: string;
  /** Question texts that must not be repeated (e.g. the assessment's own questions). */
  exclude?: readonly string[];
  /** Explicit type per slot (overrides the request's type). */
  plan?: readonly QuestionType[];
  /** Which kinds of item to prefer: 'easy' (recognition) or 'hard' (recall, definitions, causes). */
  level?: 'easy' | 'standard' | 'hard';
  /** Terms to ask about first (practice for the ideas a student missed). */
  focus?: readonly string[];
  /**
   * Terms a chosen standard's statement names: after `focus`, items naming more of them come
   * first (an item on "unit rate" before one on "ratio" alone for a unit-rate standard).
   */
  grounding?: readonly string[];
}

export function planTypes(type: GenerationRequest['questionType'], count: number): QuestionType[] {
  return Array.from({ length: count }, (_, i) => (type === 'mixed' ? MIXED_CYCLE[i % MIXED_CYCLE.length]! : type));
}

export const tooLittleText = (made?: number, asked?: number) =>
  new GenerationError(
    'too_little_text',
    made === undefined || asked === undefined
      ? undefined
      : `The lesson text gave ${made} good question${made === 1 ? '' : 's'} of the ${asked} asked for. Paste more of the lesson, ask for fewer questions, or ask your administrator to configure a model.`,
  );

/** True when the text is long enough to be read as a lesson (not a topic or a standard code). */
export function isLessonText(lesson: Lesson): boolean {
  return lesson.words >= MIN_LESSON_WORDS && lesson.sentences.some((s) => s.standalone && s.terms.length > 0);
}

/**
 * Exactly `count` questions of the planned types, or a too_little_text GenerationError when the
 * lesson cannot give that many good ones.
 */
export function generateOfflineQuestions(
  request: GenerationRequest,
  options: OfflineOptions = {},
): GeneratedQuestion[] {
  const count = clampCount(request.count);
  const lesson = analyseLesson(request.content);
  if (!isLessonText(lesson)) throw tooLittleText();
  const plan = options.plan ? [...options.plan] : planTypes(request.questionType, count);
  const standards = request.standards ?? [];
  const named = standards.length ? termsNamedBy(lesson, standards) : new Map<string, Term[]>();
  const grounding = [...new Set([...named.values()].flat().map((t) => t.text))];
  const made = buildItems(lesson, plan, { ...options, grounding });
  if (made.length < plan.length) throw tooLittleText(made.length, plan.length);
  return standards.length ? made.map((q) => ({ ...q, standardIdentifiers: alignedTo(q, standards, named) })) : made;
}

/** For each chosen standard, the lesson's terms its statement names (by identifier). */
function termsNamedBy(lesson: Lesson, standards: readonly RequestStandard[]): Map<string, Term[]> {
  return new Map(
    standards.map((s) => [s.identifier, [...lesson.terms.values()].filter((t) => mentions(s.statement, t.text))]),
  );
}

/**
 * The chosen standards an item is about: those whose statement names the most of the item's terms
 * (its question and answer), or every chosen one when it shares none with any.
 */
function alignedTo(
  q: GeneratedQuestion,
  standards: readonly RequestStandard[],
  named: ReadonlyMap<string, Term[]>,
): string[] {
  const text = `${q.questionText} ${q.correctAnswer}`;
  const shared = standards.map((s) => (named.get(s.identifier) ?? []).filter((t) => mentions(text, t.text)).length);
  const best = Math.max(...shared);
  return standards.filter((_, i) => best === 0 || shared[i] === best).map((s) => s.identifier);
}

/** An item with what it asks of the student and the lesson sentences it is made from. */
interface Candidate {
  q: GeneratedQuestion;
  skill: Skill;
  sources: number[];
}

interface Ctx {
  lesson: Lesson;
  random: () => number;
  level: 'easy' | 'standard' | 'hard';
}

const contentWords = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}%]+/gu) ?? []).filter((w) => w.length > 3));

/** True when a stem asks what an excluded one asked (the same sentence in another form too). */
function repeats(stem: string, excluded: readonly Set<string>[]): boolean {
  const mine = contentWords(stem);
  return excluded.some((x) => {
    const shared = [...mine].filter((w) => x.has(w)).length;
    return shared >= 3 && shared >= 0.6 * Math.min(mine.size, x.size);
  });
}

/**
 * As many of the planned items as the lesson gives (at most one per slot): beyond recall first
 * where the lesson has it, then recall; each sentence asked once; no item that gives away another.
 */
export function buildItems(
  lesson: Lesson,
  plan: readonly QuestionType[],
  options: OfflineOptions = {},
): GeneratedQuestion[] {
  const random = seededRandom(
    `${lesson.sentences.map((s) => s.text).join(' ')}|${plan.join(',')}|${options.salt ?? ''}`,
  );
  const ctx: Ctx = { lesson, random, level: options.level ?? 'standard' };
  const order = sentenceOrder(lesson, random);
  // Each type starts a third of the text further on, so mixed sets spread over the lesson.
  const rotate = (k: number) => {
    const shift = Math.floor((order.length * k) / 3);
    return [...order.slice(shift), ...order.slice(0, shift)];
  };
  const makers: Record<QuestionType, (s: Sentence) => Iterable<Candidate>> = {
    multiple_choice: (s) => multipleChoiceFor(ctx, s),
    true_false: (s) => trueFalseFor(ctx, s),
    short_answer: (s) => shortAnswerFor(ctx, s),
  };
  const lessonWide: Record<QuestionType, Candidate[]> = {
    multiple_choice: [...sequenceChoices(ctx), ...exampleChoices(ctx)],
    true_false: [...sequenceStatements(ctx), ...exampleStatements(ctx)],
    short_answer: [...exampleAnswers(ctx)],
  };
  // Two queues per type: beyond recall and recall, each spread over the lesson.
  const queues = Object.fromEntries(
    (['multiple_choice', 'true_false', 'short_answer'] as const).map((type, k) => {
      const all = [...shuffled(lessonWide[type], random), ...roundRobin(rotate(k).map((s) => makers[type](s)))];
      return [
        type,
        { beyond: all.filter((c) => c.skill !== 'recall'), recall: all.filter((c) => c.skill === 'recall') },
      ];
    }),
  ) as Record<QuestionType, { beyond: Candidate[]; recall: Candidate[] }>;
  // Items about the terms in focus go first in each queue.
  const focus = options.focus ?? [];
  if (focus.length)
    for (const q of Object.values(queues)) {
      const about = (c: Candidate) =>
        focus.some((t) => mentions(c.q.questionText, t) || normalizeText(c.q.correctAnswer) === normalizeText(t))
          ? 0
          : 1;
      q.beyond.sort((a, b) => about(a) - about(b));
      q.recall.sort((a, b) => about(a) - about(b));
    }
  // Then the items that name most of what the chosen standards say (a stable sort: ties keep
  // the order above).
  const grounding = options.grounding ?? [];
  if (grounding.length)
    for (const q of Object.values(queues)) {
      const named = (c: Candidate) =>
        grounding.filter((t) => mentions(`${c.q.questionText} ${c.q.correctAnswer}`, t)).length;
      const score = new Map([...q.beyond, ...q.recall].map((c) => [c, named(c)]));
      q.beyond.sort((a, b) => score.get(b)! - score.get(a)!);
      q.recall.sort((a, b) => score.get(b)! - score.get(a)!);
    }
  const excluded = (options.exclude ?? []).map(contentWords);
  const used = new Set<number>();
  // Every answer once ("cell" and "cells" are one): a set asks about many terms.
  const answered = new Set<string>();
  const answerKey = (q: GeneratedQuestion) => (q.questionType === 'true_false' ? undefined : termKey(q.correctAnswer));
  const out: GeneratedQuestion[] = [];
  const truths = { True: 0, False: 0 };
  let beyond = 0;
  const fits = (c: Candidate) =>
    !c.sources.some((i) => used.has(i)) &&
    !answered.has(answerKey(c.q) ?? '') &&
    !(excluded.length && repeats(c.q.questionText, excluded)) &&
    // True and False in turn, as far as the lesson allows.
    !(
      c.q.questionType === 'true_false' &&
      truths[c.q.correctAnswer as 'True' | 'False'] >
        truths[c.q.correctAnswer === 'True' ? 'False' : 'True'] + (c.skill === 'recall' ? 1 : 2)
    ) &&
    checkNext(out, c.q, lesson).length === 0;
  const take = (queue: Candidate[]) => {
    const at = queue.findIndex(fits);
    return at < 0 ? undefined : queue.splice(at, 1)[0];
  };
  for (const type of plan) {
    const q = queues[type];
    // Beyond recall first where the lesson gives it (the easy level: a third).
    const wantBeyond = ctx.level === 'easy' ? beyond * 3 < out.length : true;
    const chosen = wantBeyond ? (take(q.beyond) ?? take(q.recall)) : (take(q.recall) ?? take(q.beyond));
    if (!chosen) continue;
    if (chosen.skill !== 'recall') beyond++;
    if (chosen.q.questionType === 'true_false') truths[chosen.q.correctAnswer as 'True' | 'False']++;
    for (const i of chosen.sources) used.add(i);
    const key = answerKey(chosen.q);
    if (key) answered.add(key);
    out.push(chosen.q);
  }
  return out;
}

/** Standalone sentences with terms, starting at a seeded place so another salt asks others first. */
function sentenceOrder(lesson: Lesson, random: () => number): Sentence[] {
  const usable = lesson.sentences.filter((s) => s.standalone && s.terms.length > 0);
  const start = Math.floor(random() * usable.length);
  return [...usable.slice(start), ...usable.slice(0, start)];
}

/** Round r takes each sentence's r-th item, so a queue spreads over the lesson before reusing a sentence. */
function roundRobin(lists: Iterable<Candidate>[]): Candidate[] {
  let live = lists.map((l) => l[Symbol.iterator]());
  const out: Candidate[] = [];
  while (live.length) {
    const next: typeof live = [];
    for (const it of live) {
      const r = it.next();
      if (r.done) continue;
      next.push(it);
      out.push(r.value);
    }
    live = next;
  }
  return out;
}

const isNumeric = (t: Term) => t.kind === 'year' || t.kind === 'percent' || t.kind === 'number';

/** The answer as it fits the sentence: a common noun in the sentence's own number, lower case. */
function answerText(t: Term, occ: Occurrence): string {
  if (isNumeric(t) || t.kind !== 'noun') return occ.surface;
  return /^[A-Z]{2,}/.test(occ.surface) ? occ.surface : occ.surface.toLowerCase();
}

function numberVariants(n: string): string[] {
  const m = /^(\d+(?:[.,]\d+)*)(%?)$/.exec(n);
  if (!m) return [];
  const value = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(value)) return [];
  const decimals = m[1]!.includes('.') ? m[1]!.split('.')[1]!.length : 0;
  const step = decimals ? 1 / 10 ** decimals : 1;
  const fmt = (v: number) => `${decimals ? v.toFixed(decimals) : Math.round(v)}${m[2]}`;
  const year = /^\d{4}$/.test(n) && value >= 1000 && value <= 2100;
  const candidates = year
    ? [value - 10, value + 10, value - 25, value + 25, value - 50]
    : m[2]
      ? [value / 2, Math.min(100, value + 20), Math.max(1, value - 20), Math.min(100, value * 1.5)]
      : [value * 2, value + 10 * step, value / 2, value * 10, value + step];
  return [...new Set(candidates.filter((v) => v > 0).map(fmt))].filter((v) => v !== n);
}

/**
 * Up to `max` distractors for a term: the lesson's terms of its category (lesson.ts), put in the
 * answer's number, none in the stem or sharing a word with the answer; for a number, the lesson's
 * numbers of its kind, then near values. With `defined`, the lesson's other defined terms count too
 * (a description can name any of them).
 */
function distractors(
  ctx: Ctx,
  term: Term,
  answer: string,
  stem: string,
  { defined = false, weak = true }: { defined?: boolean; weak?: boolean } = {},
  max = 3,
): string[] {
  const kind = optionKind(answer);
  const plural = kind === 'noun-pl';
  const keys = [
    ...siblings(ctx.lesson, term.key, weak),
    ...(defined ? definedTerms(ctx.lesson).filter((k) => k !== term.key) : []),
  ];
  // A noun is put in the answer's number only where it can be (not "cytoplasms"); a false
  // statement takes only the forms the lesson itself uses.
  // Only a term of the key's own category or of the lesson's vocabulary is put in another number
  // ("exercise", the subject of one statement, is no "exercises" beside "valves").
  const strong = new Set([
    ...siblings(ctx.lesson, term.key),
    ...keys.filter((k) => ctx.lesson.categories.get(k)?.has('vocab')),
  ]);
  const pool = keys
    .map((k) => ctx.lesson.terms.get(k)!)
    .filter((t) => t.kind !== 'noun' || t.plural === plural || (strong.has(t.key) && !uncountable(t.text)))
    .flatMap((t) => {
      if (t.kind !== 'noun' || t.plural === plural) return [t.text];
      // A word the inflector cannot turn ("atria" stays "atria") is not of the answer's number.
      const turned = inflect(t.text, plural);
      return turned.toLowerCase() === t.text.toLowerCase() ? [] : [turned];
    });
  if (isNumeric(term)) {
    const lessonNumbers = ctx.lesson.ranked
      .map((k) => ctx.lesson.terms.get(k)!)
      .filter((t) => t.kind === term.kind && t.key !== term.key)
      .map((t) => t.text);
    pool.push(...lessonNumbers, ...numberVariants(answer));
  }
  const out: string[] = [];
  const answerWords = new Set(normalizeText(answer).split(' '));
  for (const d of pool) {
    if (out.length === max) break;
    const n = normalizeText(d);
    if (!n || n === normalizeText(answer) || out.some((o) => normalizeText(o) === n)) continue;
    // An option sharing a word with the key ("carbon" for "carbon dioxide") gives it away.
    // One naming the key or a kind of it ("bees" for "honeybees") is a second right answer.
    if (!isNumeric(term) && (n.split(' ').some((w) => answerWords.has(w)) || namesSameThing(d, answer))) continue;
    if (mentions(stem, d) || optionKind(d) !== kind) continue;
    out.push(d);
  }
  return out;
}

/** "right" in "the right ventricle": a word that modifies the noun after it. */
const adjective = memo((word: string) =>
  (nlp(`the ${word} one`).json() as { terms: { tags: string[] }[] }[]).some((x) =>
    x.terms[1]?.tags.includes('Adjective'),
  ),
);

const uncountable = memo(
  (noun: string) =>
    (nlp(noun).json() as { terms: { tags: string[] }[] }[]).some((x) =>
      x.terms.some((t) => t.tags.includes('Uncountable')),
    ) || /(?:plasm|ism|tion|ness|ity|ence|ance|ment|ing|ics)$/.test(noun),
);

const definedTerms = (lesson: Lesson) => lesson.sentences.flatMap((s) => (s.definition ? [s.definition.key] : []));

function blanked(s: Sentence, occ: Occurrence): string | undefined {
  const found = findTerm(s.text, occ.surface);
  if (!found) return undefined;
  // A capitalized term right after a capitalized word that is not the sentence's first ("Mount
  // St. _____"), or after an abbreviation, is the end of a longer name: no blank inside a name.
  const before = s.text.slice(0, found.start);
  if (/^\p{Lu}/u.test(found.text) && /(?:\S\s+\p{Lu}[\p{L}.]*|\.)\s+$/u.test(before)) return undefined;
  const text = s.text.slice(0, found.start) + BLANK + s.text.slice(found.start + found.text.length);
  return endWithStop(text);
}

const mc = (questionText: string, answer: string, wrong: string[], random: () => number): GeneratedQuestion => ({
  questionText,
  questionType: 'multiple_choice',
  options: shuffled([answer, ...wrong], random),
  correctAnswer: answer,
  points: 1,
});

const sa = (questionText: string, answer: string): GeneratedQuestion => ({
  questionText,
  questionType: 'short_answer',
  options: [],
  correctAnswer: answer,
  points: 1,
});

const tf = (statement: string, answer: 'True' | 'False'): GeneratedQuestion => ({
  questionText: `True or False: ${endWithStop(statement)}`,
  questionType: 'true_false',
  options: ['True', 'False'],
  correctAnswer: answer,
  points: 1,
});

const kindWord = (t: Term) =>
  t.kind === 'year' ? 'year' : t.kind === 'person' ? 'name' : isNumeric(t) ? 'number' : 'term';

/** Cloze items of a sentence, best term first, for terms the lesson gives a category (or any, for short answer). */
function clozes(ctx: Ctx, s: Sentence): { stem: string; answer: string; term: Term }[] {
  const out: { stem: string; answer: string; term: Term }[] = [];
  // A blank in a long sentence is a reading test, not a question: clozes of 6 to 28 words only.
  if (s.words < 6 || s.words > 28) return out;
  for (const occ of s.terms) {
    const term = ctx.lesson.terms.get(occ.key)!;
    const stem = blanked(s, occ);
    if (stem) out.push({ stem, answer: answerText(term, occ), term });
  }
  return out;
}

function definitionItem(
  ctx: Ctx,
  s: Sentence,
): { stem: string; answer: string; term: Term; description: string } | undefined {
  const d = s.definition;
  if (!d) return undefined;
  const term = ctx.lesson.terms.get(d.key);
  if (!term || mentions(d.description, term.text) || d.description.split(' ').length < 3) return undefined;
  const answer = answerText(term, { key: d.key, surface: d.surface });
  return {
    stem: `Which ${kindWord(term)} matches this description: ${d.description}?`,
    answer,
    term,
    description: d.description,
  };
}

/** A sentence as a clause inside a question: lower case first, unless it opens with a name. */
function asClause(lesson: Lesson, text: string): string {
  const first = (text.match(/^\p{L}+/u)?.[0] ?? '').toLowerCase();
  // A word written with a capital inside a sentence somewhere is a name ("Newton's first law").
  const name = lesson.sentences.some((s) =>
    s.text
      .split(/\s+/)
      .slice(1)
      .some((w) => /^[A-Z]/.test(w) && (w.match(/^\p{L}+/u)?.[0] ?? '').toLowerCase() === first),
  );
  // A clause opening with a name of the lesson ("Congress passed …") keeps its capital.
  const named = [...lesson.terms.values()].some(
    (t) => t.kind !== 'noun' && !/^\d/.test(t.text) && text.startsWith(t.text),
  );
  return name || named || /^[A-Z]{2,}/.test(text) ? text : lowerFirst(text);
}

/** Other facts of the lesson as clauses of a length like `answer`'s, for clause options. */
function otherClauses(ctx: Ctx, answer: string, not: Sentence[], prefer: string[] = []): string[] {
  const length = answer.split(' ').length;
  const others = ctx.lesson.sentences
    .filter((o) => !not.includes(o) && o.standalone && !o.text.includes(',') && !o.definition && !o.cause?.link)
    .map((o) => asClause(ctx.lesson, o.text.replace(/[.!]$/, '')))
    .filter((c) => c.split(' ').length <= Math.max(10, length * 2) && optionKind(c) === 'clause')
    .sort((a, b) => Math.abs(a.split(' ').length - length) - Math.abs(b.split(' ').length - length));
  const fit = prefer.filter((c) => optionKind(c) === 'clause' && normalizeText(c) !== normalizeText(answer));
  return [...new Set([...fit, ...shuffled(others.slice(0, 6), ctx.random)])].slice(0, 3);
}

/** Causes and effects of the lesson's other cause sentences: the most plausible wrong answers. */
const causeClauses = (ctx: Ctx, not: Sentence, part: 'cause' | 'effect') =>
  ctx.lesson.sentences
    .filter((o) => o !== not && o.cause)
    .map((o) => asClause(ctx.lesson, o.cause![part]))
    .filter((c) => !/^(?:it|they|this|these)\b/i.test(c));

/** "what happened after the war ended", "what happens when water freezes": the tense of the condition. */
const happens = memo((condition: string) => {
  const verbs = nlp(condition).verbs().json() as { verb?: { grammar?: { tense?: string } } }[];
  return verbs[0]?.verb?.grammar?.tense === 'PastTense' ? 'happened' : 'happens';
});

const CAUSING =
  /^(?:(?:the|a|an)\s+)?(.+?) (causes?|caused|leads? to|led to|results? in|resulted in|produces?|produced|creates?|created) (.+?)\.$/i;
const thirdPerson = (verb: string) => verb.replace(/^(cause|lead|result|produce|create)\b(?!s)/, (v) => `${v}s`);

/** "Friction causes heat." → "According to the lesson, what causes heat?" (the cause, among its kind). */
function whatCauses(ctx: Ctx, s: Sentence, choices = 3): Candidate | undefined {
  const m = CAUSING.exec(s.text);
  if (!m) return undefined;
  const occ = s.terms.find((o) => o.surface.toLowerCase() === m[1]!.toLowerCase());
  const term = occ && ctx.lesson.terms.get(occ.key);
  if (!occ || !term || m[3]!.split(' ').length < 2 || /\b(?:it|its|they|them|their|this|these)\b/i.test(m[3]!))
    return undefined;
  const answer = answerText(term, occ);
  const stem = `According to the lesson, what ${thirdPerson(m[2]!.toLowerCase())} ${m[3]}?`;
  const wrong = choices ? distractors(ctx, term, answer, stem) : [];
  if (wrong.length < choices) return undefined;
  const cap = (x: string) => (/^[A-Z]/.test(s.text) && term.kind === 'noun' ? upperFirst(x) : x);
  return { q: mc(stem, cap(answer), wrong.map(cap), ctx.random), skill: 'cause', sources: [s.index] };
}

/** "Chloroplasts capture energy from sunlight to make food." → the main clause and "to make food". */
const purposeOf = (s: Sentence) => purposeIn(s.text);

/** Memoised by text: every sentence's purpose is read for every other's distractors. */
const purposeIn = memo((text: string): { main: string; purpose: string } | undefined => {
  const m = /^([^,;]+?) (to [a-z]+\b[^,;]*)\.$/.exec(text);
  if (!m || m[2]!.split(' ').length < 3 || m[1]!.split(' ').length < 3) return undefined;
  const verb = (nlp(m[2]!).json() as { terms: { text: string; tags: string[] }[] }[])[0]?.terms[1];
  if (!verb?.tags.includes('Verb') || /\b(?:it|its|they|them|their|this|these)\b/i.test(m[2]!)) return undefined;
  // "… used to", "… able to", "… have to": no purpose.
  if (
    /\b(?:used|able|have|has|had|want|wants|wanted|need|needs|needed|going|began|begin|begins|tried|try|tries|likely|how|what)$/i.test(
      m[1]!,
    )
  )
    return undefined;
  return { main: m[1]!, purpose: m[2]! };
});

/** "Why do chloroplasts capture energy from sunlight?": the purpose, among the lesson's others. */
function whyFor(ctx: Ctx, s: Sentence): Candidate | undefined {
  const p = purposeOf(s);
  if (!p) return undefined;
  const doc = nlp(p.main);
  const verbs = doc.verbs().json() as { text: string; verb?: { infinitive?: string; grammar?: { tense?: string } } }[];
  const first = verbs[0];
  if (verbs.length !== 1 || !first?.verb?.infinitive || first.text.includes(' ')) return undefined;
  const at = p.main.indexOf(` ${first.text} `);
  if (at <= 0) return undefined;
  const subject = p.main.slice(0, at);
  const rest = p.main.slice(at + first.text.length + 2);
  const subjectTerm = s.terms.find((o) => subject.toLowerCase().endsWith(o.surface.toLowerCase()));
  const plural = subjectTerm ? ctx.lesson.terms.get(subjectTerm.key)?.plural : / and /.test(subject);
  const aux = first.verb.grammar?.tense === 'PastTense' ? 'did' : plural || / and /.test(subject) ? 'do' : 'does';
  const stem = `According to the lesson, why ${aux} ${asClause(ctx.lesson, subject)} ${first.verb.infinitive} ${rest}?`;
  const others = ctx.lesson.sentences
    .filter((o) => o !== s && o.standalone)
    .map(purposeOf)
    .filter((x): x is { main: string; purpose: string } => !!x && normalizeText(x.purpose) !== normalizeText(p.purpose))
    .map((x) => x.purpose);
  const wrong = shuffled([...new Set(others)], ctx.random).slice(0, 3);
  if (wrong.length < 3) return undefined;
  return { q: mc(stem, p.purpose, wrong, ctx.random), skill: 'cause', sources: [s.index] };
}

/** "Which of these releases energy from food?": the term that does what the sentence says. */
function whichOfThese(ctx: Ctx, s: Sentence): Candidate | undefined {
  const occ = s.terms.find((o) => findTerm(s.text, o.surface)?.start === 0 || findTerm(s.text, o.surface)?.start === 4);
  if (!occ) return undefined;
  const found = findTerm(s.text, occ.surface)!;
  if (found.start === 4 && !/^The /.test(s.text)) return undefined;
  const rest = s.text
    .slice(found.start + found.text.length)
    .trim()
    .replace(/[.!]$/, '');
  // The predicate must start with a verb and not be "is the …" (a definition, asked elsewhere).
  if (
    !/^(?:[a-z]+s|[a-z]+ed|have|has|can|cannot|do|does|help|make|need|use|carry|store|give|live|grow|protect|control|contain|take)\b/.test(
      rest,
    )
  )
    return undefined;
  if (/^(?:is|are|was|were)\b/.test(rest) || rest.split(' ').length < 3) return undefined;
  const term = ctx.lesson.terms.get(occ.key)!;
  const answer = upperFirst(answerText(term, occ));
  const stem = `Which of these ${rest}?`;
  const wrong = distractors(ctx, term, answer, stem).map(upperFirst);
  if (wrong.length < 3) return undefined;
  // "Which of these moves faster than sound?": two things compared.
  return {
    q: mc(stem, answer, wrong, ctx.random),
    skill: / than /.test(rest) ? 'comparison' : 'recall',
    sources: [s.index],
  };
}

function* multipleChoiceFor(ctx: Ctx, s: Sentence): Generator<Candidate> {
  const def = definitionItem(ctx, s);
  if (def) {
    const wrong = distractors(ctx, def.term, def.answer, def.stem, { defined: true });
    if (wrong.length === 3)
      yield { q: mc(def.stem, def.answer, wrong, ctx.random), skill: 'definition', sources: [s.index] };
  }
  const cause = s.cause;
  const sources = s.marker === 'result' ? [s.index - 1, s.index] : [s.index];
  if (cause && !/^(?:it|they|this|these)\b/i.test(cause.cause)) {
    const effect = asClause(ctx.lesson, cause.effect);
    const causeText = asClause(ctx.lesson, cause.cause);
    if (optionKind(effect) === 'clause' && effect.split(' ').length <= 18) {
      const wrong = otherClauses(
        ctx,
        effect,
        [s, ...(s.marker === 'result' ? [ctx.lesson.sentences[s.index - 1]!] : [])],
        causeClauses(ctx, s, 'effect'),
      );
      if (wrong.length === 3)
        yield {
          q: mc(
            `According to the lesson, what ${happens(cause.cause)} ${cause.link ?? 'because'} ${lowerFirst(causeText)}?`,
            effect,
            wrong,
            ctx.random,
          ),
          skill: 'cause',
          sources,
        };
    }
    if (
      (!cause.link || cause.link !== 'as') &&
      optionKind(causeText) === 'clause' &&
      causeText.split(' ').length <= 18 &&
      !/^(?:it|they|this|these)\b/i.test(cause.effect)
    ) {
      const wrong = otherClauses(
        ctx,
        causeText,
        [s, ...(s.marker === 'result' ? [ctx.lesson.sentences[s.index - 1]!] : [])],
        causeClauses(ctx, s, 'cause'),
      );
      if (wrong.length === 3)
        yield {
          q: mc(
            `According to the lesson, what leads to this result: ${lowerFirst(effect)}?`,
            causeText,
            wrong,
            ctx.random,
          ),
          skill: 'cause',
          sources,
        };
    }
  }
  const causing = whatCauses(ctx, s);
  if (causing) yield causing;
  const purpose = whyFor(ctx, s);
  if (purpose) yield purpose;
  const which = whichOfThese(ctx, s);
  if (which) yield which;
  for (const c of clozes(ctx, s)) {
    const wrong = distractors(ctx, c.term, c.answer, c.stem);
    if (wrong.length === 3)
      yield {
        q: mc(`Complete the sentence: ${c.stem}`, c.answer, wrong, ctx.random),
        skill: 'recall',
        sources: [s.index],
      };
  }
}

function* shortAnswerFor(ctx: Ctx, s: Sentence): Generator<Candidate> {
  const def = definitionItem(ctx, s);
  if (def) yield { q: sa(def.stem, def.answer), skill: 'definition', sources: [s.index] };
  const causing = whatCauses(ctx, s, 0);
  if (causing) yield { ...causing, q: sa(causing.q.questionText, causing.q.correctAnswer) };
  // A blank a student can fill from the lesson: a term it names more than once, or a category member.
  for (const c of clozes(ctx, s))
    if (c.term.count > 1 || ctx.lesson.categories.has(c.term.key) || isNumeric(c.term))
      yield { q: sa(`Fill in the blank: ${c.stem}`, c.answer), skill: 'recall', sources: [s.index] };
}

const CONTRAST = /\b(?:than|unlike|whereas|while|but|instead of|rather than|lack|lacks|only|not)\b/i;

/** The sentence with one term swapped for another of its category, keeping the casing of its place. */
/** Remembers a function of one lesson while that lesson is in use. */
function memoBy<K extends object, V>(fn: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, V>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, fn(key));
    return cache.get(key)!;
  };
}

/**
 * The lesson's main topics (the heart and the blood of a lesson on the heart): the wholes its other
 * terms are parts of, so a false statement never trades one for a part ("Veins carry blood back to
 * the atria" is true).
 */
const topicsOf = memoBy((lesson: Lesson) => {
  const top = lesson.terms.get(lesson.ranked[0] ?? '')?.count ?? 0;
  const named = lesson.ranked.filter((k) => lesson.terms.get(k)!.count >= 0.75 * top);
  // The lesson's opening sentence names its topic first ("The heart is a muscle …").
  const first = lesson.sentences[0];
  const opening = first?.terms
    .map((o) => ({ key: o.key, at: findTerm(first.text, o.surface)?.start ?? Infinity }))
    .sort((a, b) => a.at - b.at)[0]?.key;
  return new Set(opening ? [...named, opening] : named);
});

function swapped(ctx: Ctx, s: Sentence, variant: number): string | undefined {
  const topics = topicsOf(ctx.lesson);
  for (const occ of s.terms) {
    if (topics.has(occ.key)) continue;
    const term = ctx.lesson.terms.get(occ.key)!;
    const found = findTerm(s.text, occ.surface);
    if (!found) continue;
    const answer = answerText(term, occ);
    const pool = isNumeric(term)
      ? numberVariants(occ.surface)
      : distractors(ctx, term, answer, s.text, { weak: false }).filter((d) => !topics.has(termKey(d)));
    const replacement = pool[variant % Math.max(1, pool.length)];
    if (!replacement) continue;
    // "The right ventricle" → "the right heart": a modifier of the term does not fit another one.
    const before = s.text.slice(0, found.start).trim().split(/\s+/).pop() ?? '';
    if (!isNumeric(term) && before && adjective(before)) continue;
    const atStart = found.start === 0;
    const fitted = atStart ? upperFirst(replacement) : term.kind === 'noun' ? lowerFirst(replacement) : replacement;
    return s.text.slice(0, found.start) + fitted + s.text.slice(found.start + found.text.length);
  }
  return undefined;
}

/** Two terms of one category in a contrast ("plant cells … animal cells lack") trade places. */
function exchange(ctx: Ctx, s: Sentence): string | undefined {
  if (!CONTRAST.test(s.text)) return undefined;
  for (let i = 0; i < s.terms.length; i++)
    for (let j = i + 1; j < s.terms.length; j++) {
      const [a, b] = [s.terms[i]!, s.terms[j]!];
      // Two terms of one sentence, in a contrast: their own kind or both concepts of the lesson.
      if (!sameCategory(ctx.lesson, a.key, b.key, true) || [a.key, b.key].some((k) => topicsOf(ctx.lesson).has(k)))
        continue;
      const fa = findTerm(s.text, a.surface);
      const fb = findTerm(s.text, b.surface);
      if (!fa || !fb || optionKind(a.surface) !== optionKind(b.surface)) continue;
      const [first, second] = fa.start < fb.start ? [fa, fb] : [fb, fa];
      if (first.start + first.text.length > second.start) continue;
      const fit = (text: string, at: number) =>
        at === 0
          ? upperFirst(text)
          : /^[A-Z][a-z]/.test(text) && ctx.lesson.terms.get(text.toLowerCase())?.kind === 'noun'
            ? lowerFirst(text)
            : text;
      return (
        s.text.slice(0, first.start) +
        fit(second.text, first.start) +
        s.text.slice(first.start + first.text.length, second.start) +
        fit(first.text, second.start) +
        s.text.slice(second.start + second.text.length)
      );
    }
  return undefined;
}

/**
 * "The term for the control center of the cell is nucleus." True with the lesson's term, False
 * with another of its vocabulary: which term does the description name?
 */
function termFor(ctx: Ctx, s: Sentence): Candidate[] {
  const def = definitionItem(ctx, s);
  if (!def) return [];
  const other = distractors(ctx, def.term, def.answer, s.text, { defined: true }, 1)[0];
  const statement = (term: string, answer: 'True' | 'False'): Candidate => ({
    q: tf(`The term for ${def.description} is ${term}`, answer),
    skill: 'definition',
    sources: [s.index],
  });
  const out = [statement(def.answer, 'True'), ...(other ? [statement(other, 'False')] : [])];
  return ctx.random() < 0.5 ? out : out.reverse();
}

/** "Because B, A." for "A because B": the cause and the effect the other way round. */
function reversedCause(ctx: Ctx, s: Sentence): string | undefined {
  const c = s.cause;
  if (!c || c.link || /^of\b/.test(c.cause)) return undefined;
  if (optionKind(c.cause) !== 'clause' || optionKind(c.effect) !== 'clause') return undefined;
  if ([c.cause, c.effect].some((x) => /^(?:it|its|they|their|this|these|he|she|his|her)\b/i.test(x))) return undefined;
  return `Because ${asClause(ctx.lesson, c.effect)}, ${asClause(ctx.lesson, c.cause)}.`;
}

/**
 * "When the price is above equilibrium, buyers face a shortage.": the condition of this sentence
 * with what follows another condition of the lesson (False).
 */
function otherOutcome(ctx: Ctx, s: Sentence): string | undefined {
  const c = s.cause;
  if (!c?.link || s.instruction || /^(?:it|its|they|their|this|these)\b/i.test(c.cause)) return undefined;
  // Conditions about the same thing ("the price is above / below equilibrium"), not any two.
  const about = (o: Sentence) => o.terms.filter((t) => findTerm(o.cause!.cause, t.surface)).map((t) => t.key);
  const mine = new Set(about(s));
  const effects = ctx.lesson.sentences
    .filter(
      (o) =>
        o !== s &&
        o.cause?.link &&
        !o.instruction &&
        normalizeText(o.cause.effect) !== normalizeText(c.effect) &&
        about(o).some((k) => mine.has(k)),
    )
    .map((o) => o.cause!.effect)
    .filter((e) => optionKind(e) === 'clause' && !/^(?:it|its|they|them|their|this|these)\b/i.test(e));
  if (!effects.length) return undefined;
  const effect = effects[Math.floor(ctx.random() * effects.length)]!;
  return `${upperFirst(c.link)} ${asClause(ctx.lesson, c.cause)}, ${asClause(ctx.lesson, effect)}.`;
}

function* trueFalseFor(ctx: Ctx, s: Sentence): Generator<Candidate> {
  const sources = s.marker === 'result' ? [s.index - 1, s.index] : [s.index];
  const reversed = reversedCause(ctx, s);
  if (reversed) yield { q: tf(reversed, 'False'), skill: 'cause', sources };
  const outcome = otherOutcome(ctx, s);
  if (outcome) yield { q: tf(outcome, 'False'), skill: 'cause', sources };
  const flipped = flipComparison(s.text);
  if (flipped) yield { q: tf(flipped, 'False'), skill: 'comparison', sources };
  for (const statement of termFor(ctx, s)) yield statement;
  const swap = exchange(ctx, s);
  if (swap && normalizeText(swap) !== normalizeText(s.text))
    yield { q: tf(swap, 'False'), skill: 'comparison', sources };
  // Alternate which sentences come true and which false first, varied by the seed.
  const wantFalse = (s.index + Math.floor(ctx.random() * 2)) % 2 === 0;
  const truth: Candidate = { q: tf(s.text, 'True'), skill: 'recall', sources };
  if (!wantFalse) yield truth;
  // A negation reads well only in a short sentence of one clause.
  const simple = s.words <= 16 && !/[,;]| (?:so|and|which|because|but|while) /.test(s.text);
  for (const make of [() => swapped(ctx, s, s.index), () => (simple ? negate(s.text) : undefined)]) {
    const f = make();
    if (f && normalizeText(f) !== normalizeText(s.text)) yield { q: tf(f, 'False'), skill: 'recall', sources };
  }
  if (wantFalse) yield truth;
}

/** Dated events of the lesson, earliest first, one per year. */
function events(ctx: Ctx): { s: Sentence; year: number; clause: string }[] {
  const byYear = new Map<number, { s: Sentence; year: number; clause: string }>();
  for (const s of ctx.lesson.sentences)
    if (s.event && !byYear.has(s.event.year)) byYear.set(s.event.year, { s, ...s.event });
  return [...byYear.values()].sort((a, b) => a.year - b.year);
}

/** "Which of these happened first?" over four dated events; the steps of a process in order. */
function* sequenceChoices(ctx: Ctx): Generator<Candidate> {
  const dated = events(ctx);
  if (dated.length >= 4) {
    for (const [which, pick] of [
      ['first', (e: typeof dated) => e[0]!],
      ['last', (e: typeof dated) => e[e.length - 1]!],
    ] as const) {
      const four = shuffled(dated, ctx.random)
        .slice(0, 4)
        .sort((a, b) => a.year - b.year);
      const key = pick(four);
      const wrong = four.filter((e) => e !== key).map((e) => e.clause);
      yield {
        q: mc(`According to the lesson, which of these happened ${which}?`, key.clause, wrong, ctx.random),
        skill: 'sequence',
        sources: [key.s.index],
      };
    }
  }
  for (const run of ctx.lesson.sequences)
    for (let i = 0; i + 1 < run.length; i++) {
      const [step, next] = [run[i]!, run[i + 1]!];
      const answer = asClause(ctx.lesson, next.text.replace(/[.!]$/, ''));
      const wrong = run
        .filter((o) => o !== step && o !== next)
        .map((o) => asClause(ctx.lesson, o.text.replace(/[.!]$/, '')));
      if (wrong.length < 3) continue;
      yield {
        q: mc(
          `According to the lesson, what happens right after this step: ${lowerFirst(step.text.replace(/[.!]$/, ''))}?`,
          answer,
          shuffled(wrong, ctx.random).slice(0, 3),
          ctx.random,
        ),
        skill: 'sequence',
        sources: [step.index, next.index],
      };
    }
}

/** "A before B." for two dated events, in their order (True) or the other way (False); steps likewise. */
function* sequenceStatements(ctx: Ctx): Generator<Candidate> {
  for (const run of ctx.lesson.sequences)
    for (let i = 0; i + 2 < run.length; i++) {
      const [a, b] = [run[i]!, run[i + 2]!];
      const inOrder = ctx.random() < 0.5;
      const [x, y] = inOrder ? [a, b] : [b, a];
      const step = (o: Sentence) => `"${o.text.replace(/[.!]$/, '')}"`;
      yield {
        q: tf(`In the lesson, the step ${step(x)} comes before the step ${step(y)}`, inOrder ? 'True' : 'False'),
        skill: 'sequence',
        sources: [a.index, b.index],
      };
    }
  const dated = events(ctx);
  // Neighbours first, then events two apart.
  const pairs = [1, 2].flatMap((gap) => dated.slice(0, -gap).map((a, i) => [a, dated[i + gap]!] as const));
  for (const [a, b] of pairs) {
    const inOrder = ctx.random() < 0.5;
    const [x, y] = inOrder ? [a, b] : [b, a];
    yield {
      q: tf(`${x.clause} before ${asClause(ctx.lesson, y.clause)}`, inOrder ? 'True' : 'False'),
      skill: 'sequence',
      sources: [a.s.index, b.s.index],
    };
  }
}

/** Terms of the lesson of the kind of `members` (nouns, in their number) that are not examples of `concept`. */
function nonExamples(ctx: Ctx, concept: string, members: string[]): string[] {
  const groups = [...ctx.lesson.examples.entries()].filter(([k]) => k !== concept);
  const others = groups.flatMap(([, m]) => m).filter((k) => !members.includes(k) && k !== concept);
  return [...new Set(others)];
}

/** The concept in the plural where it has one: "producers", but "precipitation" stays as it is. */
const plural = (ctx: Ctx, key: string) => {
  const text = ctx.lesson.terms.get(key)!.text;
  return uncountable(text) ? text : inflect(text, true);
};

/** "Which of these does the lesson give as an example of producers?" */
function* exampleChoices(ctx: Ctx): Generator<Candidate> {
  for (const [concept, members] of ctx.lesson.examples) {
    const wrong = nonExamples(ctx, concept, members).map((k) => ctx.lesson.terms.get(k)!.text);
    if (wrong.length < 3) continue;
    const key = ctx.lesson.terms.get(members[Math.floor(ctx.random() * members.length)]!)!.text;
    const source = ctx.lesson.sentences.find(
      (s) => s.terms.some((o) => o.key === concept) && s.terms.some((o) => members.includes(o.key)),
    );
    yield {
      q: mc(
        `Which of these does the lesson give as an example of ${plural(ctx, concept)}?`,
        key,
        shuffled(wrong, ctx.random).slice(0, 3),
        ctx.random,
      ),
      skill: 'example',
      sources: source ? [source.index] : [],
    };
  }
}

/** "What example of organisms does the lesson give?" where it gives exactly one. */
function* exampleAnswers(ctx: Ctx): Generator<Candidate> {
  for (const [concept, members] of ctx.lesson.examples) {
    if (members.length !== 1) continue;
    const source = ctx.lesson.sentences.find(
      (s) => s.terms.some((o) => o.key === concept) && s.terms.some((o) => o.key === members[0]),
    );
    yield {
      q: sa(`What example of ${plural(ctx, concept)} does the lesson give?`, ctx.lesson.terms.get(members[0]!)!.text),
      skill: 'example',
      sources: source ? [source.index] : [],
    };
  }
}

/** "The lesson gives algae as an example of producers." True for an example, False for one of another concept. */
function* exampleStatements(ctx: Ctx): Generator<Candidate> {
  for (const [concept, members] of ctx.lesson.examples) {
    const wrong = nonExamples(ctx, concept, members);
    const asTrue = ctx.random() < 0.5 || wrong.length === 0;
    const key = asTrue ? members[Math.floor(ctx.random() * members.length)]! : wrong[0]!;
    const source = ctx.lesson.sentences.find(
      (s) => s.terms.some((o) => o.key === concept) && s.terms.some((o) => members.includes(o.key)),
    );
    yield {
      q: tf(
        `The lesson gives ${ctx.lesson.terms.get(key)!.text} as an example of ${plural(ctx, concept)}`,
        asTrue ? 'True' : 'False',
      ),
      skill: 'example',
      sources: source ? [source.index] : [],
    };
  }
}
