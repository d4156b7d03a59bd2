// The mastery rule (decaying average, w = 0.65) on cases computed by hand, and the district view's
// small-group suppression.
import { describe, expect, it } from 'vitest';
import { groupSummary, mastery, masteryLevel, suppressedHierarchy, type Evidence } from './mastery.ts';

const day = (d: number, score: number, id = `r${d}`): Evidence => ({
  score,
  at: new Date(Date.UTC(2026, 8, d)),
  id,
});

describe('the mastery rule (decaying average)', () => {
  it('when there is no evidence, then there is no mastery', () => {
    expect(mastery([])).toBeUndefined();
  });

  it('when there is one piece of evidence, then the mastery is its score', () => {
    expect(mastery([day(1, 60)])).toEqual({ score: 60, level: 'below', evidenceCount: 1 });
  });

  it('when a 60 is followed by a 100, then the mastery is 0.65·100 + 0.35·60 = 86 (at)', () => {
    expect(mastery([day(1, 60), day(2, 100)])).toEqual({ score: 86, level: 'at', evidenceCount: 2 });
  });

  it('when a 100 is followed by a 60, then the mastery is 0.65·60 + 0.35·100 = 74 (below): recent work counts most', () => {
    expect(mastery([day(1, 100), day(2, 60)])).toEqual({ score: 74, level: 'below', evidenceCount: 2 });
  });

  it('when 50, 80, 100 come in that order, then 69.5 after two and 0.65·100 + 0.35·69.5 = 89.33 (at) after three', () => {
    expect(mastery([day(1, 50), day(2, 80)])?.score).toBe(69.5);
    expect(mastery([day(1, 50), day(2, 80), day(3, 100)])).toEqual({ score: 89.33, level: 'at', evidenceCount: 3 });
  });

  it('when the evidence is given out of order, then it is taken oldest first', () => {
    expect(mastery([day(3, 100), day(1, 50), day(2, 80)])?.score).toBe(89.33);
  });

  it('when two results have the same time, then the result id orders them (the same value on every replay)', () => {
    const at = new Date(Date.UTC(2026, 8, 1));
    const a = { score: 0, at, id: 'a' };
    const b = { score: 100, at, id: 'b' };
    expect(mastery([b, a])?.score).toBe(65);
    expect(mastery([a, b])?.score).toBe(65);
  });

  it('when the score is on a band edge, then 80 is at, 90 is above and 79.99 is below', () => {
    expect(masteryLevel(80)).toBe('at');
    expect(masteryLevel(90)).toBe('above');
    expect(masteryLevel(79.99)).toBe('below');
    expect(masteryLevel(89.996)).toBe('above');
  });
});

describe('small groups in the district view', () => {
  /** Classes of the given sizes, all in one school (or of no known school). */
  const oneSchool = (sizes: number[], totalShown = true) => {
    const classes = sizes.map((students) => ({ students }));
    const total = sizes.reduce((a, b) => a + b, 0);
    const hidden = suppressedHierarchy([{ students: total, classes: sizes.map((_, i) => i) }], classes, totalShown);
    return [...hidden.classes].sort();
  };

  it('when no group has fewer than 5 students, then none is suppressed', () => {
    expect(oneSchool([5, 30])).toEqual([]);
  });

  it('when several groups are small, then exactly those are suppressed', () => {
    expect(oneSchool([4, 25, 1])).toEqual([0, 2]);
  });

  it('when exactly one group is small and its parent is shown, then the next smallest is suppressed too', () => {
    expect(oneSchool([25, 3, 12])).toEqual([1, 2]);
  });

  it('when an empty group sits beside one small group, then the empty one does not shield it: the next smallest non-empty is suppressed', () => {
    // Class 0 has no student yet; class 1's one student would be the school less class 2.
    expect(oneSchool([0, 1, 12])).toEqual([0, 1, 2]);
  });

  it('when the small groups together hold fewer than 5 students, then the next smallest is suppressed too', () => {
    expect(oneSchool([1, 2, 20, 30])).toEqual([0, 1, 2]);
  });

  it('when a school has one small class, then the next smallest class of that school is suppressed, not one of another school', () => {
    const classes = [{ students: 3 }, { students: 20 }, { students: 30 }];
    const schools = [
      { students: 23, classes: [0, 1] },
      { students: 30, classes: [2] },
    ];
    const hidden = suppressedHierarchy(schools, classes, true);
    expect([...hidden.classes].sort()).toEqual([0, 1]);
    expect([...hidden.schools]).toEqual([]);
  });

  it('when one school is small, then the next smallest school is suppressed too, with every class of both', () => {
    const classes = [{ students: 3 }, { students: 4 }, { students: 6 }, { students: 30 }];
    const schools = [
      { students: 3, classes: [0] },
      { students: 10, classes: [1, 2] },
      { students: 30, classes: [3] },
    ];
    const hidden = suppressedHierarchy(schools, classes, true);
    expect([...hidden.schools].sort()).toEqual([0, 1]);
    expect([...hidden.classes].sort()).toEqual([0, 1, 2]);
  });

  it('when the district total is not shown, then a small school hides only itself and its classes', () => {
    const classes = [{ students: 3 }, { students: 30 }];
    const schools = [
      { students: 3, classes: [0] },
      { students: 30, classes: [1] },
    ];
    const hidden = suppressedHierarchy(schools, classes, false);
    expect([...hidden.schools]).toEqual([0]);
    expect([...hidden.classes]).toEqual([0]);
  });

  it('when a group is summarised, then its score is the average of its students’ mastery', () => {
    expect(groupSummary({ students: 4, scoreSum: 340, below: 1, at: 2, above: 1 })).toEqual({
      students: 4,
      score: 85,
      level: 'at',
      below: 1,
      at: 2,
      above: 1,
    });
  });
});
