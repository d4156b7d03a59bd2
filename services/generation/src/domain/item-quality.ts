// The quality gate of generated items: the rules a teacher would check by eye, each
// testable on its own. The offline generator keeps only items that pass; `npm run quality`
// reports the share of items passing over the corpus in services/generation/quality, and the
// openai provider's recorded answers are held to the same rules in its test.
import nlp from 'compromise';
import {
  DANGLING_OPENERS,
  flipComparison,
  memo,
  mentions,
  numberKind,
  OPPOSITE,
  RELATIVE_TIME,
  sameCategory,
  termKey,
  type Lesson,
} from './lesson.ts';
import type { GeneratedQuestion } from './question.ts';
import { posTags } from './tagger.ts';

export const QUALITY_RULES = [
  'distinct_options',
  'key_among_options',
  'same_kind_options',
  'distractor_of_key_kind',
  'one_defensible_answer',
  'answer_not_in_stem',
  'no_dangling_pronoun',
  'true_false_statement',
  'false_statement_swap',
  'no_cue_between_items',
  'no_repeat_across_types',
  'no_duplicates',
] as const;

/**
 * What an item asks of a student: recall of one sentence, or more (a term from its description,
 * an effect from its cause, the order of events or steps, an example of a concept, a comparison
 * of two things of one kind).
 */
export const SKILLS = ['recall', 'definition', 'cause', 'sequence', 'example', 'comparison'] as const;
export type Skill = (typeof SKILLS)[number];
export type QualityRule = (typeof QUALITY_RULES)[number];

export interface QualityIssue {
  rule: QualityRule;
  detail: string;
}

export type CheckedItem = Pick<GeneratedQuestion, 'questionText' | 'questionType' | 'options' | 'correctAnswer'>;

const PREFIX =
  /^(?:true or false|fill in the blank|complete the sentence|which (?:term|name|number|year) (?:matches this description|completes the sentence))\s*[:?-]\s*/i;
const BLANK = /_{3,}/;
const norm = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/_{3,}/g, ' ')
    .replace(/[^\p{L}\p{N}%]+/gu, ' ')
    .trim();

/** The stem without an instruction such as "True or False:". */
export function stemBody(questionText: string): string {
  return questionText.trim().replace(PREFIX, '').trim();
}

/**
 * What kind of thing an option is: a name (capitalized words), a singular or plural noun
 * phrase, a year, a percentage, a number, an adjective, a clause (has a verb) or other.
 */
export const optionKind = memo((option: string): string => {
  const text = option.trim();
  const num = numberKind(text);
  if (num) return num === 'year' ? 'year' : num;
  if (/^(?:true|false)$/i.test(text)) return 'truth';
  const words = text.split(/\s+/);
  const tagsOf = (t: string) =>
    (nlp(t).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((s) => s.terms);
  const alone = tagsOf(text);
  if (alone.length === 1 && alone[0]!.tags.includes('Adjective') && !alone[0]!.tags.includes('Noun'))
    return 'adjective';
  // A short phrase is read after "the" first, so "parts" is the noun it is as an option, not a verb.
  if (words.length <= 4 && !/^(?:the|a|an)$/i.test(words[0] ?? '')) {
    const framed = tagsOf(`the ${text}`).slice(1);
    const last = framed[framed.length - 1];
    if (
      framed.length === words.length &&
      last?.tags.includes('Noun') &&
      !last.tags.includes('Pronoun') &&
      framed.every((t) => (t.tags.includes('Noun') || t.tags.includes('Adjective')) && !t.tags.includes('Verb'))
    ) {
      if (words.every((w) => /^[A-Z\u00C0-\u00DE0-9]/.test(w) || /^(?:of|the|and|de|von|van)$/.test(w))) return 'name';
      return last.tags.includes('Plural') ? 'noun-pl' : 'noun-sg';
    }
  }
  const terms = alone;
  if (terms.length === 0) return 'other';
  const tags = terms.map((t) => new Set(t.tags));
  const hasVerb = tags.some((t) => t.has('Verb') && !t.has('Gerund') && !t.has('Noun'));
  if (hasVerb && words.length >= 2) return 'clause';
  if (words.every((w) => /^[A-Z\u00C0-\u00DE0-9]/.test(w) || /^(?:of|the|and|de|von|van)$/.test(w))) return 'name';
  const last = tags[tags.length - 1]!;
  if (last.has('Noun') && !last.has('Pronoun'))
    return tags.every((t) => t.has('Noun') || t.has('Adjective'))
      ? last.has('Plural')
        ? 'noun-pl'
        : 'noun-sg'
      : 'other';
  if (tags.length === 1 && last.has('Adjective')) return 'adjective';
  if (hasVerb) return 'verb';
  return 'other';
});

/** Word-building prefixes: "nonmetals" beside "metals" is another thing, not a kind of it. */
const PREFIXES = new Set(
  'a an anti auto bi co counter de dis en ex extra hyper hypo il im in inter intra ir macro mega meta micro mid mini mis mono multi neo non omni out over poly post pre pro re semi sub super trans tri ultra un under'.split(
    ' ',
  ),
);
/** A word without its plural ending: "bees" and "bee" are one word here. */
const singular = (word: string) => (word.length > 3 ? word.replace(/(?:(?<=ss|sh|ch|x|z)es|(?<!s)s)$/, '') : word);

/**
 * Whether two options name one thing, or one names a kind of the other, so that a student could
 * defend both: "bees" beside "honeybees" or "worker bees", "plantation" beside "plantations".
 */
export function namesSameThing(a: string, b: string): boolean {
  const [wa, wb] = [a, b].map((x) => (norm(x).match(/[\p{L}\p{N}]+/gu) ?? []).map(singular));
  if (!wa!.length || !wb!.length) return false;
  // Every word of one within the other: "bees" and "worker bees", "inflation" and "inflation rate".
  if (wa!.every((w) => wb!.includes(w)) || wb!.every((w) => wa!.includes(w))) return true;
  // A compound that ends in a word of the other: "honeybee" and "bee", not "nonmetal" and "metal".
  return wa!.some((x) =>
    wb!.some((y) => {
      const [short, long] = x.length <= y.length ? [x, y] : [y, x];
      const head = long.slice(0, long.length - short.length);
      return short.length >= 3 && long.endsWith(short) && head.length >= 3 && !PREFIXES.has(head);
    }),
  );
}

function firstWords(body: string): string[] {
  // The opening word, and the one after a colon (a quoted description or clause).
  return [body, ...body.split(/:\s+/).slice(1)]
    .map((part) => (part.match(/[\p{L}’']+/u)?.[0] ?? '').toLowerCase())
    .filter(Boolean);
}

/** The rules one item breaks on its own (duplicates need the set: see checkItems). */
export function checkItem(q: CheckedItem): QualityIssue[] {
  const issues: QualityIssue[] = [];
  const body = stemBody(q.questionText);
  const options = q.options.map((o) => o.trim());
  if (q.questionType === 'multiple_choice') {
    if (new Set(options.map(norm)).size !== options.length || options.length < 2)
      issues.push({ rule: 'distinct_options', detail: `options repeat: ${options.join(' / ')}` });
    if (!options.some((o) => norm(o) === norm(q.correctAnswer)))
      issues.push({ rule: 'key_among_options', detail: `"${q.correctAnswer}" is not an option` });
    const rival = options.find((o) => norm(o) !== norm(q.correctAnswer) && namesSameThing(o, q.correctAnswer));
    if (rival)
      issues.push({ rule: 'one_defensible_answer', detail: `"${rival}" names "${q.correctAnswer}" or a kind of it` });
    const keyKind = optionKind(q.correctAnswer);
    const odd = options.filter((o) => optionKind(o) !== keyKind);
    if (odd.length)
      issues.push({
        rule: 'same_kind_options',
        detail: `key is ${keyKind}; ${odd.map((o) => `"${o}" is ${optionKind(o)}`).join(', ')}`,
      });
  }
  if (q.questionType === 'true_false') {
    if (options.length !== 2 || norm(options[0] ?? '') !== 'true' || norm(options[1] ?? '') !== 'false')
      issues.push({ rule: 'distinct_options', detail: 'true/false options must be True and False' });
    if (!['true', 'false'].includes(norm(q.correctAnswer)))
      issues.push({ rule: 'key_among_options', detail: `"${q.correctAnswer}" is neither True nor False` });
    const terms = (nlp(body).json() as { terms: { tags: string[] }[] }[]).flatMap((s) => s.terms);
    const words = body.match(/[\p{L}\p{N}]+/gu) ?? [];
    const problem = !/[.!]$/.test(body)
      ? 'does not end as a statement'
      : BLANK.test(body)
        ? 'has a blank'
        : words.length < 4
          ? 'is not a sentence'
          : !terms.some((t) => t.tags.includes('Verb') && !t.tags.includes('Gerund'))
            ? 'has no verb (a topic, not a statement)'
            : undefined;
    if (problem) issues.push({ rule: 'true_false_statement', detail: `"${body}" ${problem}` });
  } else if (q.correctAnswer.trim() && mentions(body.replace(BLANK, ' '), q.correctAnswer.trim()))
    issues.push({ rule: 'answer_not_in_stem', detail: `"${q.correctAnswer}" stands in the stem` });
  const dangling =
    firstWords(body).find((w) => DANGLING_OPENERS.has(w)) ??
    leaningWord(lessonPart(body)) ??
    RELATIVE_TIME.exec(body)?.[0].toLowerCase();
  if (dangling) issues.push({ rule: 'no_dangling_pronoun', detail: `the stem leans on "${dangling}"` });
  return issues;
}

/** The frames the generator writes around the lesson's words ("Which of these …", "… because …?"). */
const FRAME =
  /^(?:according to the lesson,\s*)?(?:which of these\s+(?:happened (?:first|last)\??|does the lesson give as an example of\s+)?|what happens (?:because|when|if)\s+|what happens right after this step:\s*|what leads to this result:\s*|why (?:do|does|did)\s+|what (?:causes|caused|leads to|led to|results in|resulted in|produces|produced|creates|created)\s+)/i;
const lessonPart = (body: string) => body.replace(FRAME, '');

const LEANING = new Set('it its they them their theirs he him his she her hers this these those such'.split(' '));

/** A pronoun or demonstrative before the text names anything: it points at a sentence not shown. */
function leaningWord(text: string): string | undefined {
  const terms = (nlp(text).json() as { terms: { text: string; tags: string[] }[] }[]).flatMap((x) => x.terms);
  for (const t of terms) {
    const w = t.text.toLowerCase();
    if (LEANING.has(w)) return w;
    if (t.tags.includes('Noun') && !t.tags.includes('Pronoun')) break;
    if (t.tags.includes('Value')) break;
  }
  const m = /\b(these|those|such(?! as\b)|the same(?=\s+(?!as\b)[a-z])|the former|the latter)\b/i.exec(text);
  return m ? m[1]!.toLowerCase() : undefined;
}

const STOP = new Set(
  'a an the of to in on at by for from with and or but is are was were be been being it its this that these those as into than then so because which what who when where how why do does did not no can will would could should has have had their there they them he she his her true false complete sentence fill blank lesson according happens following statement term matches description'.split(
    ' ',
  ),
);
/** The words that carry meaning, lower case. */
const contentWords = memo((text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}%]+/gu) ?? []).filter((w) => !STOP.has(w) && !/^_+$/.test(w)),
);

/** The skill an item asks for, read from its wording (and the lesson, for swapped statements). */
export function itemSkill(q: CheckedItem, lesson?: Lesson): Skill {
  const body = stemBody(q.questionText);
  if (/matches this description|which (?:term|word) means/i.test(q.questionText) || /^the term for .+ is /i.test(body))
    return 'definition';
  if (/^(?:the lesson gives .+ as an example of |what example of .+ does the lesson give)/i.test(body))
    return 'example';
  if (
    /happened (?:first|last)|right after this step|what comes next|^in the lesson, the step .+ comes before the step/i.test(
      body,
    )
  )
    return 'sequence';
  if (
    /^according to the lesson, (?:what (?:happens|happened) (?:because|when|whenever|if|as|once)|what leads to this result|why (?:do|does|did)|what (?:causes|caused|leads to|led to|results in|resulted in|produces|produced|creates|created))\b/i.test(
      body,
    )
  )
    return 'cause';
  if (q.questionType === 'multiple_choice' && /^which of these .+ than /i.test(body)) return 'comparison';
  if (q.questionType === 'true_false' && lesson) {
    // "Because B, A." where the lesson says A because B: cause and effect the other way round.
    const turned = /^Because (.+?), (.+?)\.$/.exec(body);
    if (
      turned &&
      lesson.sentences.some(
        (s) => s.cause && norm(s.cause.effect) === norm(turned[1]!) && norm(s.cause.cause) === norm(turned[2]!),
      )
    )
      return 'cause';
    // "When A, C." where the lesson says "When A, B" and C is what follows another of its conditions.
    const conditional = /^(?:when|whenever|if|as|once) (.+?), (.+?)\.$/i.exec(body);
    const linked = lesson.sentences.filter((s) => s.cause?.link);
    if (
      conditional &&
      norm(q.correctAnswer) === 'false' &&
      linked.some(
        (s) =>
          norm(s.cause!.cause) === norm(conditional[1]!) &&
          norm(s.cause!.effect) !== norm(conditional[2]!) &&
          linked.some((o) => o !== s && norm(o.cause!.effect) === norm(conditional[2]!)),
      )
    )
      return 'cause';
    // "A before B": two events of the lesson put in an order; an exchange of two terms of one kind.
    // Two dated events of the lesson in an order (the generator's "A before B").
    const events = lesson.sentences.flatMap((s) => (s.event ? [s.event.clause] : []));
    const parts = body.replace(/[.!]$/, '').split(' before ');
    if (parts.length === 2 && parts.every((p) => events.some((e) => norm(e) === norm(p)))) return 'sequence';
    if (norm(q.correctAnswer) === 'false' && exchanged(body, lesson)) return 'comparison';
    // One comparative of a comparing sentence turned into its opposite ("less water than …").
    if (norm(q.correctAnswer) === 'false' && flipped(body, lesson)) return 'comparison';
    // A definition of the lesson said of another of its terms: which term does it describe?
    const src = norm(q.correctAnswer) === 'false' ? sourceOf(body, lesson) : undefined;
    const definition = src && lesson.sentences.find((s) => s.text === src.text)?.definition;
    if (definition && src.hunks.length === 1 && termKey(src.hunks[0]!.del.join(' ')) === definition.key)
      return 'definition';
  }
  return 'recall';
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}%’'-]+/gu) ?? [];

interface Hunk {
  /** Index in the lesson sentence's words where the change starts. */
  at: number;
  del: string[];
  ins: string[];
}

/** The changes that turn `a` into `b`, word by word (longest common subsequence). */
function diff(a: string[], b: string[]): { hunks: Hunk[]; common: number } {
  const n = a.length;
  const m = b.length;
  const dp = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const hunks: Hunk[] = [];
  let [i, j] = [0, 0];
  let open: Hunk | undefined;
  const close = () => {
    if (open && (open.del.length || open.ins.length)) hunks.push(open);
    open = undefined;
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      close();
      i++;
      j++;
    } else if (j < m && (i === n || dp[i]![j + 1]! >= dp[i + 1]![j]!)) {
      open ??= { at: i, del: [], ins: [] };
      open.ins.push(b[j++]!);
    } else {
      open ??= { at: i, del: [], ins: [] };
      open.del.push(a[i++]!);
    }
  }
  close();
  return { hunks, common: dp[0]![0]! };
}

/** The lesson sentence a statement was made from: the one it changes least. */
function sourceOf(statement: string, lesson: Lesson) {
  const b = words(statement);
  let best: { text: string; a: string[]; hunks: Hunk[]; common: number } | undefined;
  for (const s of lesson.sentences) {
    const a = words(s.text);
    const d = diff(a, b);
    const size = d.hunks.reduce((n, h) => n + h.del.length + h.ins.length, 0);
    const bestSize = best ? best.hunks.reduce((n, h) => n + h.del.length + h.ins.length, 0) : Infinity;
    if (size < bestSize) best = { text: s.text, a, ...d };
  }
  return best && best.common >= 0.6 * best.a.length ? best : undefined;
}

const NEGATION = new Set(
  "not never no n't do does did don't doesn't didn't cannot can't isn't aren't wasn't weren't".split(' '),
);

/** A lesson sentence with one comparative turned into its opposite, where the sentence compares. */
function flipped(statement: string, lesson: Lesson): boolean {
  const src = sourceOf(statement, lesson);
  const h = src?.hunks[0];
  return (
    !!src &&
    src.hunks.length === 1 &&
    h!.del.length === 1 &&
    h!.ins.length === 1 &&
    OPPOSITE.get(h!.del[0]!) === h!.ins[0] &&
    norm(flipComparison(src.text) ?? '') === norm(statement)
  );
}

/** Two terms of one kind trade places in one sentence ("animal cells have … that plant cells lack"). */
function exchanged(statement: string, lesson: Lesson): boolean {
  const src = sourceOf(statement, lesson);
  if (!src || src.hunks.length < 2) return false;
  const phrases = src.hunks.flatMap((h) => [h.del.join(' '), h.ins.join(' ')]).filter(Boolean);
  const dels = src.hunks
    .map((h) => h.del.join(' '))
    .filter(Boolean)
    .sort();
  const ins = src.hunks
    .map((h) => h.ins.join(' '))
    .filter(Boolean)
    .sort();
  return (
    dels.length === 2 &&
    dels.join('|') === ins.join('|') &&
    phrases.length >= 4 &&
    sameCategory(lesson, termKey(dels[0]!), termKey(dels[1]!), true)
  );
}

/** The part of speech of the words of a hunk where they stand in their sentence. */
function posAt(text: string, at: number, length: number): string[] {
  // wink splits "jelly-like" and "don't" differently: count its words against ours.
  const tags = posTags(text);
  const ours = words(text);
  if (tags.length !== ours.length) return [];
  return tags.slice(at, at + length).map((t) => t.pos);
}

const nounish = (pos: string) => pos === 'NOUN' || pos === 'PROPN';

/**
 * Why a false statement is not a fair one, or undefined: it must change its lesson sentence in one
 * way a careful reader can catch, and stay a sentence a student could believe. Allowed: a number
 * for a number of its kind, a term for a term the lesson shows as the same kind in the same number
 * and part of speech, two such terms trading places, or the verb negated.
 */
export function swapProblem(statement: string, lesson: Lesson): string | undefined {
  const src = sourceOf(statement, lesson);
  if (!src) return undefined;
  if (src.hunks.length === 0) return 'is a lesson sentence as written, marked False';
  // A negation: only negating words added (a verb may change form beside them); dropping words is none.
  if (
    src.hunks.every(
      (h) =>
        (h.ins.length > 0 && h.ins.every((w) => NEGATION.has(w))) ||
        (h.del.length <= 1 && h.ins.some((w) => NEGATION.has(w))),
    )
  )
    return undefined;
  if (exchanged(statement, lesson)) return undefined;
  if (src.hunks.length > 1) return `changes ${src.hunks.length} places of "${src.text}"`;
  const h = src.hunks[0]!;
  const [d, i] = [h.del.join(' '), h.ins.join(' ')];
  if (!d || !i) return `adds or drops words of "${src.text}"`;
  const [dn, inum] = [numberKind(d), numberKind(i)];
  if (dn || inum) return dn === inum ? undefined : `"${i}" for "${d}" is not a number of the same kind`;
  const [kd, ki] = [termKey(d), termKey(i)];
  if (!lesson.terms.has(kd) || !lesson.terms.has(ki))
    return `"${i}" for "${d}" is not a swap of two terms of the lesson`;
  if (!sameCategory(lesson, kd, ki))
    return `"${i}" for "${d}": the lesson does not show them as the same kind of thing`;
  if (optionKind(d) !== optionKind(i))
    return `"${i}" for "${d}" changes the number (${optionKind(i)} for ${optionKind(d)})`;
  const before = posAt(src.text, h.at, h.del.length);
  const bAt = words(statement).indexOf(h.ins[0]!);
  const after: string[] = bAt >= 0 ? posAt(statement, bAt, h.ins.length) : [];
  if (before.length && after.length && nounish(before[before.length - 1]!) !== nounish(after[after.length - 1]!))
    return `"${i}" reads as ${after[after.length - 1]} where "${d}" was ${before[before.length - 1]}`;
  return undefined;
}

/** Why a multiple-choice distractor is not of the key's kind in the lesson, or undefined. */
function distractorProblem(q: CheckedItem, lesson: Lesson): string | undefined {
  const key = termKey(q.correctAnswer.trim());
  if (!lesson.terms.has(key)) return undefined;
  const defined = new Set(lesson.sentences.flatMap((s) => (s.definition ? [s.definition.key] : [])));
  const definitionStem = /matches this description/i.test(q.questionText);
  for (const o of q.options) {
    const k = termKey(o.trim());
    if (k === key) continue;
    if (!lesson.terms.has(k)) return `"${o}" is not a term of the lesson`;
    if (sameCategory(lesson, key, k, true) || (definitionStem && defined.has(k) && defined.has(key))) continue;
    return `the lesson does not show "${o}" as the same kind of thing as "${q.correctAnswer}"`;
  }
  return undefined;
}

/** The lesson-aware rules of one item: fair false statements and distractors of the key's kind. */
function checkAgainstLesson(q: CheckedItem, lesson: Lesson): QualityIssue[] {
  const issues: QualityIssue[] = [];
  if (q.questionType === 'true_false' && norm(q.correctAnswer) === 'false' && itemSkill(q, lesson) === 'recall') {
    const problem = swapProblem(stemBody(q.questionText), lesson);
    if (problem) issues.push({ rule: 'false_statement_swap', detail: problem });
  }
  if (q.questionType === 'multiple_choice') {
    const problem = distractorProblem(q, lesson);
    if (problem) issues.push({ rule: 'distractor_of_key_kind', detail: problem });
  }
  return issues;
}

/** True when `later`'s stem gives away `earlier`'s answer: it names the key in the words around it. */
function cues(earlier: CheckedItem, later: CheckedItem): boolean {
  if (earlier.questionType === 'true_false' || !earlier.correctAnswer.trim()) return false;
  const laterText = [stemBody(later.questionText), ...(later.questionType === 'true_false' ? [] : [])].join(' ');
  if (!mentions(laterText, earlier.correctAnswer.trim())) return false;
  const context = contentWords(lessonPart(stemBody(earlier.questionText)));
  const have = new Set(contentWords(laterText));
  const shared = context.filter((w) => have.has(w)).length;
  return shared >= 2 && shared >= context.length / 2;
}

const overlap = (a: string, b: string) => {
  const x = new Set(norm(a).split(' '));
  const y = new Set(norm(b).split(' '));
  const shared = [...x].filter((w) => y.has(w)).length;
  return shared / Math.max(1, Math.min(x.size, y.size));
};

/**
 * Every item with the rules it breaks. A duplicate is a later item with the same stem, or the
 * same question in other words: nearly the same words and the same answer (one blank asked as
 * multiple choice and as short answer), or a statement and its negation.
 */
export function checkItems(
  items: readonly CheckedItem[],
  lesson?: Lesson,
): { item: CheckedItem; issues: QualityIssue[] }[] {
  return items.map((item, i) => ({ item, issues: checkNext(items.slice(0, i), item, lesson) }));
}

/**
 * The rules `item` breaks when it joins `earlier`: its own, the lesson's (when given), and those
 * of a set: no duplicate, no item giving away another's answer, no sentence asked twice.
 */
export function checkNext(earlier: readonly CheckedItem[], item: CheckedItem, lesson?: Lesson): QualityIssue[] {
  const issues = checkItem(item);
  if (lesson) issues.push(...checkAgainstLesson(item, lesson));
  const cued = earlier.find((e) => cues(e, item) || cues(item, e));
  if (cued)
    issues.push({ rule: 'no_cue_between_items', detail: `gives away or is given away by "${cued.questionText}"` });
  const body = stemBody(item.questionText);
  const twin = earlier.find(
    (e) =>
      norm(stemBody(e.questionText)) === norm(body) ||
      (overlap(stemBody(e.questionText), body) >= 0.8 &&
        (item.questionType === 'true_false' || norm(e.correctAnswer) === norm(item.correctAnswer))),
  );
  if (twin) issues.push({ rule: 'no_duplicates', detail: `same as "${twin.questionText}"` });
  else {
    const mine = lessonPart(body);
    const repeat = earlier.find((e) => {
      const theirs = lessonPart(stemBody(e.questionText));
      const [x, y] = [new Set(contentWords(theirs)), contentWords(mine)];
      const shared = y.filter((w) => x.has(w)).length;
      return shared >= 4 && shared >= 0.6 * Math.min(x.size, new Set(y).size);
    });
    if (repeat)
      issues.push({ rule: 'no_repeat_across_types', detail: `asks the sentence of "${repeat.questionText}" again` });
  }
  return issues;
}

export interface QualityReport {
  items: number;
  passing: number;
  /** Items per skill; all but recall are beyond recall. */
  skills: Record<Skill, number>;
  beyondRecall: number;
  /** Items passing each rule (an item may break several). */
  perRule: Record<QualityRule, number>;
  failures: { questionText: string; rule: QualityRule; detail: string }[];
}

export function qualityReport(
  sets: readonly (readonly CheckedItem[])[],
  lessons: readonly (Lesson | undefined)[] = [],
): QualityReport {
  const perRule = Object.fromEntries(QUALITY_RULES.map((r) => [r, 0])) as Record<QualityRule, number>;
  const skills = Object.fromEntries(SKILLS.map((k) => [k, 0])) as Record<Skill, number>;
  const failures: QualityReport['failures'] = [];
  let items = 0;
  let passing = 0;
  for (const [n, set] of sets.entries())
    for (const { item, issues } of checkItems(set, lessons[n])) {
      items++;
      skills[itemSkill(item, lessons[n])]++;
      if (issues.length === 0) passing++;
      for (const rule of QUALITY_RULES) if (!issues.some((x) => x.rule === rule)) perRule[rule]++;
      for (const x of issues) failures.push({ questionText: item.questionText, rule: x.rule, detail: x.detail });
    }
  return { items, passing, skills, beyondRecall: items - skills.recall, perRule, failures };
}
