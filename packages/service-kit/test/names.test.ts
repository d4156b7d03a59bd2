// The name rule every service applies (nameText): NFC, direction controls removed, trimmed; a name
// with nothing visible is missing.
import { describe, expect, it } from 'vitest';
import { nameText } from '../src/index.ts';

const name = nameText(20, { required: 'Name is required', tooLong: 'Name must be at most 20 characters' });

describe('nameText', () => {
  it('when a name carries direction overrides or is decomposed, then it is stored without them, in NFC', () => {
    expect(name.parse(' \u202eEve\u202c ')).toBe('Eve');
    expect(name.parse('\u2067Ray\u2069')).toBe('Ray');
    // "Zoë" typed as Z o e + combining diaeresis becomes one ë.
    expect(name.parse('Zoe\u0308')).toBe('Zo\u00eb');
    // A Persian name keeps its zero-width non-joiner.
    expect(name.parse('\u0645\u06cc\u200c\u0631\u0627')).toBe('\u0645\u06cc\u200c\u0631\u0627');
  });

  it('when a name is only invisible characters, then it is refused as missing', () => {
    for (const raw of ['\u200b\u200b', '\u202e', '\u2066\u2069', '\ufeff', ' \u200d '])
      expect(name.safeParse(raw).error?.issues[0]?.message, JSON.stringify(raw)).toBe('Name is required');
    expect(name.safeParse('x'.repeat(21)).error?.issues[0]?.message).toBe('Name must be at most 20 characters');
  });
});
