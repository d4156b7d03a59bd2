// Join codes: what a teacher hands out and a student types. Short enough to read aloud, free of
// look-alike characters, and random enough (31^7 ≈ 2.75e10) that guessing is hopeless behind the
// join rate limit.
import { randomInt } from 'node:crypto';

/** A–Z and 2–9 without the look-alikes 0/O and 1/I/L. */
export const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 7;
/** Lengths a student may type (6 to 8 characters). */
export const JOIN_CODE_MIN_LENGTH = 6;
export const JOIN_CODE_MAX_LENGTH = 8;

/** The join form's messages, the server's too. */
export const JOIN_CODE_TOO_SHORT = `Join code must be at least ${JOIN_CODE_MIN_LENGTH} characters`;
export const JOIN_CODE_TOO_LONG = `Join code must be at most ${JOIN_CODE_MAX_LENGTH} characters`;
export const JOIN_CODE_BAD_CHARACTER = 'Join code has only letters and the digits 2 to 9 (no I, L, O, 0 or 1)';

const VALID = new RegExp(`^[${JOIN_CODE_ALPHABET}]{${JOIN_CODE_MIN_LENGTH},${JOIN_CODE_MAX_LENGTH}}$`);
/** The characters of a code as a student may type them: any case (it is upper-cased). */
export const JOIN_CODE_TYPED = new RegExp(`^[${JOIN_CODE_ALPHABET}${JOIN_CODE_ALPHABET.toLowerCase()}]*$`);

/** A new code from a cryptographic random source. Uniqueness is the database's job (unique index). */
export function generateJoinCode(length = JOIN_CODE_LENGTH): string {
  let code = '';
  for (let i = 0; i < length; i++) code += JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)];
  return code;
}

/** What a student typed, as stored: surrounding spaces dropped, upper-case. */
export function normalizeJoinCode(input: string): string {
  return input.trim().toUpperCase();
}

/** True when `code` (already normalized) could be a join code this service made. */
export function isValidJoinCode(code: string): boolean {
  return VALID.test(code);
}
