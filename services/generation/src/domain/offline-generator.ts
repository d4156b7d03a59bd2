// The offline provider's question maker: deterministic (same text and request, same questions),
// built only from the teacher's own text. Cloze items blank a key term of a sentence; true/false
// items state a sentence as written (True) or with a term swapped for another term of the text, a
// number changed or a verb negated (False); multiple choice offers the blanked term and three
// distractors, other terms of the text of the same kind. Tiny texts fall back to term questions.
import {
  checkQuestion,
  clampCount,
  normalizeText,
  type GeneratedQuestion,
  type GenerationRequest,
  type QuestionType,
} from './question.ts';
import {
  analyseText,
  endWithStop,
  findTerm,
  replaceTerm,
  seededRandom,
  shuffled,
  termKey,
  type Sentence,
  type Term,
  type TextAnalysis,
} from './text-analysis.ts';

const BLANK = '_____';
/** Used only when the text has too few terms to make distractors or false statements. */
const FALLBACK_WORDS = [
  'energy',
  'structure',
  'pattern',
  'evidence',
  'system',
  'process',
  'cycle',
  'function',
  'balance',
  'measure',
  'source',
  'model',
  'factor',
  'property',
  'region',
  'signal',
  'element',
  'surface',
  'method',
  'volume',
];
const MIXED_CYCLE: QuestionType[] = ['multiple_choice', 'true_false', 'short_answer'];

export interface OfflineOptions {
  /** Varies the choice of items for a second set from the same text (practice material). */
  salt?: string;
  /** Question texts that must not be repeated (e.g. the assessment's own questions). */
  exclude?: readonly string[];
  /** Explicit type per slot (overrides the request's type). */
  plan?: readonly QuestionType[];
}

export function planTypes(type: GenerationRequest['questionType'], count: number): QuestionType[] {
  return Array.from({ length: count }, (_, i) => (type === 'mixed' ? MIXED_CYCLE[i % MIXED_CYCLE.length]! : type));
}

export function generateOfflineQuestions(
  request: GenerationRequest,
  options: OfflineOptions = {},
): GeneratedQuestion[] {
  const count = clampCount(request.count);
  const text = request.content.trim() || request.topic?.trim() || 'Lesson';
  const analysis = analyseText(text);
  if (analysis.ranked.length === 0) {
    // No letters or digits at all: nothing of the teacher's to ask about.
    return generateOfflineQuestions({ ...request, content: 'Lesson' }, options);
  }
  const plan = options.plan ? [...options.plan] : planTypes(request.questionType, count);
  const random = seededRandom(`${text}|${plan.join(',')}|${options.salt ?? ''}`);
  const order = sentenceOrder(analysis, random);
  // Each type starts a third of the text further on, so mixed sets do not ask one sentence thrice.
  const ctxFor = (k: number): Ctx => {
    const shift = Math.floor((order.length * k) / 3);
    return { a: analysis, random, order: [...order.slice(shift), ...order.slice(0, shift)] };
  };
  const ctx = ctxFor(0);
  const sources: Record<QuestionType, Iterator<GeneratedQuestion>[]> = {
    multiple_choice: [multipleChoice(ctxFor(0)), mcFallback(ctx)],
    true_false: [trueFalse(ctxFor(1)), tfFallback(ctx)],
    short_answer: [cloze(ctxFor(2)), saFallback(ctx)],
  };
  const seen = new Set((options.exclude ?? []).map(normalizeText));
  const out: GeneratedQuestion[] = [];
  const take = (type: QuestionType): GeneratedQuestion | undefined => {
    for (const source of sources[type]) {
      for (let r = source.next(); !r.done; r = source.next()) {
        const checked = checkQuestion(r.value, type);
        if (!checked.ok) continue;
        const key = normalizeText(checked.question.questionText);
        if (seen.has(key)) continue;
        seen.add(key);
        return checked.question;
      }
    }
    return undefined;
  };
  for (const [i, type] of plan.entries()) {
    let q = take(type);
    // Every source of this type is spent (only for very short texts): number the last resort.
    for (let n = 2; !q && n < 10_000; n++) q = lastResort(ctx, type, i, n, seen);
    if (!q) throw new Error('offline generator: no question could be made');
    out.push(q);
  }
  return out;
}

interface Ctx {
  a: TextAnalysis;
  random: () => number;
  /** Sentences in the order they are used: spread over the text, varied by the seed. */
  order: Sentence[];
}

function sentenceOrder(a: TextAnalysis, random: () => number): Sentence[] {
  const start = Math.floor(random() * a.sentences.length);
  return [...a.sentences.slice(start), ...a.sentences.slice(0, start)];
}

/** (sentence, term) pairs: round r takes each sentence's r-th best term, so items spread out. */
function* pairs(ctx: Ctx, minWords = 3): Generator<{ s: Sentence; t: Term }> {
  const rounds = Math.max(0, ...ctx.order.map((s) => s.termKeys.length));
  for (let r = 0; r < rounds; r++) {
    for (const s of ctx.order) {
      const key = s.termKeys[r];
      if (!key) continue;
      // A blank needs context around it.
      if ((s.text.match(/[\p{L}\p{N}]+/gu) ?? []).length < minWords) continue;
      yield { s, t: ctx.a.terms.get(key)! };
    }
  }
}

function blanked(sentence: string, term: Term): { text: string; answer: string } | undefined {
  const found = findTerm(sentence, term.text);
  if (!found) return undefined;
  const text = sentence.slice(0, found.start) + BLANK + sentence.slice(found.start + found.text.length);
  return { text: endWithStop(text), answer: found.text };
}

function* cloze(ctx: Ctx): Generator<GeneratedQuestion> {
  for (const { s, t } of pairs(ctx)) {
    const b = blanked(s.text, t);
    if (!b) continue;
    yield {
      questionText: `Fill in the blank: ${b.text}`,
      questionType: 'short_answer',
      options: [],
      correctAnswer: b.answer,
      points: 1,
    };
  }
}

function numberVariants(n: string): string[] {
  const m = /^(\d+(?:[.,]\d+)*)(%?)$/.exec(n);
  if (!m) return [];
  const value = Number(m[1]!.replace(/,/g, ''));
  if (!Number.isFinite(value)) return [];
  const decimals = m[1]!.includes('.') ? m[1]!.split('.')[1]!.length : 0;
  const step = decimals ? 1 / 10 ** decimals : 1;
  const fmt = (v: number) => `${decimals ? v.toFixed(decimals) : Math.round(v)}${m[2]}`;
  const candidates = [
    value * 2,
    value + 10 * step,
    value + step,
    Math.max(0, value - step),
    value / 2,
    value + 100 * step,
  ];
  return [...new Set(candidates.filter((v) => v >= 0).map(fmt))].filter((v) => v !== n);
}

/** Three distractors for `answer`: other terms of the text of the same kind, else made up. */
function distractors(ctx: Ctx, answer: Term, sentence: string, salt: number): string[] {
  const others = ctx.a.ranked
    .map((k) => ctx.a.terms.get(k)!)
    .filter((t) => t.kind === answer.kind && t.key !== answer.key && !findTerm(sentence, t.text));
  // Similar length first reads as a fair choice; rotate by salt for variety.
  const sorted = others.sort(
    (x, y) =>
      Math.abs(x.text.length - answer.text.length) - Math.abs(y.text.length - answer.text.length) ||
      x.firstAt - y.firstAt,
  );
  const window = sorted.slice(0, 8);
  const rotated = window.length
    ? [...window.slice(salt % window.length), ...window.slice(0, salt % window.length)]
    : [];
  const picked = rotated.map((t) => t.text);
  const extra =
    answer.kind === 'number' ? numberVariants(answer.text) : FALLBACK_WORDS.filter((w) => !ctx.a.terms.has(w));
  const out: string[] = [];
  for (const d of [...picked, ...extra]) {
    if (out.length === 3) break;
    if (normalizeText(d) === normalizeText(answer.text) || out.some((o) => normalizeText(o) === normalizeText(d)))
      continue;
    out.push(d);
  }
  return out;
}

function mcOptions(ctx: Ctx, answer: string, wrong: string[]): string[] {
  return shuffled([answer, ...wrong], ctx.random);
}

function* multipleChoice(ctx: Ctx): Generator<GeneratedQuestion> {
  let n = 0;
  for (const { s, t } of pairs(ctx)) {
    const b = blanked(s.text, t);
    if (!b) continue;
    const wrong = distractors(ctx, t, s.text, n++);
    if (wrong.length < 3) continue;
    yield {
      questionText: `Which ${t.kind === 'number' ? 'number' : 'term'} best completes the statement? ${b.text}`,
      questionType: 'multiple_choice',
      options: mcOptions(ctx, b.answer, wrong),
      correctAnswer: b.answer,
      points: 1,
    };
  }
}

const NEGATABLE = /\b(is|are|was|were|can|will|has|have|does|do|did|should|must)\b/i;

/** A false version of a sentence: a term swapped, a number changed, or a verb negated. */
function falsify(ctx: Ctx, s: Sentence, variant: number): string | undefined {
  const tries: (() => string | undefined)[] = [];
  for (const key of s.termKeys) {
    const t = ctx.a.terms.get(key)!;
    if (t.kind === 'number') {
      const v = numberVariants(t.text)[variant % 3];
      if (v) tries.push(() => replaceTerm(s.text, t.text, v));
    } else {
      const swaps = ctx.a.ranked
        .map((k) => ctx.a.terms.get(k)!)
        .filter((o) => o.kind === 'word' && o.key !== key && !findTerm(s.text, o.text));
      const swap = swaps[variant % Math.max(1, swaps.length)];
      if (swap) tries.push(() => replaceTerm(s.text, t.text, swap.text));
    }
  }
  if (NEGATABLE.test(s.text) && !/\bnot\b|n't\b/i.test(s.text))
    tries.push(() => s.text.replace(NEGATABLE, (v) => `${v} not`));
  const pick = tries[variant % Math.max(1, tries.length)];
  return pick?.();
}

function* trueFalse(ctx: Ctx): Generator<GeneratedQuestion> {
  const usable = ctx.order.filter((s) => (s.text.match(/[\p{L}\p{N}]+/gu) ?? []).length >= 3);
  // Alternate True and False; the second round flips which sentences are which.
  for (let round = 0; round < 3; round++) {
    for (const [i, s] of usable.entries()) {
      const wantTrue = (i + round) % 2 === 0;
      if (wantTrue) {
        if (round < 2) yield tf(endWithStop(s.text), 'True');
        continue;
      }
      const f = falsify(ctx, s, round);
      if (f && normalizeText(f) !== normalizeText(s.text)) yield tf(endWithStop(f), 'False');
    }
  }
}

const tf = (statement: string, answer: 'True' | 'False'): GeneratedQuestion => ({
  questionText: `True or False: ${statement}`,
  questionType: 'true_false',
  options: ['True', 'False'],
  correctAnswer: answer,
  points: 1,
});

const wordTerms = (ctx: Ctx) => ctx.a.ranked.map((k) => ctx.a.terms.get(k)!);
const absentWords = (ctx: Ctx) => FALLBACK_WORDS.filter((w) => !ctx.a.terms.has(termKey(w)));

function* saFallback(ctx: Ctx): Generator<GeneratedQuestion> {
  for (const t of wordTerms(ctx)) {
    if (t.kind === 'number') {
      yield {
        questionText: `Which number is given in the lesson text right after "${precedingWords(ctx, t)}"?`,
        questionType: 'short_answer',
        options: [],
        correctAnswer: t.text,
        points: 1,
      };
      continue;
    }
    for (let k = 1; k < Math.min(4, t.text.length); k++) {
      yield {
        questionText: `Which key term from the lesson begins with "${t.text.slice(0, k)}" and has ${t.text.length} letters?`,
        questionType: 'short_answer',
        options: [],
        correctAnswer: t.text,
        points: 1,
      };
    }
  }
}

function precedingWords(ctx: Ctx, t: Term): string {
  for (const s of ctx.a.sentences) {
    const f = findTerm(s.text, t.text);
    if (f) return s.text.slice(Math.max(0, f.start - 40), f.start).trim() || 'the start';
  }
  return 'the start';
}

function* tfFallback(ctx: Ctx): Generator<GeneratedQuestion> {
  const present = wordTerms(ctx);
  const absent = absentWords(ctx);
  for (let i = 0; i < Math.max(present.length, absent.length); i++) {
    if (present[i]) yield tf(`The lesson text uses the term "${present[i]!.text}".`, 'True');
    if (absent[i]) yield tf(`The lesson text uses the term "${absent[i]}".`, 'False');
  }
}

function* mcFallback(ctx: Ctx): Generator<GeneratedQuestion> {
  const absent = absentWords(ctx);
  for (const [i, t] of wordTerms(ctx).entries()) {
    const wrong = [0, 1, 2].map((j) => absent[(i * 3 + j) % absent.length]!);
    yield {
      questionText: `Which of these terms appears in the lesson text (hint: it begins with "${t.text[0]}")?`,
      questionType: 'multiple_choice',
      options: mcOptions(ctx, t.text, wrong),
      correctAnswer: t.text,
      points: 1,
    };
    yield {
      questionText: `Which of these ${t.kind === 'number' ? 'numbers' : 'terms'} is used in the lesson text: "${t.text.length > 6 ? t.text.slice(0, 3) + '…' : '…'}"?`,
      questionType: 'multiple_choice',
      options: mcOptions(
        ctx,
        t.text,
        [0, 1, 2].map((j) => absent[(i * 3 + j + 1) % absent.length]!),
      ),
      correctAnswer: t.text,
      points: 1,
    };
  }
}

/** Only for texts of a word or two asked for many questions: a numbered term question. */
function lastResort(
  ctx: Ctx,
  type: QuestionType,
  slot: number,
  n: number,
  seen: Set<string>,
): GeneratedQuestion | undefined {
  const t = wordTerms(ctx)[slot % ctx.a.ranked.length]!;
  const absent = absentWords(ctx);
  const base: GeneratedQuestion =
    type === 'short_answer'
      ? {
          questionText: `Review item ${n}: write the key term of the lesson that begins with "${t.text[0]}".`,
          questionType: type,
          options: [],
          correctAnswer: t.text,
          points: 1,
        }
      : type === 'true_false'
        ? tf(
            `(Review item ${n}) The lesson text uses the term "${n % 2 ? absent[n % absent.length] : t.text}".`,
            n % 2 ? 'False' : 'True',
          )
        : {
            questionText: `Review item ${n}: which of these terms appears in the lesson text?`,
            questionType: type,
            options: mcOptions(
              ctx,
              t.text,
              [0, 1, 2].map((j) => absent[(n + j) % absent.length]!),
            ),
            correctAnswer: t.text,
            points: 1,
          };
  const checked = checkQuestion(base, type);
  if (!checked.ok || seen.has(normalizeText(base.questionText))) return undefined;
  seen.add(normalizeText(base.questionText));
  return checked.question;
}
