import { describe, expect, it } from 'vitest';
import { bandForLevel, practiceLink, roundPercent, toPercent } from './performance';

describe('level names (docs/adr/005)', () => {
  it.each([
    ['above', 'Above Standard', 'success'],
    ['at', 'At Standard', 'warning'],
    ['below', 'Below Standard', 'danger'],
  ])("when the server's level is %s, then the name is %s", (level, label, variant) => {
    expect(bandForLevel(level)).toMatchObject({ label, variant });
  });
});

describe('practice link', () => {
  it('when the score is below 80, then the link is Extra Help Materials, else Challenge Work', () => {
    expect(practiceLink('a1', 79)).toEqual({ to: '/support/a1/support', label: 'Extra Help Materials' });
    expect(practiceLink('a1', 80)).toEqual({ to: '/support/a1/enrichment', label: 'Challenge Work' });
  });

  it('when the score rounds up to 80, then it is still below 80 for the link', () => {
    expect(roundPercent(79.6)).toBe(80);
    expect(practiceLink('a1', 79.6).label).toBe('Extra Help Materials');
  });
});

describe('percentages', () => {
  it('when a percentage is a numeric string, then it is parsed, and rounded for display', () => {
    expect(toPercent('66.67')).toBe(66.67);
    expect(roundPercent('66.67')).toBe(67);
    expect(roundPercent(undefined)).toBe(0);
    expect(roundPercent('x')).toBe(0);
  });
});
