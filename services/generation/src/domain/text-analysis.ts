// Reads a teacher's text into sentences and key terms for the offline generator: list lines and
// bullets become sentences, over-long sentences are cut at commas, terms are content words (not
// stop words) and numbers, ranked by frequency and length.

const STOP_WORDS = new Set(
  `a about above after again against all also although always among an and any are around as at be because been
  before being below between both but by can cannot could did do does doing done down during each either else
  even every few for from further had has have having he her here hers him his how however i if in into is it its
  itself just least less like made make makes many may might more most much must my near neither never no nor
  not now of off often on once one only onto or other others our ours out over own per rather same several shall
  she should since so some such than that the their theirs them then there therefore these they this those
  though through thus to too toward under until up upon us used uses using very was we well were what whatever
  when where whether which while who whom whose why will with within without would yet you your yours called
  known include includes including example examples another called usually often mostly simply`.split(/\s+/),
);

export interface Term {
  /** Surface form as first written in the text. */
  text: string;
  key: string;
  kind: 'word' | 'number';
  count: number;
  firstAt: number;
  score: number;
}

export interface Sentence {
  text: string;
  index: number;
  /** Keys of the terms in this sentence, best first. */
  termKeys: string[];
}

export interface TextAnalysis {
  sentences: Sentence[];
  terms: Map<string, Term>;
  /** All term keys, best first. */
  ranked: string[];
}

const TOKEN = /\d+(?:[.,]\d+)*%?|[A-Za-z\u00C0-\u024F](?:[A-Za-z\u00C0-\u024F'’-]*[A-Za-z\u00C0-\u024F])?/g;
const BULLET = /^\s*(?:[-*•·–]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+/;
const MAX_SENTENCE = 240;
export const MAX_ANALYSED_CHARS = 20_000;

export const termKey = (s: string) => s.toLowerCase().replace(/[’]/g, "'");

export function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

function isTermToken(token: string, relaxed: boolean): boolean {
  if (/^\d/.test(token)) return true;
  if (relaxed) return true;
  return token.length >= 4 && !STOP_WORDS.has(termKey(token));
}

/** Splits a long sentence at commas (then spaces) into pieces of at most MAX_SENTENCE chars. */
function cut(sentence: string): string[] {
  if (sentence.length <= MAX_SENTENCE) return [sentence];
  const pieces: string[] = [];
  let current = '';
  for (const part of sentence.split(/(?<=[,;:])\s+|\s+/)) {
    if (current && current.length + part.length + 1 > MAX_SENTENCE) {
      pieces.push(current);
      current = part;
    } else current = current ? `${current} ${part}` : part;
  }
  if (current) pieces.push(current);
  return pieces;
}

export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.slice(0, MAX_ANALYSED_CHARS).split(/\r?\n/)) {
    const line = rawLine.replace(BULLET, '').replace(/\s+/g, ' ').trim();
    if (!line) continue;
    for (const s of line.split(/(?<=[.!?;])\s+(?=["'“(A-Z0-9\u00C0-\u024F])/)) {
      const trimmed = s.trim().replace(/^["“]+|["”]+$/g, '');
      if (trimmed) out.push(...cut(trimmed));
    }
  }
  return out;
}

/** Key terms and the sentences that hold them; a text of only short words uses every word. */
export function analyseText(text: string): TextAnalysis {
  const strict = analyse(text, false);
  return strict.ranked.length > 0 ? strict : analyse(text, true);
}

function analyse(text: string, relaxed: boolean): TextAnalysis {
  const terms = new Map<string, Term>();
  const raw = splitSentences(text);
  let position = 0;
  const perSentence = raw.map((s) => {
    const keys: string[] = [];
    for (const token of tokens(s)) {
      position++;
      if (!isTermToken(token, relaxed)) continue;
      const key = termKey(token);
      const known = terms.get(key);
      if (known) known.count++;
      else
        terms.set(key, {
          text: token,
          key,
          kind: /^\d/.test(token) ? 'number' : 'word',
          count: 1,
          firstAt: position,
          score: 0,
        });
      if (!keys.includes(key)) keys.push(key);
    }
    return { text: s, keys };
  });
  for (const t of terms.values()) {
    // Repeated and longer words carry the lesson; capitalized words are names and places.
    const capital = t.kind === 'word' && /^[A-Z\u00C0-\u00DE]/.test(t.text) ? 1 : 0;
    t.score = t.count * 2 + Math.min(t.text.length, 14) / 4 + capital + (t.kind === 'number' ? 1.5 : 0);
  }
  const byScore = (a: string, b: string) => {
    const ta = terms.get(a)!;
    const tb = terms.get(b)!;
    return tb.score - ta.score || ta.firstAt - tb.firstAt;
  };
  const sentences: Sentence[] = perSentence
    .map((s, index) => ({ text: s.text, index, termKeys: [...s.keys].sort(byScore) }))
    .filter((s) => s.termKeys.length > 0);
  return { sentences, terms, ranked: [...terms.keys()].sort(byScore) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first whole-word occurrence of `term` in `sentence` (case-insensitive), or undefined. */
export function findTerm(sentence: string, term: string): { start: number; text: string } | undefined {
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escape(term)}(?![\\p{L}\\p{N}])`, 'iu');
  const m = re.exec(sentence);
  return m ? { start: m.index, text: m[0] } : undefined;
}

export function replaceTerm(sentence: string, term: string, replacement: string): string | undefined {
  const found = findTerm(sentence, term);
  if (!found) return undefined;
  return sentence.slice(0, found.start) + replacement + sentence.slice(found.start + found.text.length);
}

export const endWithStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s.replace(/[,;:]$/, '')}.`);

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
