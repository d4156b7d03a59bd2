import { describe, expect, it } from 'vitest';
import { normalizeGrade } from './bank.use-case.ts';

describe('normalizeGrade', () => {
  it('when grades are written as the roster, CASE or teachers write them, then they are one value', () => {
    expect(['06', '6', ' 6 '].map(normalizeGrade)).toEqual(['6', '6', '6']);
    expect(['KG', 'k', 'K'].map(normalizeGrade)).toEqual(['K', 'K', 'K']);
    expect(normalizeGrade('10')).toBe('10');
    expect(normalizeGrade('PK')).toBe('PK');
    expect(normalizeGrade(undefined)).toBe('');
  });
});
