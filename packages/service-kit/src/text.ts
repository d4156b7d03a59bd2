// Text rules stated so that the OpenAPI document can say them too. JSON Schema applies maxLength
// and pattern to the text as sent (before any trim), and other regex engines read the pattern
// (Python's re in schemathesis, the browser's), so the patterns spell whitespace out instead of
// using \s, whose meaning differs between engines, and use no look-arounds.
import { z } from 'zod';

/** What String.prototype.trim removes: JavaScript's WhiteSpace and LineTerminator characters (for a regex class). */
export const SPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/** At least one character that trim() keeps. */
export const NOT_BLANK = new RegExp(`[^${SPACE}]`);

/**
 * An email address as zod's z.email() takes it (same local part and domain rules, written without
 * its look-aheads), with the blanks around it that trim() removes.
 */
export const EMAIL = new RegExp(
  `^[${SPACE}]*(?:[A-Za-z0-9_'+-]+\\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\\.)+[A-Za-z]{2,}[${SPACE}]*$`,
);

/**
 * Text that must not be blank, trimmed: at most `max` characters as sent (what the document's
 * maxLength means), and something besides blanks (its pattern).
 */
export function requiredText(max: number, messages: { required: string; tooLong: string }) {
  return z.string({ error: messages.required }).max(max, messages.tooLong).regex(NOT_BLANK, messages.required).trim();
}

/**
 * Direction controls (embeddings, overrides, isolates, marks): in a name they only serve to make
 * it display as something else ("\u202Egnp.exe"). Zero-width joiners stay: some scripts' names
 * need them (Persian writes ZWNJ inside words).
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Characters no reader sees: blanks, controls, zero-width and direction format characters. */
const INVISIBLE = `${SPACE}\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufff9-\\ufffb`;
/** At least one character a reader sees (a pattern the OpenAPI document carries too). */
export const VISIBLE = new RegExp(`[^${INVISIBLE}]`);

/** A name as stored and shown: NFC, direction controls removed, trimmed. */
export function normalizeName(raw: string): string {
  return raw.normalize('NFC').replace(BIDI_CONTROLS, '').trim();
}

/** Whether a name has something a reader can see. */
export const isVisibleName = (name: string): boolean => VISIBLE.test(name);

/**
 * A person's or a class's name: at most `max` characters as sent, at least one a reader sees
 * (zero-width spaces and direction controls alone are missing), stored normalised (normalizeName).
 */
export function nameText(max: number, messages: { required: string; tooLong: string }) {
  return z
    .string({ error: messages.required })
    .max(max, messages.tooLong)
    .regex(VISIBLE, messages.required)
    .transform(normalizeName);
}

/** Optional text, trimmed: at most `max` characters as sent; absent, null or blank is ''. */
export function optionalText(max: number, messages: { notText: string; tooLong: string }) {
  return z
    .string({ error: messages.notText })
    .max(max, messages.tooLong)
    .trim()
    .nullish()
    .transform((v) => v ?? '');
}
