// `npm run quality`: the offline generator over the corpus and the held-out lessons, checked by the
// quality rules. Prints the share of items passing overall and on the held-out lessons, the share
// beyond recall by skill, each fault's count, the sets that came out short and the failing items;
// exits 1 below the gate (corpus.ts: 90 % sound, a third beyond recall, 85 % of the items asked
// made). `--items` also prints every item.
import { QUALITY_RULES, SKILLS } from '../src/domain/item-quality.ts';
import {
  GATE_BEYOND_RECALL_SHARE,
  GATE_COUNT,
  GATE_MADE_SHARE,
  GATE_PASS_SHARE,
  GATE_TYPES,
  readLessons,
  runCorpus,
} from './corpus.ts';

const pct = (n: number, total: number) => `${total ? ((n / total) * 100).toFixed(1) : '0.0'} %`;
const lessons = readLessons();
const started = Date.now();
const { report, heldOut, sets, refused } = runCorpus(lessons);
const subjects = [...new Set(lessons.map((l) => l.subject))];
const grades = lessons.map((l) => l.grade);

console.log('Question quality report (offline generator)');
console.log(
  `Corpus: ${lessons.length} lessons (${lessons.filter((l) => l.heldOut).length} held out, never tuned on), grades ${Math.min(...grades)}–${Math.max(...grades)}, subjects: ${subjects.join(', ')}`,
);
console.log(
  `Sets: ${GATE_TYPES.join(', ')} × ${GATE_COUNT} questions per lesson (${sets.length} made, ${refused.length} refused)`,
);
console.log(`Items passing every rule: ${report.passing} of ${report.items} = ${pct(report.passing, report.items)}`);
console.log(
  `  held-out lessons alone: ${heldOut.passing} of ${heldOut.items} = ${pct(heldOut.passing, heldOut.items)}`,
);
console.log(
  `Items beyond recall: ${report.beyondRecall} of ${report.items} = ${pct(report.beyondRecall, report.items)} (held out: ${pct(heldOut.beyondRecall, heldOut.items)})`,
);
for (const skill of SKILLS) console.log(`  ${skill.padEnd(22)} ${String(report.skills[skill]).padStart(5)}`);
console.log('Faults (items breaking each rule):');
for (const rule of QUALITY_RULES)
  console.log(`  ${rule.padEnd(22)} ${String(report.items - report.perRule[rule]).padStart(5)}`);
for (const r of refused) console.log(`Refused: ${r.file} (${r.type}): ${r.reason}`);
if (report.failures.length) {
  console.log('Failing items:');
  for (const f of report.failures) console.log(`  [${f.rule}] ${f.questionText}\n      ${f.detail}`);
}
if (process.argv.includes('--items'))
  for (const s of sets) {
    console.log(`\n${s.file} · ${s.type}`);
    for (const q of s.questions)
      console.log(
        `  - ${q.questionText}${q.options.length ? `  [${q.options.join(' | ')}]` : ''}  → ${q.correctAnswer}`,
      );
  }
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
const share = (n: number, total: number) => (total ? n / total : 0);
const asked = sets.length * GATE_COUNT;
console.log(
  `Items made: ${report.items} of ${asked} asked = ${pct(report.items, asked)} (${refused.length} sets short)`,
);
const need = `${GATE_PASS_SHARE * 100} % sound (held-out lessons too), ${(GATE_BEYOND_RECALL_SHARE * 100).toFixed(0)} % beyond recall, ${GATE_MADE_SHARE * 100} % of the items asked made`;
if (
  [report, heldOut].some((r) => share(r.passing, r.items) < GATE_PASS_SHARE) ||
  share(report.beyondRecall, report.items) < GATE_BEYOND_RECALL_SHARE ||
  share(report.items, asked) < GATE_MADE_SHARE
) {
  console.log(`Gate: FAILED (need ${need})`);
  process.exit(1);
}
console.log(`Gate: passed (${need})`);
