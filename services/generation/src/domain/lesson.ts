// Reads a teacher's lesson with compromise (an English NLP library: sentence splitting, part of
// speech, people and places): sentences that can stand alone as a stem, their key terms (noun
// phrases, names and numbers) with a kind that distractors must share, definitions ("X is the
// …") and cause and effect ("because …"). Everything the offline generator asks comes from here.
import nlp from 'compromise';
import { memo } from './memo.ts';
import { posTags } from './tagger.ts';

export { memo };

/** A term's kind: a distractor must be of the same kind (and, for nouns, the same number). */
export type TermKind = 'person' | 'place' | 'name' | 'noun' | 'year' | 'percent' | 'number';

export interface Term {
  /** As written in running text: common nouns in lower case, names as written. */
  text: string;
  /** Lower-case singular: one key for "cell" and "cells". */
  key: string;
  kind: TermKind;
  plural: boolean;
  count: number;
  score: number;
  firstAt: number;
}

export interface Occurrence {
  key: string;
  /** The words as they stand in the sentence. */
  surface: string;
}

/** The word that ties a condition to what follows it: "what happens when …". */
export type CauseLink = 'when' | 'whenever' | 'if' | 'as' | 'once';

export interface Sentence {
  text: string;
  index: number;
  words: number;
  /** Terms in this sentence, best first. */
  terms: Occurrence[];
  /** Declarative, ends with a full stop, has a verb, does not lean on an earlier sentence. */
  standalone: boolean;
  /** An instruction that stands alone ("Rinse your hands under running water."): a step, not a fact. */
  instruction?: boolean;
  /** "X is/are the …": a description of a term of the text. */
  definition?: { key: string; surface: string; description: string; copula: string };
  /** "Because A, B." / "B because A." / "A, so B." / "A. As a result, B." / "When A, B." */
  cause?: { cause: string; effect: string; link?: CauseLink };
  /** The linking word it opened with: a step of a sequence, or a result of the sentence before. */
  marker?: 'first' | 'step' | 'result';
  /** The one year it names, and the sentence as an event without it ("James Watt improved …"). */
  event?: { year: number; clause: string };
}

export interface Lesson {
  sentences: Sentence[];
  terms: Map<string, Term>;
  /** Term keys, best first. */
  ranked: string[];
  /** Words of running text (not counting list markers or symbols). */
  words: number;
  /**
   * What kind of thing each term is, as the lesson shows it: listed together ("plants, algae and
   * fungi"), named as one kind ("chloroplasts are organelles", "organelles such as …", "a fluid
   * called cytoplasm"), the same head noun ("plant cell", "animal cell"), or the same kind of name
   * or number. Swaps and distractors stay within a category: an organelle for an organelle.
   */
  categories: Map<string, Set<string>>;
  /** "H such as A, B and C": the examples the lesson gives of H (term keys). */
  examples: Map<string, string[]>;
  /** Steps of a process in order ("First …, Next …, Finally …"), each run at least three long. */
  sequences: Sentence[][];
}

export const MAX_ANALYSED_CHARS = 20_000;
const MAX_SENTENCE_WORDS = 45;

/** Opening words that point back at an earlier sentence: the stem would not stand on its own. */
export const DANGLING_OPENERS = new Set(
  'it its they them their theirs he him his she her hers this these those that such both another either neither latter former here there’s also'.split(
    ' ',
  ),
);
/**
 * A time counted from something said before ("A few days later, …", "Two weeks after that, …",
 * "Soon after, …"): the sentence does not stand on its own (later than what?).
 */
export const RELATIVE_TIME =
  /\b(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|many|some|\d+)\s+(?:more\s+)?(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?|decades?|centuries?|moments?)\s+(?:later|earlier|afterwards?|after (?:that|this))|(?:soon|shortly|not long|long|right|just) (?:after|afterwards?|before)(?= *,)|(?:soon|shortly|not long) (?:after|afterwards?|later))\b/i;
/** Linking words at the start that can be dropped without changing the fact. */
const DISCOURSE =
  /^(?:(?:however|also|in addition|moreover|furthermore|still|instead|then|later|meanwhile|today|for example|for instance|in fact|of course|in other words|overall|similarly|likewise|in short|as a result|therefore|thus|so|in the end|at first|at last|after that|afterwards|soon|because of this|for this reason|consequently|first of all|to begin)\b,?|(?:finally|first|second|third|fourth|next|last|lastly),)\s+/i;
// "First Amendment", "Second Continental Congress": an ordinal is a linking word only before a comma.
/** Nouns too general to ask about. */
const GENERIC = new Set(
  'thing way lot kind sort example fact something anything everything nothing someone anyone everyone time stuff bit lesson text question answer part type number amount use one ones others other people person place idea word reason result process unit material parts'.split(
    ' ',
  ),
);
const COPULA = /^(?:is|are|was|were)$/i;
const WH = /^(?:who|what|when|where|why|how|which|whose|whom|do|does|did|can|could|should|would|is|are|was|were)$/i;

interface Token {
  text: string;
  tags: Set<string>;
  pre: string;
  post: string;
}

const lower = (s: string) => s.toLowerCase();
const capitalized = (s: string) => /^[A-Z\u00C0-\u00DE]/.test(s);
export const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
export const endWithStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s.replace(/[,;:]$/, '')}.`);
const wordCount = (s: string) => (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;

/** Singular, lower-case key of a noun phrase ("Red blood cells" → "red blood cell"). */
export const termKey = memo((text: string): string => {
  if (/^\d/.test(text)) return text;
  return lower(inflect(text, false)).replace(/[’]/g, "'");
});

// A word alone is often read as a verb ("parts"): after "the" it is read as the noun it is here.
const inflected = memo((key: string): string => {
  const [plural, text] = [key.startsWith('p:'), key.slice(2)];
  const doc = nlp(`the ${text}`);
  const out = (plural ? doc.nouns().toPlural().text() : doc.nouns().toSingular().text()).replace(/^the\s+/i, '');
  return out && out.split(' ').length === text.split(' ').length ? out : text;
});

/** A noun phrase in the given number ("cell" → "cells"), for distractors that fit the blank. */
export const inflect = (text: string, plural: boolean): string => inflected(`${plural ? 'p' : 's'}:${text}`);

/** Lines and bullets become sentences; compromise splits the rest. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.slice(0, MAX_ANALYSED_CHARS).split(/\r?\n/)) {
    const line = rawLine
      .replace(/^\s*(?:[-*•·–]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!line) continue;
    for (const s of nlp(line).sentences().out('array') as string[]) {
      const trimmed = s.trim().replace(/^["“]+|["”]+$/g, '');
      if (trimmed) out.push(trimmed);
    }
  }
  return out;
}

function tokensOf(sentence: string): Token[] {
  const doc = nlp(sentence).json() as { terms: { text: string; tags: string[]; pre: string; post: string }[] }[];
  const tokens = doc.flatMap((s) =>
    s.terms.map((t) => ({ text: t.text, tags: new Set(t.tags), pre: t.pre, post: t.post })),
  );
  // "Plant cells have …" is no instruction: a first word read as a verb, right before a plural
  // noun that a verb follows, modifies that noun.
  const [first, second, third, fourth] = tokens;
  if (
    first?.tags.has('Verb') &&
    (first.tags.has('Infinitive') || first.tags.has('Imperative')) &&
    second?.tags.has('Noun') &&
    second.tags.has('Plural') &&
    !first.post.trim() &&
    (third?.tags.has('Verb') || (third?.tags.has('Adverb') && fourth?.tags.has('Verb')))
  ) {
    first.tags.delete('Verb');
    first.tags.delete('Infinitive');
    first.tags.add('Noun');
    first.tags.add('Singular');
  }
  // "Inside the membrane is …": a preposition, not an instruction.
  if (
    first &&
    /^(?:inside|outside|under|above|below|within|beneath|near|around|along|across|between|during)$/i.test(first.text)
  ) {
    first.tags.delete('Verb');
    first.tags.delete('Infinitive');
    first.tags.add('Preposition');
  }
  // "Mitochondria release energy from food, …": with no verb before the first comma, a word of
  // the opening run of nouns that reads as a verb on its own is the verb.
  const comma = tokens.findIndex((t) => /[,;:]/.test(t.post));
  const opening = tokens.slice(0, comma < 0 ? tokens.length : comma + 1);
  if (!opening.some((t) => t.tags.has('Verb'))) {
    for (let i = 1; i < opening.length; i++) {
      const t = opening[i]!;
      if (!t.tags.has('Noun') || !readsAsVerb(t.text) || /^(?:a|an|the)$/i.test(tokens[i - 1]!.text)) continue;
      t.tags.delete('Noun');
      t.tags.add('Verb');
      break;
    }
  }
  return tokens;
}

const NUMBER = /^\d+(?:[.,]\d+)*%?$/;

export function numberKind(text: string, before?: string): TermKind | undefined {
  if (!NUMBER.test(text)) return undefined;
  if (text.endsWith('%')) return 'percent';
  const n = Number(text.replace(/,/g, ''));
  if (
    /^\d{4}$/.test(text) &&
    n >= 1000 &&
    n <= 2100 &&
    (!before || /^(?:in|of|by|since|until|from|to|after|before|around|during)$/i.test(before))
  )
    return 'year';
  return 'number';
}

const AUXILIARY = /^(?:has|have|had|is|are|was|were|be|been|does|do|did|can|will|may)$/i;
const isNounToken = (t: Token) =>
  t.tags.has('Noun') &&
  !t.tags.has('Pronoun') &&
  !t.tags.has('Determiner') &&
  !t.tags.has('Value') &&
  !t.tags.has('Verb') &&
  !AUXILIARY.test(t.text) &&
  !PRONOUNS.has(t.text.toLowerCase()) &&
  !QUANTIFIERS.has(t.text.toLowerCase()) &&
  /^[\p{L}][\p{L}'’-]*$/u.test(t.text);
const PRONOUNS = new Set(
  'it its they them their he him his she her we us our you your i me my this that these those'.split(' '),
);
/** Words that count or point rather than name ("lays all the eggs"): never a term, never a blank. */
const QUANTIFIERS = new Set(
  'all some many most much more less few fewer several both each every either neither none any another other others everything something anything nothing everyone someone anyone nobody everybody somebody anybody'.split(
    ' ',
  ),
);

const readsAsVerb = memo((word: string) =>
  (nlp(word).json() as { terms: { tags: string[] }[] }[]).some((x) => x.terms.some((t) => t.tags.includes('Verb'))),
);

/**
 * "every community needs workers", "a librarian helps people": a word that reads as a verb, in
 * its third person after a singular noun and with an object after it, is the verb, not the end of
 * a noun phrase ("sound waves travel", "energy levels of atoms" stay phrases).
 */
function verbWithObject(prev: Token, word: Token, next: Token | undefined): boolean {
  return (
    prev.tags.has('Singular') &&
    /[^s]s$/.test(word.text) &&
    !/[,;:.!?)(—–]/.test(word.post) &&
    !!next &&
    (next.tags.has('Noun') || next.tags.has('Determiner') || next.tags.has('Adjective')) &&
    !next.tags.has('Pronoun') &&
    readsAsVerb(word.text)
  );
}

/** Noun phrases (runs of nouns), names and numbers of one sentence, in order. */
function extract(tokens: Token[]): { surface: string; kind: TermKind; plural: boolean; start: number }[] {
  const out: { surface: string; kind: TermKind; plural: boolean; start: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const num = numberKind(t.text, tokens[i - 1]?.text);
    if (num) {
      out.push({ surface: t.text, kind: num, plural: false, start: i });
      continue;
    }
    if (!isNounToken(t) || /^(?:a|an|the)$/i.test(t.text)) continue;
    // "a number line shows where", "each fraction lies": a plural right after a singular noun
    // that reads as a verb on its own is the verb.
    const before = tokens[i - 1];
    if (
      t.tags.has('Plural') &&
      before?.tags.has('Singular') &&
      !/[,;:.!?)(—–]/.test(before.post) &&
      readsAsVerb(t.text)
    )
      continue;
    let j = i;
    // A phrase ends at punctuation; names join capitalized words, common nouns join lower-case ones.
    const name =
      capitalized(t.text) && (i > 0 || t.tags.has('Person') || t.tags.has('Place') || t.tags.has('Organization'));
    while (
      j + 1 < tokens.length &&
      !/[,;:.!?)(—–]/.test(tokens[j]!.post) &&
      isNounToken(tokens[j + 1]!) &&
      capitalized(tokens[j + 1]!.text) === name &&
      !(name === false && verbWithObject(tokens[j]!, tokens[j + 1]!, tokens[j + 2]))
    )
      j++;
    // "the process plants use", "a number line shows where": the last word of a run of nouns
    // that reads as a verb on its own is the verb (or the subject of the next one).
    const after = tokens[j + 1];
    if (
      j > i &&
      i > 0 &&
      tokens[j]!.tags.has('Plural') &&
      ((after?.tags.has('Verb') && after.tags.has('Infinitive') && !/[,;:.!?]/.test(tokens[j]!.post)) ||
        readsAsVerb(tokens[j]!.text))
    )
      j--;
    const words = tokens.slice(i, j + 1);
    const next = tokens[j + 1];
    // A name right before a common noun modifies it ("English colony", "Atlantic coast"): the
    // noun is the term.
    if (name && next && isNounToken(next) && !/[,;:.!?)(—–]/.test(tokens[j]!.post)) {
      i = j;
      continue;
    }
    const surface = words.map((w) => w.text).join(' ');
    const last = words[words.length - 1]!;
    const kind: TermKind = !name
      ? 'noun'
      : words.some((w) => w.tags.has('Person'))
        ? 'person'
        : words.some((w) => w.tags.has('Place'))
          ? 'place'
          : 'name';
    out.push({ surface, kind, plural: last.tags.has('Plural'), start: i });
    i = j;
  }
  return out;
}

const STEP_FIRST = /^(?:first,|first of all|to begin|the first step)/i;
const STEP =
  /^(?:(?:second|third|fourth|next|finally|last|lastly),|then\b|after that\b|afterwards\b|later\b|at last\b|in the end\b)/i;
const RESULT = /^(?:as a result|therefore|thus|so|because of this|for this reason|consequently)\b/i;

function stripDiscourse(s: string): { text: string; marker?: Sentence['marker'] } {
  const marker = STEP_FIRST.test(s) ? 'first' : STEP.test(s) ? 'step' : RESULT.test(s) ? 'result' : undefined;
  let out = s;
  for (let k = 0; k < 2 && DISCOURSE.test(out); k++) out = out.replace(DISCOURSE, '');
  return { text: out === s ? s : upperFirst(out), marker: out === s ? undefined : marker };
}

function isStandalone(text: string, tokens: Token[]): boolean | 'instruction' {
  const first = tokens[0];
  if (!first) return false;
  if (!/\.$/.test(text)) return false;
  if (DANGLING_OPENERS.has(lower(first.text))) return false;
  if (RELATIVE_TIME.test(text)) return false;
  if (WH.test(first.text) && /\?$/.test(text)) return false;
  // An instruction ("Mix the flour.") is no statement of fact.
  if (first.tags.has('Verb') && first.tags.has('Infinitive') && !first.tags.has('Noun')) return 'instruction';
  if (!tokens.some((t) => t.tags.has('Verb'))) return false;
  // "Before it, …", "By then their …": a pronoun before the sentence names anything points back.
  for (const t of tokens) {
    if (isNounToken(t) || t.tags.has('Value')) break;
    if (LEANING.has(lower(t.text))) return false;
  }
  // "… these changes …", "… the same way": refers to something said before.
  if (/\b(?:these|those|such (?!as\b)|the same(?=\s+(?!as\b)[a-z])|the former|the latter|this (?!is\b))\b/i.test(text))
    return false;
  return true;
}

/** Words that point at something outside the sentence when nothing has been named before them. */
const LEANING = new Set(
  'it its they them their theirs he him his she her hers this these those that such there then'.split(' '),
);

const clause = (s: string) => s.trim().replace(/[.,;:]+$/, '');
/** A clause that opens with one of these needs another clause to make sense. */
const SUBORDINATE = /^(?:when|if|while|although|though|after|before|since|as|once|until|unless|whereas)\b/i;

function causeOf(text: string): Sentence['cause'] {
  const opener = (c: string) => DANGLING_OPENERS.has(lower(c.split(' ')[0] ?? ''));
  const pair = (cause: string, effect: string) =>
    SUBORDINATE.test(cause) ||
    SUBORDINATE.test(effect) ||
    opener(cause) ||
    // "… so they are called …": the effect leans on the cause.
    opener(effect) ||
    /^(?:we|you|i)\b/i.test(effect) ||
    effect.includes(',') ||
    effect.split(' ').length < 3 ||
    // "…, so 8 + 2 + 1 = 11": a calculation is no event.
    /[=+×÷<>]/.test(cause + effect)
      ? undefined
      : { cause: clause(cause), effect: clause(effect) };
  let m = /^Because (.+), (.+?)\.$/.exec(text);
  if (m) return pair(m[1]!, m[2]!);
  m = /^(.+?),? because (?!of\b)(.+?)\.$/.exec(text);
  if (m) return pair(m[2]!, m[1]!);
  // "Because of the drought, crops failed." / "Crops failed because of the drought."
  m = /^Because of ([^,]+), (.+?)\.$/.exec(text);
  if (m) return pair(`of ${m[1]}`, m[2]!);
  m = /^(.+?),? because of ([^,]+?)\.$/.exec(text);
  if (m) return pair(`of ${m[2]}`, m[1]!);
  m = /^(.+?), so (?!that\b)(.+?)\.$/.exec(text);
  if (m) return pair(m[1]!, m[2]!);
  // "When a plant does not get enough water, its vacuoles shrink": the effect may name what the
  // condition named ("its"), since the question states the condition.
  // "As the vapour rises it cools …": without a comma, the condition ends where "it" or "they"
  // opens the main clause.
  m =
    /^(When|Whenever|If|As|Once) ([^,]+), ([^,]+?)\.$/.exec(text) ??
    /^(When|Whenever|If|As|Once) ([^,]+?) ((?:it|they) (?!and\b|or\b)\S+ .+?)\.$/.exec(text);
  if (
    m &&
    !opener(m[2]!) &&
    !SUBORDINATE.test(m[2]!) &&
    m[2]!.split(' ').length >= 2 &&
    m[3]!.split(' ').length >= 3 &&
    !/^(?:we|you|i)\b/i.test(m[3]!) &&
    // Without a comma, the pronoun opens the main clause only if a verb follows it ("… with germs on
    // it and then …" is no main clause).
    (text.includes(`${m[2]}, `) || startsWithVerb(text, m[3]!)) &&
    // "As" opens a condition only with a verb: "As a member of Congress, she …" names none.
    (m[1] !== 'As' || nlp(text).match(m[2]!).has('#Verb'))
  )
    return { cause: clause(m[2]!), effect: clause(named(m[2]!, m[3]!, text)), link: lower(m[1]!) as CauseLink };
  return undefined;
}

/** The clause `part` of `sentence` has a verb right after its first word, as either tagger reads it. */
function startsWithVerb(sentence: string, part: string): boolean {
  const second = nlp(sentence).match(part).json()[0]?.terms[1] as { text: string; tags: string[] } | undefined;
  if (second?.tags.includes('Verb')) return true;
  const words = posTags(sentence);
  const at = words.findIndex(
    (w, i) => w.word === lower(part.split(' ')[0]!) && words[i + 1]?.word === lower(part.split(' ')[1] ?? ''),
  );
  return at >= 0 && ['VERB', 'AUX'].includes(words[at + 1]!.pos);
}

/**
 * "As the vapour rises it cools …": the effect with its "it"/"they" named by the condition's
 * subject ("the vapour cools …"), so it reads alone as an answer or a wrong choice.
 */
function named(condition: string, effect: string, sentence: string): string {
  const pronoun = /^(it|they) /i.exec(effect)?.[1];
  if (!pronoun) return effect;
  const terms = nlp(sentence).match(condition).json()[0]?.terms as { text: string; tags: string[] }[] | undefined;
  const verbAt = terms?.findIndex((t) => t.tags.includes('Verb')) ?? -1;
  if (!terms || verbAt < 1) return effect;
  const subject = terms.slice(0, verbAt);
  if (!subject.some((t) => t.tags.includes('Noun')) || subject.some((t) => t.tags.includes('Pronoun'))) return effect;
  // "they" names a plural subject, "it" a singular one.
  if ((lower(pronoun) === 'they') !== subject.some((t) => t.tags.includes('Plural'))) return effect;
  return `${subject.map((t) => t.text).join(' ')} ${effect.slice(pronoun.length + 1)}`;
}

/**
 * "The gradual change of a community is called succession." / "Erosion means the wearing away of
 * rock." / "A producer refers to …": the term and its description.
 */
function namedDefinition(text: string, occurrences: Occurrence[]): Sentence['definition'] {
  // "The two upper chambers are called atria, and the two lower chambers are called ventricles.":
  // the first clause defines a term on its own.
  const first = /^(.+?)(?:, and |, while |; )/.exec(text)?.[1];
  return namedDefinitionIn(text, occurrences) ?? (first ? namedDefinitionIn(`${first}.`, occurrences) : undefined);
}

function namedDefinitionIn(text: string, occurrences: Occurrence[]): Sentence['definition'] {
  const term = (surface: string) => occurrences.find((o) => lower(o.surface) === lower(surface.trim()));
  // One noun phrase: "The two upper chambers are called atria, and the two lower chambers are
  // called ventricles" describes neither by the words before its last "called".
  const described = (d: string) =>
    d.split(' ').length >= 3 && !/\b(?:it|its|this|these|those|they|their|called)\b/i.test(d)
      ? lowerFirst(d)
      : undefined;
  let m =
    /^(.+?) (?:is|are) (?:often |also |sometimes |usually )?(?:called|known as|named) (?:an? |the |its |their )?([^,;]+?)\.$/.exec(
      text,
    );
  if (m) {
    const occ = term(m[2]!);
    const description = described(m[1]!);
    if (occ && description) return { key: occ.key, surface: occ.surface, description, copula: 'is' };
  }
  // "The number below the line of a fraction is the denominator.": the description comes first.
  m = /^(The .+?) (?:is|are) (?:the|a|an) ([^,;]+?)\.$/.exec(text);
  if (m && m[1]!.split(' ').length > m[2]!.split(' ').length + 1) {
    const occ = term(m[2]!);
    const description = described(m[1]!);
    if (occ && description) return { key: occ.key, surface: occ.surface, description, copula: 'is' };
  }
  m = /^(?:An? |The )?([^,;]+?) (?:means|refers to) (.+?)\.$/.exec(text);
  if (m) {
    const occ = term(m[1]!);
    if (occ && m[2]!.split(' ').length >= 3)
      return { key: occ.key, surface: occ.surface, description: clause(m[2]!), copula: 'means' };
  }
  // "Inside the membrane is a jelly-like fluid called cytoplasm.": a noun phrase names the term.
  m = /\b(an? (?:[\w-]+ ){1,3}[\w-]+) (?:called|known as|named) ([^,;.]+?)(?=[,;.])/i.exec(text);
  if (m) {
    const occ = term(m[2]!);
    const description = described(m[1]!);
    if (occ && description) return { key: occ.key, surface: occ.surface, description, copula: 'is' };
  }
  return undefined;
}

/**
 * A definition a question can quote, or undefined: the description names the term alone (not a
 * person, not "some examples", not a place "inside the membrane"), is not an example in quotes or
 * a list cut at a comma, and ends before a second verb ("… the longest river in Africa and flows
 * north" is cut there).
 */
function soundDefinition(
  text: string,
  d: NonNullable<Sentence['definition']>,
  terms: Map<string, Term>,
): Sentence['definition'] {
  const kind = terms.get(d.key)?.kind;
  if (kind === 'person' || /\b(?:examples?|sentence|inside|outside)\b/i.test(d.surface)) return undefined;
  if (/["“”]|\bcalled\b|\b(?:too|also)$/i.test(d.description)) return undefined;
  const at = text.indexOf(d.description);
  const after = at < 0 ? '' : text.slice(at + d.description.length);
  // "a place where people live, work and play": the description stopped inside a list, at a comma
  // (no description) or before its "and" (the list is whole to the clause's end).
  if (/^,\s+(?!and\b|but\b|so\b|while\b|which\b|who\b|where\b|such as\b)/i.test(after)) return undefined;
  if (/^\s+and\s/.test(after) && /,\s*\S+$/.test(d.description))
    d = { ...d, description: `${d.description}${after.replace(/[,;.].*$/, '')}` };
  // "… in Africa and flows north" (not "goods and services": a plural before "and" is a list, as
  // is "live, work and help").
  const second = nlp(d.description).match('!#Plural [and #PresentTense]', 0).first();
  const cut = second.found ? d.description.indexOf(` ${second.text()}`) : -1;
  const description =
    cut > 0 && !/,\s*\S+$/.test(d.description.slice(0, cut)) ? d.description.slice(0, cut).trim() : d.description;
  return description.split(' ').length >= 3 ? { ...d, description } : undefined;
}

/** Comparatives and their opposites: "more water than any other river" turned into "less". */
const OPPOSITE_PAIRS = [
  ['more', 'less'],
  ['larger', 'smaller'],
  ['bigger', 'smaller'],
  ['greater', 'smaller'],
  ['faster', 'slower'],
  ['longer', 'shorter'],
  ['higher', 'lower'],
  ['older', 'younger'],
  ['heavier', 'lighter'],
  ['hotter', 'colder'],
  ['warmer', 'cooler'],
  ['stronger', 'weaker'],
  ['earlier', 'later'],
  ['wider', 'narrower'],
  ['deeper', 'shallower'],
] as const;
export const OPPOSITE = new Map<string, string>(
  OPPOSITE_PAIRS.flatMap(([a, b]) => [
    [a, b],
    [b, a],
  ]),
);
// "greater" turns into "smaller", and "smaller" back into "larger".
OPPOSITE.set('smaller', 'larger');

/**
 * A sentence that compares, with one comparative turned into its opposite (False): "The Amazon
 * carries less water than any other river", "…, while a larger mass produces a larger
 * acceleration". Only where the sentence compares: a "than", or two comparatives in contrast.
 */
export function flipComparison(text: string): string | undefined {
  const comparatives = [...text.matchAll(/\b[a-z]+\b/g)].filter((m) => OPPOSITE.has(m[0]));
  const than = text.search(/\bthan\b/);
  let target: RegExpMatchArray | undefined;
  if (than > 0) target = comparatives.filter((m) => m.index! < than).at(-1);
  else if (comparatives.length === 2 && /\b(?:while|whereas|but)\b/.test(text)) {
    const [a, b] = comparatives;
    // "a larger force … a larger acceleration, while a larger mass … a smaller acceleration": the
    // last comparative of the contrast, when it differs from the first.
    if (a![0] !== b![0]) target = b;
  } else if (comparatives.length >= 3 && /\b(?:while|whereas|but)\b/.test(text)) target = comparatives.at(-1);
  if (!target || target.index === undefined) return undefined;
  // "more than 250,000 people": a number, no comparison of two things.
  if (/^\s+than\s+(?:\d|a |an |one |two |half )/.test(text.slice(target.index + target[0].length))) return undefined;
  return text.slice(0, target.index) + OPPOSITE.get(target[0])! + text.slice(target.index + target[0].length);
}

/** Reads the lesson. Sentences keep their order; terms are ranked by use and length. */
export function analyseLesson(text: string): Lesson {
  const terms = new Map<string, Term>();
  let position = 0;
  let words = 0;
  const sentences: Sentence[] = [];
  const split = splitSentences(text);
  // Words the lesson capitalizes inside a sentence ("Dmitri Mendeleev published …"): names, also
  // where they open a sentence ("Mendeleev left gaps …"). A title ("Honeybees and Pollination")
  // capitalizes common nouns: only sentences that end as sentences count.
  const namesInside = new Set(
    split
      .filter((raw) => /[.!?]["”’)]?$/.test(raw.trim()))
      .flatMap((raw) => (raw.replace(/^\S+/, '').match(/\b\p{Lu}\p{Ll}+/gu) ?? []).map(lower)),
  );
  for (const [index, raw] of split.entries()) {
    const { text: sentenceText, marker } = stripDiscourse(raw);
    const tokens = tokensOf(sentenceText);
    const count = wordCount(sentenceText);
    words += count;
    const found = extract(tokens).map((f) =>
      f.kind === 'noun' && f.start === 0 && !f.surface.includes(' ') && namesInside.has(lower(f.surface))
        ? { ...f, kind: 'name' as const }
        : f,
    );
    const occurrences: Occurrence[] = [];
    for (const f of found) {
      position++;
      const isNumber = f.kind === 'year' || f.kind === 'percent' || f.kind === 'number';
      // At the start of a sentence a common noun is capitalized only by position.
      const natural = f.kind === 'noun' && !/^[A-Z]{2,}/.test(f.surface) ? lower(f.surface) : f.surface;
      const key = isNumber ? f.surface : termKey(natural);
      if (!isNumber && (GENERIC.has(key) || key.length < 3)) continue;
      const known = terms.get(key);
      // A word capitalized inside a sentence is a name, even if it first stood at a sentence start.
      if (known && known.kind === 'noun' && f.kind !== 'noun' && !isNumber) {
        known.kind = f.kind;
        known.text = f.surface;
      }
      if (known) known.count++;
      else
        terms.set(key, {
          text: natural,
          key,
          kind: f.kind,
          plural: f.plural,
          count: 1,
          firstAt: position,
          score: 0,
        });
      if (!occurrences.some((o) => o.key === key)) occurrences.push({ key, surface: f.surface });
    }
    const reading = count >= 4 && count <= MAX_SENTENCE_WORDS && isStandalone(sentenceText, tokens);
    const standalone = reading === true;
    const sentence: Sentence = {
      text: sentenceText,
      index,
      words: count,
      terms: occurrences,
      standalone,
      marker,
      instruction: reading === 'instruction',
    };
    if (standalone) {
      // "Photosynthesis is the process …": the subject is the first phrase, right before the verb.
      const subject = found[0];
      const verb = subject ? tokens[subject.start + subject.surface.split(' ').length] : undefined;
      const rest = verb ? tokens.slice(tokens.indexOf(verb) + 1) : [];
      if (
        subject &&
        verb &&
        COPULA.test(verb.text) &&
        subject.start <= 1 &&
        rest[0]?.tags.has('Determiner') &&
        rest.length >= 3 &&
        subject.kind !== 'year' &&
        subject.kind !== 'number' &&
        subject.kind !== 'percent'
      ) {
        const occ = occurrences.find((o) => o.surface === subject.surface);
        if (occ)
          sentence.definition = {
            key: occ.key,
            surface: subject.surface,
            // Up to a second clause ("…, and pure water boils at 100 degrees").
            description: clause(
              rest
                .map((t) => `${t.pre}${t.text}${t.post}`)
                .join('')
                .split(
                  /[,;]\s+(?:and|but|so|while|which)\b|;|\s+and\s+(?=(?:has|have|holds?|is|are|makes?|gives?|stores?|controls?|contains?|helps?|uses?|can)\b)/,
                )[0]!,
            ),
            copula: lower(verb.text),
          };
      }
      sentence.definition ??= namedDefinition(sentenceText, occurrences);
      // "A chemical reaction is a process in which …": the subject, adjectives and all, is the term
      // (the phrase reader keeps only its nouns: "reaction").
      const m =
        /^(?:An? |The )?([\p{L}][\p{L}'’-]*(?: [\p{L}'’-]+){0,3}?)(?: of an? [\p{L}]+)? (is|are|was|were) ((?:a|an|the) .+)\.$/u.exec(
          sentenceText,
        );
      const subjectWords = m ? m[1]!.split(' ') : [];
      if (
        !sentence.definition &&
        m &&
        // A word right before "is" read as a verb ("water cycle is") is the noun it must be there.
        tokens
          .slice(
            0,
            tokens.findIndex((t) => COPULA.test(t.text)),
          )
          .every((t, i, all) => !t.tags.has('Verb') || (i === all.length - 1 && !t.tags.has('Gerund'))) &&
        !DANGLING_OPENERS.has(lower(subjectWords[0]!)) &&
        !GENERIC.has(lower(m[1]!))
      ) {
        const description = clause(m[3]!.split(/[,;]\s+(?:and|but|so|while|which)\b|;/)[0]!);
        const natural = subjectWords.every((w) => capitalized(w)) && subjectWords.length > 1 ? m[1]! : lower(m[1]!);
        const key = termKey(natural);
        if (description.split(' ').length >= 4 && !mentions(description, key)) {
          if (!terms.has(key))
            terms.set(key, {
              text: natural,
              key,
              kind: natural === m[1] && capitalized(natural) ? 'name' : 'noun',
              plural: m[2] === 'are' || m[2] === 'were',
              count: 1,
              firstAt: ++position,
              score: 0,
            });
          if (!occurrences.some((o) => o.key === key)) occurrences.unshift({ key, surface: m[1]! });
          sentence.definition = { key, surface: m[1]!, description, copula: lower(m[2]!) };
        }
      }
      if (sentence.definition) sentence.definition = soundDefinition(sentenceText, sentence.definition, terms);
      sentence.cause = causeOf(sentenceText);
    }
    sentences.push(sentence);
  }
  // Terms used again elsewhere (as another form or inside a longer phrase) count too.
  const all = lower(sentences.map((s) => s.text).join(' '));
  for (const t of terms.values()) {
    const uses = all.split(lower(t.key)).length - 1;
    t.count = Math.max(t.count, uses);
    const name = t.kind === 'person' || t.kind === 'place' || t.kind === 'name' ? 1 : 0;
    const phrase = t.text.includes(' ') ? 1 : 0;
    const numeric = t.kind === 'year' || t.kind === 'percent' || t.kind === 'number' ? 1 : 0;
    t.score = t.count * 2 + Math.min(t.text.length, 14) / 4 + name + phrase + numeric;
  }
  const byScore = (a: string, b: string) => {
    const ta = terms.get(a)!;
    const tb = terms.get(b)!;
    return tb.score - ta.score || ta.firstAt - tb.firstAt;
  };
  for (const s of sentences) s.terms.sort((a, b) => byScore(a.key, b.key));
  const ranked = [...terms.keys()].sort(byScore);
  // "A. As a result, B.": the sentence before is the cause.
  for (const [i, s] of sentences.entries()) {
    const before = sentences[i - 1];
    if (s.marker === 'result' && s.standalone && !s.cause && before?.standalone && !before.cause && before.words <= 20)
      s.cause = { cause: clause(before.text), effect: clause(s.text) };
  }
  const { categories, examples } = relate(sentences, terms, ranked);
  for (const s of sentences) if (s.standalone) s.event = eventOf(s, terms);
  return { sentences, terms, ranked, words, categories, examples, sequences: sequencesOf(sentences) };
}

/** Where each term stands in a sentence, in order (the first whole-word match of each). */
function spans(s: Sentence): { key: string; start: number; end: number }[] {
  return s.terms
    .map((o) => {
      const f = findTerm(s.text, o.surface);
      return f ? { key: o.key, start: f.start, end: f.start + f.text.length } : undefined;
    })
    .filter((x): x is { key: string; start: number; end: number } => !!x)
    .sort((a, b) => a.start - b.start);
}

const LIST_GAP = /^(?:,\s*(?:and|or)?|\s+(?:and|or))\s+(?:(?:the|a|an|some|many|most|all|other)\s+)?$/i;
const EXAMPLE_GAP = /^,?\s+(?:such as|like|including|for example|especially)\s+(?:the\s+)?$/i;
const CALLED_GAP = /^\s+(?:called|named|known as)\s+$/i;
// "The brass family includes the trumpet, …": the concept before, a list of examples after.
const INCLUDES_GAP = /^\s+(?:includes?|included)\s+(?:the\s+)?$/i;
// "Rain, snow and hail are all kinds of precipitation.": a list of examples, the concept after.
const KINDS_GAP = /^\s+(?:are|were)\s+(?:all\s+)?(?:kinds|types|examples|forms)\s+of\s+(?:the\s+)?$/i;
// "Two common kinds of germs are bacteria and viruses.": the concept, then its examples.
const KINDS_ARE_GAP = /^\s+(?:are|include)\s+(?:the\s+)?$/i;
// "the costs of production, such as wages": what comes after is an example of the phrase's head.
const OF_BEFORE = /\bof\s+(?:(?:the|a|an|your|their|our|his|her|its|my)\s+)?$/i;
const KINDS_BEFORE = /\b(?:kinds|types|examples|forms) of\s+(?:the\s+)?$/i;
const ISA =
  /^\s+(?:is|are|was|were)\s+(?:a|an|the|one of the|a kind of|a type of|kinds of|types of)?\s*(?:[a-z-]+\s+)?$/i;

/**
 * Categories of the lesson's terms from what its sentences say (see Lesson.categories). Each
 * category is a label; a term may have several.
 */
function relate(sentences: Sentence[], terms: Map<string, Term>, ranked: string[]) {
  const categories = new Map<string, Set<string>>();
  const examples = new Map<string, string[]>();
  const add = (key: string, label: string) => {
    if (!categories.has(key)) categories.set(key, new Set());
    categories.get(key)!.add(label);
  };
  for (const s of sentences) {
    const at = spans(s);
    // Runs of terms joined by commas, "and", "or": one list.
    const runs: (typeof at)[] = [];
    let run: typeof at = [];
    for (const sp of at) {
      const prev = run[run.length - 1];
      if (prev && LIST_GAP.test(s.text.slice(prev.end, sp.start))) run.push(sp);
      else {
        if (run.length > 1) runs.push(run);
        run = [sp];
      }
    }
    if (run.length > 1) runs.push(run);
    for (const [n, r] of runs.entries()) {
      const kinds = new Set(r.map((x) => terms.get(x.key)!.kind));
      if (kinds.size === 1) for (const x of r) add(x.key, `list:${s.index}:${n}`);
    }
    const exemplify = (concept: string, members: string[]) => {
      for (const m of members) add(m, `isa:${concept}`);
      examples.set(concept, [...new Set([...(examples.get(concept) ?? []), ...members])]);
    };
    for (let i = 0; i + 1 < at.length; i++) {
      const [a, b] = [at[i]!, at[i + 1]!];
      const gap = s.text.slice(a.end, b.start);
      const runAfter = runs.find((r) => r[0] === b)?.map((x) => x.key);
      const runBefore = runs.find((r) => r[r.length - 1] === a)?.map((x) => x.key);
      // "organelles such as chloroplasts and mitochondria": every term of the run after it.
      if (EXAMPLE_GAP.test(gap)) {
        // Not "every part of your hands, including the backs" (examples of the part, not of the
        // hands) nor "on the hour, such as 3 o'clock" (a time, not a kind of hour).
        const members = (runAfter ?? [b.key]).filter((k) => terms.get(k)!.kind === terms.get(a.key)!.kind);
        if (!OF_BEFORE.test(s.text.slice(0, a.start)) && members.length) exemplify(a.key, members);
      } else if (runAfter && i === 0 && a.start <= 4 && INCLUDES_GAP.test(gap)) exemplify(a.key, runAfter);
      else if (runAfter && KINDS_ARE_GAP.test(gap) && KINDS_BEFORE.test(s.text.slice(0, a.start)))
        exemplify(a.key, runAfter);
      else if (runBefore && runBefore[0] === at[0]!.key && KINDS_GAP.test(gap)) exemplify(b.key, runBefore);
      else if (CALLED_GAP.test(gap)) {
        add(b.key, `isa:${a.key}`);
        add(b.key, 'vocab');
      } else if (i === 0 && a.start <= 4 && ISA.test(gap)) add(a.key, `isa:${b.key}`);
    }
  }
  // The things the lesson's sentences are about: the subjects of its statements (its main topic
  // aside, which the others are parts or kinds of). A weaker kind than the others: good enough for
  // the wrong choices of a question, never for a false statement (see sameCategory).
  const counts = [...terms.values()].map((t) => t.count).sort((a, b) => b - a);
  for (const s of sentences) {
    if (!s.standalone) continue;
    const first = spans(s)[0];
    const t = first && terms.get(first.key);
    if (
      !t ||
      t.kind !== 'noun' ||
      !/^(?:(?:the|a|an|every|each|most|some|many|all)\s+)?$/i.test(s.text.slice(0, first!.start))
    )
      continue;
    if (t.count >= 1.5 * (counts[1] ?? 0) && t.count === counts[0]) continue;
    // A whole ("a human body contains …", "organisms are made of …") is no sibling of its parts,
    // nor is a term named often (a topic of the lesson) or a kind of the main topic ("plant cell").
    const after = s.text.slice(first!.end).trim();
    if (/^(?:\w+ly\s+)?(?:has|have|contains?|consists?|includes?|(?:is|are) made (?:up )?of)\b/i.test(after)) continue;
    const top = ranked[0];
    if (t.count > 2 || (top && t.key !== top && t.key.endsWith(` ${top}`))) continue;
    add(t.key, 'role:subject');
  }
  // The lesson's vocabulary: the terms it defines or names ("… is called X").
  for (const s of sentences) if (s.definition) add(s.definition.key, 'vocab');
  // The lesson's concepts: every common noun it gives a kind to (a list, a category, a definition,
  // a statement about it). The weakest kind: wrong choices come from here only when the key's own
  // category has too few.
  for (const [key, labels] of categories)
    if (terms.get(key)?.kind === 'noun' && labels.size > 0) labels.add('role:concept');
  // The same head noun with different modifiers: "plant cell" and "animal cell".
  const heads = new Map<string, string[]>();
  for (const t of terms.values())
    if (t.kind === 'noun' && t.key.includes(' ')) {
      const head = t.key.split(' ').pop()!;
      heads.set(head, [...(heads.get(head) ?? []), t.key]);
    }
  for (const [head, keys] of heads) if (keys.length > 1) for (const k of keys) add(k, `head:${head}`);
  // Names and numbers are their own kinds: a year for a year, a person for a person.
  for (const t of terms.values())
    if (t.kind === 'person' || t.kind === 'place' || t.kind === 'year' || t.kind === 'percent')
      add(t.key, `kind:${t.kind}`);
  return { categories, examples };
}

const isWeak = (label: string) => label.startsWith('role:');

/**
 * True when the lesson shows `a` and `b` as the same kind of thing; with `weak`, being subjects of
 * its statements alike counts too (for wrong choices, not for false statements).
 */
export function sameCategory(lesson: Pick<Lesson, 'categories'>, a: string, b: string, weak = false): boolean {
  const x = lesson.categories.get(a);
  const y = lesson.categories.get(b);
  if (!x || !y || a === b) return false;
  for (const label of x) if (y.has(label) && (weak || !isWeak(label))) return true;
  return false;
}

/** Other terms of `key`'s categories, strong kinds first, most labels shared first. */
export function siblings(lesson: Lesson, key: string, weak = false): string[] {
  const mine = lesson.categories.get(key);
  if (!mine) return [];
  const shared = (k: string) =>
    [...(lesson.categories.get(k) ?? [])].filter((l) => mine.has(l)).reduce((n, l) => n + (isWeak(l) ? 1 : 10), 0);
  return lesson.ranked
    .filter((k) => k !== key && sameCategory(lesson, key, k, weak))
    .sort((a, b) => shared(b) - shared(a));
}

const YEAR_PHRASE = /^(?:in|by|around|during)\s+(\d{4}),?\s+|,?\s+(?:in|by|around)\s+(\d{4})\b/i;

/** "In 1769, James Watt improved the steam engine." → 1769 and "James Watt improved the steam engine". */
function eventOf(s: Sentence, terms: Map<string, Term>): Sentence['event'] {
  const years = s.terms.filter((o) => terms.get(o.key)?.kind === 'year');
  if (years.length !== 1) return undefined;
  const m = YEAR_PHRASE.exec(s.text);
  if (!m) return undefined;
  // Without a trailing clause ("…, which let one worker spin many threads"): the event itself.
  const clause = upperFirst(s.text.replace(YEAR_PHRASE, '').split(/,\s+(?:which|where|who|and|but|so)\b/)[0]!)
    .replace(/\s+/g, ' ')
    .replace(/[.!]$/, '')
    .trim();
  const words = clause.split(' ');
  if (words.length < 4 || words.length > 18 || clause.includes(',') || DANGLING_OPENERS.has(lower(words[0]!)))
    return undefined;
  return { year: Number(m[1] ?? m[2]), clause };
}

/** Runs of step sentences: one opening with "First", then at least two more linked steps. */
function sequencesOf(sentences: Sentence[]): Sentence[][] {
  const out: Sentence[][] = [];
  let run: Sentence[] = [];
  for (const s of sentences) {
    if (s.marker === 'first') {
      if (run.length >= 3) out.push(run);
      run = [s];
    } else if (s.marker === 'step' && run.length) run.push(s);
    else if (run.length && s.marker !== 'step') {
      if (run.length >= 3) out.push(run);
      run = [];
    }
  }
  if (run.length >= 3) out.push(run);
  return out.filter((r) => r.every((s) => (s.standalone || s.instruction) && s.words <= 25));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first whole-word occurrence of `term` in `text` (case-insensitive), or undefined. */
const termPattern = memo((term: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, 'iu'));

export function findTerm(text: string, term: string): { start: number; text: string } | undefined {
  const m = termPattern(term).exec(text);
  return m ? { start: m.index, text: m[0] } : undefined;
}

/** The forms a term may take in a text: as written, singular and plural. */
export const formsOf = memo((term: string): string[] => {
  if (NUMBER.test(term)) return [term];
  const forms = new Set([term, inflect(term, false), inflect(term, true)].map(lower));
  return [...forms].filter(Boolean);
});

/** True when `text` holds the term in any of its forms. */
export function mentions(text: string, term: string): boolean {
  return formsOf(term).some((f) => findTerm(text, f));
}

/** A small deterministic PRNG (mulberry32) seeded from a string (FNV-1a). */
export function seededRandom(seed: string): () => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A false version of a statement by negating its main verb ("is" → "is not"), or undefined. */
export function negate(statement: string): string | undefined {
  if (/\b(?:not|never|no)\b|n't\b/i.test(statement)) return undefined;
  const doc = nlp(statement);
  const tags = (doc.json() as { terms: { tags: string[] }[] }[]).flatMap((x) => x.terms.map((t) => t.tags));
  // toNegative changes the document it is given.
  const out = doc.sentences().toNegative().text().trim();
  if (!out || lower(out) === lower(statement) || !/\b(?:not|never)\b|n't\b/i.test(out)) return undefined;
  // The main verb is the one negated: "Valves keep blood flowing" is not "Valves keep blood does not
  // flow". Before the negation stand only the subject and an auxiliary ("is", "can").
  const before = out.slice(0, out.search(/\b(?:(?:do|does|did) not|not|never)\b|n't\b/i)).trim();
  // No subject before the negation ("Does not Ad heat can …"): the tagger found no verb to negate.
  if (!before || !lower(statement).startsWith(lower(before))) return undefined;
  const words = before.split(/\s+/).filter(Boolean);
  const subject = /^(?:is|are|was|were|can|could|will|would|should|must|may|might|has|have|had)$/i.test(
    words.at(-1) ?? '',
  )
    ? words.length - 1
    : words.length;
  // Either tagger seeing a verb there is enough to refuse: each misreads some words.
  const wink = posTags(statement);
  if (tags.slice(0, subject).some((t) => t.includes('Verb'))) return undefined;
  if (wink.length === tags.length && wink.slice(0, subject).some((t) => t.pos === 'VERB' || t.pos === 'AUX'))
    return undefined;
  return out.replace(/\bcan not\b/g, 'cannot');
}
