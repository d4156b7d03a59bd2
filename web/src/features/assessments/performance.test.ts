import { describe, expect, it } from 'vitest';
import { dashboardBand, practiceLink, resultBand, roundPercent } from './performance';

describe('dashboard bands (80/70)', () => {
  it.each([
    [100, 'Above Standard', 'success'],
    [80, 'Above Standard', 'success'],
    [79.6, 'At Standard', 'warning'],
    [70, 'At Standard', 'warning'],
    [69.9, 'Below Standard', 'danger'],
    [0, 'Below Standard', 'danger'],
  ])('when the score is %s, then the band is %s', (score, label, variant) => {
    expect(dashboardBand(score)).toMatchObject({ label, variant });
  });

  it('when support practice raised a low result to at, then the card shows At Standard', () => {
    expect(resultBand(40, 'at').label).toBe('At Standard');
    expect(resultBand(40, 'below').label).toBe('Below Standard');
    expect(resultBand(85, 'at').label).toBe('Above Standard');
  });

  it('when the score is below 80, then the link is Extra Help Materials, else Challenge Work', () => {
    expect(practiceLink('a1', 79)).toEqual({ to: '/support/a1/support', label: 'Extra Help Materials' });
    expect(practiceLink('a1', 80)).toEqual({ to: '/support/a1/enrichment', label: 'Challenge Work' });
  });

  it('when a percentage is a numeric string, then it is rounded', () => {
    expect(roundPercent('66.67')).toBe(67);
    expect(roundPercent(undefined)).toBe(0);
    expect(roundPercent('x')).toBe(0);
  });
});
