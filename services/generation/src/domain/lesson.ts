// Reads a teacher's lesson with compromise (an English NLP library: sentence splitting, part of
// speech, people and places): sentences that can stand alone as a stem, their key terms (noun
// phrases, names and numbers) with a kind that distractors must share, definitions ("X is the
// …") and cause and effect ("because …"). Everything the offline generator asks comes from here.
import nlp from 'compromise';

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

export interface Sentence {
  text: string;
  index: number;
  words: number;
  /** Terms in this sentence, best first. */
  terms: Occurrence[];
  /** Declarative, ends with a full stop, has a verb, does not lean on an earlier sentence. */
  standalone: boolean;
  /** "X is/are the …": a description of a term of the text. */
  definition?: { key: string; surface: string; description: string; copula: string };
  /** "Because A, B." / "B because A." / "A, so B." */
  cause?: { cause: string; effect: string };
}

export interface Lesson {
  sentences: Sentence[];
  terms: Map<string, Term>;
  /** Term keys, best first. */
  ranked: string[];
  /** Words of running text (not counting list markers or symbols). */
  words: number;
}

export const MAX_ANALYSED_CHARS = 20_000;
const MAX_SENTENCE_WORDS = 45;

/** Opening words that point back at an earlier sentence: the stem would not stand on its own. */
export const DANGLING_OPENERS = new Set(
  'it its they them their theirs he him his she her hers this these those that such both another either neither latter former here there’s also'.split(
    ' ',
  ),
);
/** Linking words at the start that can be dropped without changing the fact. */
const DISCOURSE =
  /^(?:however|also|in addition|moreover|furthermore|still|instead|finally|first|second|third|next|then|later|meanwhile|today|for example|for instance|in fact|of course|in other words|overall|similarly|likewise|in short|as a result|therefore|thus|so|in the end|at first|at last|after that|soon)\b,?\s+/i;
/** Nouns too general to ask about. */
const GENERIC = new Set(
  'thing way lot kind sort example fact something anything everything nothing someone anyone everyone time stuff bit lesson text question answer part type number amount use one ones others other people person place idea word reason result'.split(
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

/** Remembers a pure function of a short text (tagging is the slow part of generation). */
export function memo<T>(fn: (s: string) => T, max = 5_000): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    const hit = cache.get(s);
    if (hit !== undefined || cache.has(s)) return hit as T;
    const value = fn(s);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(s, value);
    return value;
  };
}

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
  return doc.flatMap((s) => s.terms.map((t) => ({ text: t.text, tags: new Set(t.tags), pre: t.pre, post: t.post })));
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
  /^[\p{L}][\p{L}'’-]*$/u.test(t.text);

const readsAsVerb = memo((word: string) =>
  (nlp(word).json() as { terms: { tags: string[] }[] }[]).some((x) => x.terms.some((t) => t.tags.includes('Verb'))),
);

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
      capitalized(tokens[j + 1]!.text) === name
    )
      j++;
    // "the process plants use", "a number line shows where": the last word of a run of nouns
    // that reads as a verb on its own is the verb (or the subject of the next one).
    const after = tokens[j + 1];
    if (
      j > i &&
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

function stripDiscourse(s: string): string {
  let out = s;
  for (let k = 0; k < 2 && DISCOURSE.test(out); k++) out = out.replace(DISCOURSE, '');
  return out === s ? s : upperFirst(out);
}

function isStandalone(text: string, tokens: Token[]): boolean {
  const first = tokens[0];
  if (!first) return false;
  if (!/\.$/.test(text)) return false;
  if (DANGLING_OPENERS.has(lower(first.text))) return false;
  if (WH.test(first.text) && /\?$/.test(text)) return false;
  // An instruction ("Mix the flour.") is no statement of fact.
  if (first.tags.has('Verb') && first.tags.has('Infinitive') && !first.tags.has('Noun')) return false;
  if (!tokens.some((t) => t.tags.has('Verb'))) return false;
  return true;
}

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
    effect.split(' ').length < 3
      ? undefined
      : { cause: clause(cause), effect: clause(effect) };
  let m = /^Because (.+), (.+?)\.$/.exec(text);
  if (m) return pair(m[1]!, m[2]!);
  m = /^(.+?),? because (?!of\b)(.+?)\.$/.exec(text);
  if (m) return pair(m[2]!, m[1]!);
  m = /^(.+?), so (?!that\b)(.+?)\.$/.exec(text);
  if (m) return pair(m[1]!, m[2]!);
  return undefined;
}

/** Reads the lesson. Sentences keep their order; terms are ranked by use and length. */
export function analyseLesson(text: string): Lesson {
  const terms = new Map<string, Term>();
  let position = 0;
  let words = 0;
  const sentences: Sentence[] = [];
  for (const [index, raw] of splitSentences(text).entries()) {
    const sentenceText = stripDiscourse(raw);
    const tokens = tokensOf(sentenceText);
    const count = wordCount(sentenceText);
    words += count;
    const found = extract(tokens);
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
    const standalone = count >= 4 && count <= MAX_SENTENCE_WORDS && isStandalone(sentenceText, tokens);
    const sentence: Sentence = { text: sentenceText, index, words: count, terms: occurrences, standalone };
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
                .split(/[,;]\s+(?:and|but|so|while|which)\b|;/)[0]!,
            ),
            copula: lower(verb.text),
          };
      }
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
  return { sentences, terms, ranked: [...terms.keys()].sort(byScore), words };
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
  const out = nlp(statement).sentences().toNegative().text().trim();
  if (!out || lower(out) === lower(statement) || !/\b(?:not|never)\b|n't\b/i.test(out)) return undefined;
  return out;
}
