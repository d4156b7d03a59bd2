// The accessibility conformance report (VPAT® 2.5, WCAG edition) from the browser tests' results.
// Each browser test names the WCAG success criteria it shows in its annotations (type `wcag`,
// description `2.4.7` or `1.4.3 axe: color-contrast`; type `wcag-na`: the test shows the criterion
// does not apply, e.g. no audio or video anywhere). A criterion is
//   Supports            when every test naming it passed,
//   Partially Supports  when some passed and some failed,
//   Does Not Support    when every test naming it failed,
//   Not Applicable      when a passing test shows it does not apply (and none shows it is needed),
//   Not Evaluated       when no test names it (never "Supports" without a passing test).
// Writes reports/accessibility-conformance-report.md; the README links the checked-in copy, which
// must be current: when the new report states another level for any criterion, it is written and
// the check fails (review the changes and commit them); other changes (remarks) are written only.
//   node scripts/vpat.mjs [--results=e2e/test-results/results.json] [--out=reports/…md] [--summary=file]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const resultsFile = path.resolve(root, arg('results', 'e2e/test-results/results.json'));
const outFile = path.resolve(root, arg('out', 'reports/accessibility-conformance-report.md'));
const summaryFile = arg('summary', undefined);

/** WCAG 2.2 success criteria of levels A and AA, in the order of the VPAT's tables. */
export const CRITERIA = [
  ['1.1.1', 'Non-text Content', 'A'],
  ['1.2.1', 'Audio-only and Video-only (Prerecorded)', 'A'],
  ['1.2.2', 'Captions (Prerecorded)', 'A'],
  ['1.2.3', 'Audio Description or Media Alternative (Prerecorded)', 'A'],
  ['1.3.1', 'Info and Relationships', 'A'],
  ['1.3.2', 'Meaningful Sequence', 'A'],
  ['1.3.3', 'Sensory Characteristics', 'A'],
  ['1.4.1', 'Use of Color', 'A'],
  ['1.4.2', 'Audio Control', 'A'],
  ['2.1.1', 'Keyboard', 'A'],
  ['2.1.2', 'No Keyboard Trap', 'A'],
  ['2.1.4', 'Character Key Shortcuts', 'A'],
  ['2.2.1', 'Timing Adjustable', 'A'],
  ['2.2.2', 'Pause, Stop, Hide', 'A'],
  ['2.3.1', 'Three Flashes or Below Threshold', 'A'],
  ['2.4.1', 'Bypass Blocks', 'A'],
  ['2.4.2', 'Page Titled', 'A'],
  ['2.4.3', 'Focus Order', 'A'],
  ['2.4.4', 'Link Purpose (In Context)', 'A'],
  ['2.5.1', 'Pointer Gestures', 'A'],
  ['2.5.2', 'Pointer Cancellation', 'A'],
  ['2.5.3', 'Label in Name', 'A'],
  ['2.5.4', 'Motion Actuation', 'A'],
  ['3.1.1', 'Language of Page', 'A'],
  ['3.2.1', 'On Focus', 'A'],
  ['3.2.2', 'On Input', 'A'],
  ['3.2.6', 'Consistent Help', 'A'],
  ['3.3.1', 'Error Identification', 'A'],
  ['3.3.2', 'Labels or Instructions', 'A'],
  ['3.3.7', 'Redundant Entry', 'A'],
  ['4.1.1', 'Parsing (WCAG 2.0 and 2.1; obsolete and removed in WCAG 2.2)', 'A'],
  ['4.1.2', 'Name, Role, Value', 'A'],
  ['1.2.4', 'Captions (Live)', 'AA'],
  ['1.2.5', 'Audio Description (Prerecorded)', 'AA'],
  ['1.3.4', 'Orientation', 'AA'],
  ['1.3.5', 'Identify Input Purpose', 'AA'],
  ['1.4.3', 'Contrast (Minimum)', 'AA'],
  ['1.4.4', 'Resize Text', 'AA'],
  ['1.4.5', 'Images of Text', 'AA'],
  ['1.4.10', 'Reflow', 'AA'],
  ['1.4.11', 'Non-text Contrast', 'AA'],
  ['1.4.12', 'Text Spacing', 'AA'],
  ['1.4.13', 'Content on Hover or Focus', 'AA'],
  ['2.4.5', 'Multiple Ways', 'AA'],
  ['2.4.6', 'Headings and Labels', 'AA'],
  ['2.4.7', 'Focus Visible', 'AA'],
  ['2.4.11', 'Focus Not Obscured (Minimum)', 'AA'],
  ['2.5.7', 'Dragging Movements', 'AA'],
  ['2.5.8', 'Target Size (Minimum)', 'AA'],
  ['3.1.2', 'Language of Parts', 'AA'],
  ['3.2.3', 'Consistent Navigation', 'AA'],
  ['3.2.4', 'Consistent Identification', 'AA'],
  ['3.3.3', 'Error Suggestion', 'AA'],
  ['3.3.4', 'Error Prevention (Legal, Financial, Data)', 'AA'],
  ['3.3.8', 'Accessible Authentication (Minimum)', 'AA'],
  ['4.1.3', 'Status Messages', 'AA'],
];

/**
 * Criteria of which axe's rules check only a sliver (1.4.4: that zoom is not disabled; 1.4.12: no
 * inline !important spacing; 1.3.5: that autocomplete values are valid, not that fields have them;
 * 1.4.1: links in text only): axe passing alone does not make them "Supports".
 */
export const AXE_SLIVER = new Set(['1.3.5', '1.4.1', '1.4.4', '1.4.12']);

/** Every test of a Playwright JSON report: its file, title, outcome and annotations. */
export function testsOf(report) {
  const out = [];
  const walk = (suite, file, titles) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const annotations = [...(t.annotations ?? []), ...(t.results ?? []).flatMap((r) => r.annotations ?? [])].filter(
          (a, i, all) => all.findIndex((b) => b.type === a.type && b.description === a.description) === i,
        );
        out.push({
          file: here,
          title: [...titles, spec.title].join(' › '),
          // expected/flaky: passed; unexpected: failed; skipped: not run.
          status:
            t.status === 'expected' || t.status === 'flaky' ? 'passed' : t.status === 'skipped' ? 'skipped' : 'failed',
          annotations,
        });
      }
    for (const child of suite.suites ?? [])
      walk(child, here, suite.file || !suite.title || suite.title === here ? titles : [...titles, suite.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file, []);
  return out;
}

/** Criterion → its conformance level and remarks, from the tests. */
export function judge(tests) {
  const byCriterion = new Map();
  for (const t of tests) {
    if (t.status === 'skipped') continue;
    for (const a of t.annotations) {
      if (a.type !== 'wcag' && a.type !== 'wcag-na') continue;
      const [criterion, ...rest] = String(a.description ?? '').split(' ');
      if (!criterion) continue;
      const entry = byCriterion.get(criterion) ?? [];
      entry.push({ test: t, na: a.type === 'wcag-na', detail: rest.join(' ') });
      byCriterion.set(criterion, entry);
    }
  }
  const verdicts = new Map();
  for (const [criterion, name] of CRITERIA) {
    const shown = byCriterion.get(criterion) ?? [];
    const applies = shown.filter((s) => !s.na);
    const notApplicable = shown.filter((s) => s.na && s.test.status === 'passed');
    const passed = applies.filter((s) => s.test.status === 'passed');
    const failed = applies.filter((s) => s.test.status === 'failed');
    const cite = (list) =>
      [...new Map(list.map((s) => [`${s.test.file} › ${s.test.title}`, s])).values()]
        .map(
          (s) =>
            `${s.test.status === 'failed' ? 'FAILED: ' : ''}"${s.test.title}" (${s.test.file}${s.detail ? `; ${s.detail}` : ''})`,
        )
        .join('; ');
    let level;
    let remarks;
    const axeOnly = applies.length > 0 && applies.every((s) => s.detail.startsWith('axe:'));
    if (criterion === '4.1.1') {
      level = 'Not Applicable';
      remarks = 'Obsolete and removed in WCAG 2.2; not evaluated against WCAG 2.0 or 2.1 by these tests.';
    } else if (applies.length === 0 && notApplicable.length > 0) {
      level = 'Not Applicable';
      remarks = `Shown not to apply by ${cite(notApplicable)}.`;
    } else if (axeOnly && AXE_SLIVER.has(criterion) && failed.length === 0) {
      level = 'Not Evaluated';
      remarks = `Only a narrow part is checked: ${cite(passed)} passed; not evaluated beyond it.`;
    } else if (passed.length > 0 && failed.length === 0) {
      level = 'Supports';
      remarks = `Shown by ${cite(passed)}.`;
    } else if (passed.length > 0) {
      level = 'Partially Supports';
      remarks = `Passing: ${cite(passed)}. Failing: ${cite(failed)}.`;
    } else if (failed.length > 0) {
      level = 'Does Not Support';
      remarks = `Failing: ${cite(failed)}.`;
    } else {
      level = 'Not Evaluated';
      remarks = 'No automated test covers this criterion.';
    }
    verdicts.set(criterion, { name, level, remarks });
  }
  return verdicts;
}

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report (markdown) in the VPAT 2.5 WCAG edition's layout. */
export function render({ verdicts, tests, date, version }) {
  const table = (level) =>
    [
      '| Criteria | Conformance Level | Remarks and Explanations |',
      '| --- | --- | --- |',
      ...CRITERIA.filter(([, , l]) => l === level).map(([criterion]) => {
        const v = verdicts.get(criterion);
        return `| ${criterion} ${cell(v.name)} (Level ${level}) | ${v.level} | ${cell(v.remarks)} |`;
      }),
    ].join('\n');
  const counts = (level) => {
    const n = {};
    for (const [criterion, , l] of CRITERIA)
      if (l === level) n[verdicts.get(criterion).level] = (n[verdicts.get(criterion).level] ?? 0) + 1;
    return Object.entries(n)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
  };
  const annotated = tests.filter((t) => t.annotations.some((a) => a.type === 'wcag' || a.type === 'wcag-na'));
  return `# Checkpoint Accessibility Conformance Report

WCAG Edition (Based on VPAT® Version 2.5)

*Generated by \`scripts/vpat.mjs\` from the browser tests' results (\`npm test\`); do not edit by hand.*

## Name of Product/Version

Checkpoint ${version} (web application: every screen of the route table in \`web/src/routes\`)

## Report Date

${date}

## Product Description

Checkpoint is a formative-assessment platform for schools: teachers create classes and assessments and
assign them, students join classes, take assessments and practise, district admins import rosters and
manage their district.

## Contact Information

The Checkpoint project (see the README).

## Notes

This report is written from automated tests only; every conformance level below is the outcome of the
tests named in its row on the date above. A criterion no test covers is "Not Evaluated", never "Supports".
The tests ran in Chromium (Playwright, headless); ${annotated.length} of them name the criteria they show. No manual evaluation with assistive technology is reported here.

Also checked, beyond A and AA: 2.3.3 Animation from Interactions (Level AAA): ${
    annotated.some((t) => t.annotations.some((a) => a.type === 'wcag' && a.description === '2.3.3'))
      ? `with \`prefers-reduced-motion: reduce\` no screen of the keyboard journeys runs a CSS animation or transition (${
          annotated
            .filter((t) => t.annotations.some((a) => a.description === '2.3.3'))
            .every((t) => t.status === 'passed')
            ? 'passing'
            : 'FAILING'
        }).`
      : 'not evaluated.'
  }

## Evaluation Methods Used

- **axe-core** (\`@axe-core/playwright\`, rules tagged WCAG 2.0/2.1/2.2 A and AA) on every screen every browser
  test visits, and on every route of the route table opened as its user (signed out, teacher, student,
  district admin) with real data (\`e2e/tests/routes.spec.ts\`, which also checks that its list of routes
  is the route table). Any violation, whatever its impact, fails the test. A criterion credited to axe
  names the axe rules that ran and passed for it; axe checks part of a criterion, not all of it.
- **Keyboard-only journeys** (\`e2e/tests/keyboard.spec.ts\`): a teacher creates a class, creates an
  assessment and assigns it; a student joins a class, takes a timed assessment, submits and practises; a
  district admin imports a roster, with no pointer after each page loads. At each step the focus must
  reach the expected control (found by its role and accessible name in the accessibility tree), show a
  visible indicator, not lie entirely under other content (a toast) and change no page by taking the focus; dialogs keep and return the focus and close with Escape; saves, timer warnings and
  errors must reach a live region (or the focused, invalid field's description); every screen reached must
  have pointer targets of at least 24 × 24 CSS px or spaced, no CSS animation or transition with reduced
  motion asked, and no raster images (so no images of text); the student's taking, result and practice
  pages must reflow at 320 CSS px.
- Other browser tests name the criteria their checks show (\`e2e/tests/a11y.spec.ts\`: the skip link).

## Applicable Standards/Guidelines

| Standard/Guideline | Included In Report |
| --- | --- |
| Web Content Accessibility Guidelines 2.0 | Level A (Yes), Level AA (Yes), Level AAA (No) |
| Web Content Accessibility Guidelines 2.1 | Level A (Yes), Level AA (Yes), Level AAA (No) |
| Web Content Accessibility Guidelines 2.2 | Level A (Yes), Level AA (Yes), Level AAA (No) |

## Terms

- **Supports**: the functionality of the product has at least one method that meets the criterion without known defects or meets with equivalent facilitation.
- **Partially Supports**: some functionality of the product does not meet the criterion.
- **Does Not Support**: the majority of product functionality does not meet the criterion.
- **Not Applicable**: the criterion is not relevant to the product.
- **Not Evaluated**: the product has not been evaluated against the criterion.

## WCAG 2.x Report

### Table 1: Success Criteria, Level A

Summary: ${counts('A')}.

${table('A')}

### Table 2: Success Criteria, Level AA

Summary: ${counts('AA')}.

${table('AA')}

### Table 3: Success Criteria, Level AAA

Not included in this report.

## Legal Disclaimer

This report states the results of the automated tests named in it, on the version and date above. It is
not a legal opinion and makes no claim beyond those tests.
`;
}

/** The report without its date. */
const undated = (text) => text.replace(/## Report Date\n\n[^\n]*\n/, '');

/** Criterion → conformance level, as a report's tables state them. */
export function levelsOf(text) {
  const levels = new Map();
  for (const m of text.matchAll(
    /^\| (\d+\.\d+\.\d+) [^\n]*?\| (Supports|Partially Supports|Does Not Support|Not Applicable|Not Evaluated) \|/gm,
  ))
    levels.set(m[1], m[2]);
  return levels;
}

function main() {
  const summarise = (passed, failed) => {
    if (summaryFile) writeFileSync(summaryFile, JSON.stringify({ passed, failed }));
  };
  if (!existsSync(resultsFile)) {
    console.log(`No browser test results at ${path.relative(root, resultsFile)}: no report.`);
    summarise(0, 1);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const tests = testsOf(report);
  const verdicts = judge(tests);
  const version = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8')).version ?? '0.0.0';
  const date = new Date().toISOString().slice(0, 10);
  const text = render({ verdicts, tests, date, version });
  // The checked-in copy is current when it states the same level for every criterion; its remarks
  // (the axe rules that ran, say) are refreshed whenever they change, without failing.
  const before = existsSync(outFile) ? readFileSync(outFile, 'utf8') : '';
  const was = levelsOf(before);
  const current = was.size === verdicts.size && [...verdicts].every(([c, v]) => was.get(c) === v.level);
  if (undated(before) !== undated(text)) {
    mkdirSync(path.dirname(outFile), { recursive: true });
    writeFileSync(outFile, text);
  }
  const tally = {};
  for (const v of verdicts.values()) tally[v.level] = (tally[v.level] ?? 0) + 1;
  console.log(
    `${path.relative(root, outFile)}: ${Object.entries(tally)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}${current ? ' (the levels of the checked-in copy are current)' : ' (written: its levels differ from the checked-in copy; review and commit it)'}`,
  );
  summarise(current ? 1 : 0, current ? 0 : 1);
  process.exit(current ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
