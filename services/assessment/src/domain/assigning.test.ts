import { ValidationError } from '@checkpoint/service-kit';
import { describe, expect, it } from 'vitest';
import { planAssignment } from './assigning.ts';

const live = { archived: false };
const owned = new Map([
  ['c1', live],
  ['c2', live],
  ['old', { archived: true }],
]);
const members = new Map([
  ['c1', new Set(['s1', 's2', 's3'])],
  ['c2', new Set(['s4', 's5'])],
]);
const none = new Map<string, { wholeClass: boolean; studentIds: string[] }>();

function refusal(run: () => unknown): Record<string, string> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).fields ?? {};
  }
  throw new Error('not refused');
}

describe('planAssignment', () => {
  it('gives the assessment to its own class wholly when nothing is named', () => {
    expect(planAssignment({}, 'c1', owned, new Map(), none)).toEqual([
      { classId: 'c1', wholeClass: true, studentIds: [] },
    ]);
  });

  it('gives it to several classes, each wholly', () => {
    expect(planAssignment({ classIds: ['c1', 'c2'] }, 'c1', owned, new Map(), none)).toEqual([
      { classId: 'c1', wholeClass: true, studentIds: [] },
      { classId: 'c2', wholeClass: true, studentIds: [] },
    ]);
  });

  it('gives each class only its own chosen students', () => {
    expect(planAssignment({ classIds: ['c1', 'c2'], studentIds: ['s2', 's5'] }, 'c1', owned, members, none)).toEqual([
      { classId: 'c1', wholeClass: false, studentIds: ['s2'] },
      { classId: 'c2', wholeClass: false, studentIds: ['s5'] },
    ]);
  });

  it('only adds: chosen students join those chosen before, a whole class stays whole', () => {
    const current = new Map([
      ['c1', { wholeClass: false, studentIds: ['s1'] }],
      ['c2', { wholeClass: true, studentIds: [] }],
    ]);
    expect(planAssignment({ classIds: ['c1', 'c2'], studentIds: ['s2', 's4'] }, 'c1', owned, members, current)).toEqual(
      [{ classId: 'c1', wholeClass: false, studentIds: ['s1', 's2'] }],
    );
    // Nothing new: nothing to store, no event.
    expect(planAssignment({ studentIds: ['s1'] }, 'c1', owned, members, current)).toEqual([]);
    // The class given wholly after some of it was chosen.
    expect(planAssignment({}, 'c1', owned, members, current)).toEqual([
      { classId: 'c1', wholeClass: true, studentIds: [] },
    ]);
  });

  it('refuses, naming the field, what cannot be assigned', () => {
    expect(refusal(() => planAssignment({ classIds: ['c1', 'other'] }, 'c1', owned, members, none))).toEqual({
      'classIds.1': 'Not one of your classes',
    });
    expect(refusal(() => planAssignment({ classIds: ['old'] }, 'c1', owned, members, none))).toEqual({
      'classIds.0': 'This class is archived: restore it to assign to it',
    });
    expect(refusal(() => planAssignment({ classIds: ['c1', 'c1'] }, 'c1', owned, members, none))).toEqual({
      'classIds.1': 'This class is named twice',
    });
    expect(refusal(() => planAssignment({ studentIds: ['s1', 's4'] }, 'c1', owned, members, none))).toEqual({
      'studentIds.1': 'Not a student of the chosen classes',
    });
    expect(refusal(() => planAssignment({ studentIds: ['s1', 's1'] }, 'c1', owned, members, none))).toEqual({
      'studentIds.1': 'This student is named twice',
    });
    expect(
      refusal(() => planAssignment({ classIds: ['c1', 'c2'], studentIds: ['s1'] }, 'c1', owned, members, none)),
    ).toEqual({ 'classIds.1': 'None of the chosen students is in this class' });
  });
});
