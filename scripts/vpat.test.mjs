// The conformance levels of the VPAT (scripts/vpat.mjs) follow the tests: no "Supports" without a
// passing test naming the criterion.
import { describe, expect, it } from 'vitest';
import { CRITERIA, judge, levelsOf, render, testsOf } from './vpat.mjs';

const spec = (title, status, annotations) => ({
  title,
  line: 1,
  tests: [{ status, annotations, results: [{ annotations: [] }] }],
});

const report = {
  suites: [
    {
      file: 'keyboard.spec.ts',
      title: 'keyboard.spec.ts',
      specs: [
        spec('passes', 'expected', [
          { type: 'wcag', description: '2.4.7' },
          { type: 'wcag', description: '2.1.1' },
        ]),
        spec('fails', 'unexpected', [
          { type: 'wcag', description: '2.1.1' },
          { type: 'wcag', description: '2.5.8' },
        ]),
        spec('skipped', 'skipped', [{ type: 'wcag', description: '1.4.11' }]),
        spec('no media', 'expected', [{ type: 'wcag-na', description: '1.2.1 no audio or video' }]),
        spec('axe', 'expected', [
          { type: 'wcag', description: '1.4.3 axe: color-contrast' },
          { type: 'wcag', description: '1.4.4 axe: meta-viewport' },
        ]),
      ],
    },
  ],
};

describe('vpat', () => {
  const tests = testsOf(report);
  const verdicts = judge(tests);

  it('when every test naming a criterion passed, then it Supports, citing the test', () => {
    expect(verdicts.get('2.4.7')).toMatchObject({ level: 'Supports' });
    expect(verdicts.get('2.4.7').remarks).toContain('"passes" (keyboard.spec.ts)');
  });

  it('when some pass and some fail, then Partially Supports; when all fail, Does Not Support', () => {
    expect(verdicts.get('2.1.1').level).toBe('Partially Supports');
    expect(verdicts.get('2.5.8').level).toBe('Does Not Support');
    expect(verdicts.get('2.5.8').remarks).toContain('FAILED: "fails"');
  });

  it('when no test that ran names a criterion, then it is Not Evaluated (a skipped test counts for nothing)', () => {
    expect(verdicts.get('1.4.11').level).toBe('Not Evaluated');
    expect(verdicts.get('3.3.8').level).toBe('Not Evaluated');
  });

  it('when only axe checked a criterion, then Supports where its rules are the check, Not Evaluated where they check a sliver', () => {
    expect(verdicts.get('1.4.3').level).toBe('Supports');
    expect(verdicts.get('1.4.3').remarks).toContain('axe: color-contrast');
    expect(verdicts.get('1.4.4').level).toBe('Not Evaluated');
    expect(verdicts.get('1.4.4').remarks).toContain('Only a narrow part is checked');
  });

  it('when a passing test shows a criterion does not apply, then Not Applicable', () => {
    expect(verdicts.get('1.2.1')).toMatchObject({ level: 'Not Applicable' });
    expect(verdicts.get('1.2.1').remarks).toContain('no audio or video');
  });

  it('when rendered, then both tables list every A and AA criterion of WCAG 2.2', () => {
    const text = render({ verdicts, tests, date: '2026-01-01', version: '1.0.0' });
    expect(text).toContain('Based on VPAT® Version 2.5');
    expect(text).toContain('### Table 1: Success Criteria, Level A');
    expect(text).toContain('### Table 2: Success Criteria, Level AA');
    for (const [criterion] of CRITERIA) expect(text).toContain(`| ${criterion} `);
    expect(CRITERIA).toHaveLength(56);
  });

  it('when a report is read back, then each criterion has the level its table states', () => {
    const text = render({ verdicts, tests, date: '2026-01-01', version: '1.0.0' });
    const levels = levelsOf(text);
    expect(levels.size).toBe(CRITERIA.length);
    for (const [criterion, v] of verdicts) expect(levels.get(criterion)).toBe(v.level);
  });
});
