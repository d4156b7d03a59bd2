// The quality gate of generated items (issue 13): the rules a teacher would check by eye, each
// testable on its own. The offline generator keeps only items that pass; `npm run quality`
// reports the share of items passing over the corpus in services/generation/quality, and the
// openai provider's recorded answers are held to the same rules in its test.
import nlp from 'compromise';
import { DANGLING_OPENERS, memo, mentions, numberKind } from './lesson.ts';
import type { GeneratedQuestion } from './question.ts';

export const QUALITY_RULES = [
  'distinct_options',
  'key_among_options',
  'same_kind_options',
  'answer_not_in_stem',
  'no_dangling_pronoun',
  'true_false_statement',
  'no_duplicates',
] as const;
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
  const dangling = firstWords(body).find((w) => DANGLING_OPENERS.has(w));
  if (dangling) issues.push({ rule: 'no_dangling_pronoun', detail: `the stem leans on "${dangling}"` });
  return issues;
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
export function checkItems(items: readonly CheckedItem[]): { item: CheckedItem; issues: QualityIssue[] }[] {
  return items.map((item, i) => ({ item, issues: checkNext(items.slice(0, i), item) }));
}

/** The rules `item` breaks when it joins `earlier` (its own rules and no_duplicates). */
export function checkNext(earlier: readonly CheckedItem[], item: CheckedItem): QualityIssue[] {
  const issues = checkItem(item);
  const body = stemBody(item.questionText);
  const twin = earlier.find(
    (e) =>
      norm(stemBody(e.questionText)) === norm(body) ||
      (overlap(stemBody(e.questionText), body) >= 0.8 &&
        (item.questionType === 'true_false' || norm(e.correctAnswer) === norm(item.correctAnswer))),
  );
  if (twin) issues.push({ rule: 'no_duplicates', detail: `same as "${twin.questionText}"` });
  return issues;
}

export interface QualityReport {
  items: number;
  passing: number;
  /** Items passing each rule (an item may break several). */
  perRule: Record<QualityRule, number>;
  failures: { questionText: string; rule: QualityRule; detail: string }[];
}

export function qualityReport(sets: readonly (readonly CheckedItem[])[]): QualityReport {
  const perRule = Object.fromEntries(QUALITY_RULES.map((r) => [r, 0])) as Record<QualityRule, number>;
  const failures: QualityReport['failures'] = [];
  let items = 0;
  let passing = 0;
  for (const set of sets)
    for (const { item, issues } of checkItems(set)) {
      items++;
      if (issues.length === 0) passing++;
      for (const rule of QUALITY_RULES) if (!issues.some((x) => x.rule === rule)) perRule[rule]++;
      for (const x of issues) failures.push({ questionText: item.questionText, rule: x.rule, detail: x.detail });
    }
  return { items, passing, perRule, failures };
}
