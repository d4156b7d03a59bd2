// The offline provider's question maker: deterministic (same text and request, same questions),
// built only from the teacher's own lesson as read by lesson.ts. Multiple choice asks which term
// matches a definition, what follows from a cause, or which term completes a sentence, with
// distractors of the same kind taken from the lesson; short answer asks for the term; true/false
// states a sentence as written or made false (a term swapped for another of its kind, a number
// changed, the verb negated). Every item passes the quality rules (item-quality.ts) or is
// dropped. Too little text is refused with a reason, never padded with filler.
import { GenerationError } from './errors.ts';
import { checkNext, optionKind } from './item-quality.ts';
import {
  analyseLesson,
  endWithStop,
  findTerm,
  inflect,
  lowerFirst,
  mentions,
  negate,
  seededRandom,
  shuffled,
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
  const made = buildItems(lesson, plan, options);
  if (made.length < plan.length) throw tooLittleText(made.length, plan.length);
  return made;
}

/** As many of the planned items as the lesson gives (at most one per slot). */
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
  const sources: Record<QuestionType, Iterator<GeneratedQuestion>> = {
    multiple_choice: candidates(ctx, rotate(0), multipleChoiceFor),
    true_false: candidates(ctx, rotate(1), trueFalseFor),
    short_answer: candidates(ctx, rotate(2), shortAnswerFor),
  };
  const excluded = new Set((options.exclude ?? []).map(normalizeText));
  const out: GeneratedQuestion[] = [];
  // Items whose answer is already the answer of another item wait: a set asks about many terms.
  const waiting: Record<QuestionType, GeneratedQuestion[]> = { multiple_choice: [], true_false: [], short_answer: [] };
  const answered = new Set<string>();
  const truths = { True: 0, False: 0 };
  // True/false answers alternate; other answers differ ("cell" and "cells" are one).
  const answerKey = (q: GeneratedQuestion) =>
    q.questionType === 'true_false'
      ? truths[q.correctAnswer as 'True' | 'False'] > truths[q.correctAnswer === 'True' ? 'False' : 'True']
        ? q.correctAnswer
        : undefined
      : normalizeText(q.correctAnswer).replace(/s$/, '');
  const fits = (q: GeneratedQuestion) => {
    if (excluded.has(normalizeText(q.questionText))) return false;
    return checkNext(out, q).length === 0;
  };
  for (const type of plan) {
    let chosen: GeneratedQuestion | undefined;
    while (!chosen) {
      const r = sources[type].next();
      if (r.done) break;
      const key = answerKey(r.value);
      if (key && (answered.has(key) || r.value.questionType === 'true_false')) waiting[type].push(r.value);
      else if (fits(r.value)) chosen = r.value;
    }
    if (!chosen) {
      const at = waiting[type].findIndex(fits);
      if (at >= 0) chosen = waiting[type].splice(at, 1)[0];
    }
    if (!chosen) continue;
    if (chosen.questionType === 'true_false') truths[chosen.correctAnswer as 'True' | 'False']++;
    else answered.add(answerKey(chosen)!);
    out.push(chosen);
  }
  return out;
}

interface Ctx {
  lesson: Lesson;
  random: () => number;
  level: 'easy' | 'standard' | 'hard';
}

/** Standalone sentences with terms, starting at a seeded place so another salt asks others first. */
function sentenceOrder(lesson: Lesson, random: () => number): Sentence[] {
  const usable = lesson.sentences.filter((s) => s.standalone && s.terms.length > 0);
  const start = Math.floor(random() * usable.length);
  return [...usable.slice(start), ...usable.slice(0, start)];
}

/**
 * Round r takes each sentence's r-th item, so a set spreads over the lesson before reusing a
 * sentence. Items are made lazily: tagging options is the slow part, and most are never asked for.
 */
function* candidates(
  ctx: Ctx,
  order: Sentence[],
  itemsFor: (ctx: Ctx, s: Sentence) => Iterable<GeneratedQuestion>,
): Generator<GeneratedQuestion> {
  let live = order.map((s) => itemsFor(ctx, s)[Symbol.iterator]());
  while (live.length) {
    const next: typeof live = [];
    for (const it of live) {
      const r = it.next();
      if (r.done) continue;
      next.push(it);
      yield r.value;
    }
    live = next;
  }
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
 * Three distractors for an answer: other terms of the lesson of the same kind (nouns put in the
 * answer's number), none already in the stem; numbers of the lesson, else near values.
 */
function distractors(ctx: Ctx, term: Term, answer: string, stem: string): string[] {
  const kind = optionKind(answer);
  const plural = kind === 'noun-pl';
  const sameKind = ctx.lesson.ranked
    .map((k) => ctx.lesson.terms.get(k)!)
    .filter(
      (t) =>
        t.key !== term.key &&
        (t.kind === term.kind || (t.kind !== 'noun' && term.kind !== 'noun' && !isNumeric(t) && !isNumeric(term))),
    )
    .sort(
      (a, b) =>
        Math.abs(a.text.length - answer.length) - Math.abs(b.text.length - answer.length) || a.firstAt - b.firstAt,
    );
  // Same entity type first (a place for a place); nouns already in the answer's number first,
  // others put in it ("cell" → "cells") only after.
  sameKind.sort((a, b) => Number(b.kind === term.kind) - Number(a.kind === term.kind));
  const pool = [
    ...sameKind.filter((t) => t.kind !== 'noun' || t.plural === plural).map((t) => t.text),
    ...sameKind.filter((t) => t.kind === 'noun' && t.plural !== plural).map((t) => inflect(t.text, plural)),
  ];
  const extra = isNumeric(term) ? numberVariants(answer) : [];
  const out: string[] = [];
  const answerWords = new Set(normalizeText(answer).split(' '));
  const usable = (d: string) => {
    const n = normalizeText(d);
    if (!n || n === normalizeText(answer) || out.some((o) => normalizeText(o) === n)) return false;
    // An option sharing a word with the key ("carbon" for "carbon dioxide") gives it away.
    if (!isNumeric(term) && n.split(' ').some((w) => answerWords.has(w))) return false;
    return optionKind(d) === kind;
  };
  // Terms the stem already uses are weak choices: only when a short lesson has no others.
  const candidates = [...pool, ...extra];
  const inStem: string[] = [];
  for (const d of candidates) {
    if (out.length === 3) return out;
    if (mentions(stem, d)) inStem.push(d);
    else if (usable(d)) out.push(d);
  }
  for (const d of inStem) {
    if (out.length === 3) break;
    if (usable(d)) out.push(d);
  }
  return out;
}

function blanked(s: Sentence, occ: Occurrence): string | undefined {
  const found = findTerm(s.text, occ.surface);
  if (!found) return undefined;
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

const kindWord = (t: Term) =>
  t.kind === 'year' ? 'year' : t.kind === 'person' ? 'name' : isNumeric(t) ? 'number' : 'term';

/** Cloze items of a sentence, best term first: [stem with a blank, answer, term]. */
function clozes(ctx: Ctx, s: Sentence): { stem: string; answer: string; term: Term }[] {
  const out: { stem: string; answer: string; term: Term }[] = [];
  for (const occ of s.terms) {
    const term = ctx.lesson.terms.get(occ.key)!;
    const stem = blanked(s, occ);
    if (!stem) continue;
    // The blank must leave enough to go on.
    if (s.words < 5) continue;
    out.push({ stem, answer: answerText(term, occ), term });
  }
  return out;
}

function definitionItem(ctx: Ctx, s: Sentence): { stem: string; answer: string; term: Term } | undefined {
  const d = s.definition;
  if (!d) return undefined;
  const term = ctx.lesson.terms.get(d.key);
  if (!term || mentions(d.description, term.text)) return undefined;
  const answer = answerText(term, { key: d.key, surface: d.surface });
  return { stem: `Which ${kindWord(term)} matches this description: ${d.description}?`, answer, term };
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
  return name || /^[A-Z]{2,}/.test(text) ? text : lowerFirst(text);
}

function* multipleChoiceFor(ctx: Ctx, s: Sentence): Generator<GeneratedQuestion> {
  const hardFirst = ctx.level !== 'easy';
  const def = definitionItem(ctx, s);
  if (def && hardFirst) {
    const wrong = distractors(ctx, def.term, def.answer, def.stem);
    if (wrong.length === 3) yield mc(def.stem, def.answer, wrong, ctx.random);
  }
  if (s.cause && hardFirst) {
    const effect = s.cause.effect;
    const answer = asClause(ctx.lesson, effect);
    const length = answer.split(' ').length;
    // Other facts of the lesson, of a length like the answer's, are the choices.
    const others = ctx.lesson.sentences
      .filter((o) => o !== s && o.standalone && !o.cause && !o.text.includes(','))
      .map((o) => asClause(ctx.lesson, o.text.replace(/[.!]$/, '')))
      .filter((c) => c.split(' ').length <= Math.max(8, length * 2) && optionKind(c) === 'clause')
      .sort((a, b) => Math.abs(a.split(' ').length - length) - Math.abs(b.split(' ').length - length));
    const wrong = shuffled(others.slice(0, 6), ctx.random).slice(0, 3);
    if (wrong.length === 3 && optionKind(answer) === 'clause' && !/^(?:it|they|this|these)\b/i.test(s.cause.cause))
      yield mc(
        `According to the lesson, what happens because ${lowerFirst(s.cause.cause)}?`,
        answer,
        wrong,
        ctx.random,
      );
  }
  for (const c of clozes(ctx, s)) {
    const wrong = distractors(ctx, c.term, c.answer, c.stem);
    if (wrong.length < 3) continue;
    yield mc(`Complete the sentence: ${c.stem}`, c.answer, wrong, ctx.random);
  }
}

function shortAnswerFor(ctx: Ctx, s: Sentence): GeneratedQuestion[] {
  const sa = (questionText: string, answer: string): GeneratedQuestion => ({
    questionText,
    questionType: 'short_answer',
    options: [],
    correctAnswer: answer,
    points: 1,
  });
  const out: GeneratedQuestion[] = [];
  const def = definitionItem(ctx, s);
  if (def && ctx.level !== 'easy') out.push(sa(def.stem, def.answer));
  for (const c of clozes(ctx, s)) out.push(sa(`Fill in the blank: ${c.stem}`, c.answer));
  return out;
}

/** The sentence with one term swapped for another of its kind, keeping the casing of its place. */
function swapped(ctx: Ctx, s: Sentence, variant: number): string | undefined {
  for (const occ of s.terms) {
    const term = ctx.lesson.terms.get(occ.key)!;
    const found = findTerm(s.text, occ.surface);
    if (!found) continue;
    const answer = answerText(term, occ);
    let replacement: string | undefined;
    if (isNumeric(term)) replacement = numberVariants(occ.surface)[variant % 3];
    else {
      const pool = distractors(ctx, term, answer, s.text);
      replacement = pool[variant % Math.max(1, pool.length)];
    }
    if (!replacement) continue;
    const atStart = found.start === 0;
    const fitted = atStart ? upperFirst(replacement) : term.kind === 'noun' ? lowerFirst(replacement) : replacement;
    return s.text.slice(0, found.start) + fitted + s.text.slice(found.start + found.text.length);
  }
  return undefined;
}

function* trueFalseFor(ctx: Ctx, s: Sentence): Generator<GeneratedQuestion> {
  const tf = (statement: string, answer: 'True' | 'False'): GeneratedQuestion => ({
    questionText: `True or False: ${endWithStop(statement)}`,
    questionType: 'true_false',
    options: ['True', 'False'],
    correctAnswer: answer,
    points: 1,
  });
  // Alternate which sentences come true and which false first, varied by the seed.
  const wantFalse = (s.index + Math.floor(ctx.random() * 2)) % 2 === 0;
  const truth = tf(s.text, 'True');
  if (!wantFalse) yield truth;
  let truthGiven = !wantFalse;
  for (const make of [() => swapped(ctx, s, s.index), () => negate(s.text)]) {
    const f = make();
    if (!f || normalizeText(f) === normalizeText(s.text)) continue;
    yield tf(f, 'False');
    if (!truthGiven) {
      truthGiven = true;
      yield truth;
    }
  }
  if (!truthGiven) yield truth;
}
