import { describe, expect, it } from 'vitest';
import {
  generateJoinCode,
  isValidJoinCode,
  JOIN_CODE_ALPHABET,
  JOIN_CODE_LENGTH,
  normalizeJoinCode,
} from './join-code.ts';

describe('join codes', () => {
  it('when the alphabet is inspected, then it has no look-alike characters and is upper-case', () => {
    for (const ch of ['0', 'O', '1', 'I', 'L']) expect(JOIN_CODE_ALPHABET).not.toContain(ch);
    expect(JOIN_CODE_ALPHABET).toBe(JOIN_CODE_ALPHABET.toUpperCase());
    expect(new Set(JOIN_CODE_ALPHABET).size).toBe(JOIN_CODE_ALPHABET.length);
  });

  it('when a code is generated, then it has the standard length within 6–8 and only alphabet characters', () => {
    const code = generateJoinCode();
    expect(code).toHaveLength(JOIN_CODE_LENGTH);
    expect(JOIN_CODE_LENGTH).toBeGreaterThanOrEqual(6);
    expect(JOIN_CODE_LENGTH).toBeLessThanOrEqual(8);
    for (const ch of code) expect(JOIN_CODE_ALPHABET).toContain(ch);
  });

  it('when 1,000 codes are generated, then all are distinct and valid', () => {
    const codes = Array.from({ length: 1000 }, () => generateJoinCode());
    expect(new Set(codes).size).toBe(1000);
    expect(codes.every(isValidJoinCode)).toBe(true);
  });

  it('when many codes are generated, then every alphabet character is used (no bias to a subset)', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateJoinCode()).join(''));
    expect(seen.size).toBe(JOIN_CODE_ALPHABET.length);
  });

  it('when a student types a code in lower case with spaces, then it is normalized to the stored form', () => {
    expect(normalizeJoinCode('  abc7xyz ')).toBe('ABC7XYZ');
    expect(normalizeJoinCode('AbC7xYz')).toBe('ABC7XYZ');
  });

  it('when a code has a look-alike, a wrong length or other characters, then it is not valid', () => {
    expect(isValidJoinCode('ABCDEF')).toBe(true);
    expect(isValidJoinCode('ABCDEFGH')).toBe(true);
    expect(isValidJoinCode('ABCDE')).toBe(false);
    expect(isValidJoinCode('ABCDEFGHJ')).toBe(false);
    expect(isValidJoinCode('ABCDE0')).toBe(false);
    expect(isValidJoinCode('ABCDEO')).toBe(false);
    expect(isValidJoinCode('ABCDE1')).toBe(false);
    expect(isValidJoinCode('ABCDEI')).toBe(false);
    expect(isValidJoinCode('ABCDEL')).toBe(false);
    expect(isValidJoinCode('abcdef')).toBe(false);
    expect(isValidJoinCode('ABC-EF')).toBe(false);
  });
});
