import { describe, expect, it } from 'vitest';
import {
  AVERAGE_BAND_TEXT,
  bandForLevel,
  isRaised,
  practiceLink,
  raisedNote,
  resultLevelText,
  roundPercent,
  toPercent,
} from './performance';

describe('level names (docs/adr/005)', () => {
  it.each([
    ['above', 'Above Standard', 'success'],
    ['at', 'At Standard', 'warning'],
    ['below', 'Below Standard', 'danger'],
  ])("when the server's level is %s, then the name is %s", (level, label, variant) => {
    expect(bandForLevel(level)).toMatchObject({ label, variant });
  });
});

describe('a raised level next to its original score (docs/adr/005)', () => {
  const raised = { performanceLevel: 'at', originalLevel: 'below', raisedBy: 'practice' };
  const plain = { performanceLevel: 'below', originalLevel: 'below', raisedBy: null };

  it('when practice raised a result, then its note and its text say so and name the original level', () => {
    expect(isRaised(raised)).toBe(true);
    expect(raisedNote(raised)).toBe('raised to At Standard by practice');
    expect(resultLevelText(raised)).toBe('At Standard (raised by practice from Below Standard)');
  });

  it('when the practice attempt that raised it is known, then the note and the text name the try', () => {
    expect(raisedNote({ ...raised, raisedAttempt: 2 })).toBe('raised to At Standard by practice (2nd try)');
    expect(raisedNote({ ...raised, raisedAttempt: 1 })).toBe('raised to At Standard by practice (1st try)');
    expect(resultLevelText({ ...raised, raisedAttempt: 3 })).toBe(
      'At Standard (raised by practice from Below Standard, 3rd try)',
    );
  });

  it('when a result was not raised, then there is no note and the text is the level alone', () => {
    expect(isRaised(plain)).toBe(false);
    expect(raisedNote(plain)).toBeNull();
    expect(resultLevelText(plain)).toBe('Below Standard');
    // An older reply without the fields reads as not raised.
    expect(raisedNote({ performanceLevel: 'above' })).toBeNull();
  });

  it('when an average is banded, then the words carry the 80/60 thresholds and no level name', () => {
    expect(Object.values(AVERAGE_BAND_TEXT)).toEqual([
      'Above (average 80% or more)',
      'At (average 60-79%)',
      'Below (average under 60%)',
    ]);
    for (const text of Object.values(AVERAGE_BAND_TEXT)) expect(text).not.toMatch(/Standard/);
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
