// `npm run bench -- standards-search` (or `node --import tsx bench/standards-search.ts`): the
// standards catalogue's type-ahead at a district's size. Starts the assessment service on the
// testkit's embedded Postgres (a scratch database, no fixed ports), imports generated CASE
// frameworks through POST /api/standards/frameworks (default 3 × 15,000 items for the measured
// district and one more of 15,000 for another district, which its searches must skip), then times
// GET /api/standards/search for code prefixes and for words, with and without a grade filter.
// Reports each import's wall time and p50/p95/p99 per kind of query; target p95 < 100 ms.
// Env: BENCH_STANDARDS_FRAMEWORKS (3), BENCH_STANDARDS_ITEMS (15000), BENCH_STANDARDS_QUERIES (300).
import { randomUUID } from 'node:crypto';
import { actor, call, startServiceForTest } from '@checkpoint/testkit';
import { assessmentService } from '../services/assessment/src/index.ts';
import { summarize } from './stats.mjs';

const FRAMEWORKS = Number(process.env.BENCH_STANDARDS_FRAMEWORKS ?? 3);
const ITEMS = Number(process.env.BENCH_STANDARDS_ITEMS ?? 15_000);
const QUERIES = Number(process.env.BENCH_STANDARDS_QUERIES ?? 300);
const TARGET_P95_MS = 100;

// A deterministic generator (the same frameworks every run).
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const GRADES = ['KG', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
const DOMAINS = ['RP', 'NS', 'EE', 'G', 'SP', 'OA', 'NBT', 'NF', 'MD', 'F', 'A', 'N', 'S', 'RL', 'RI', 'W', 'SL', 'L'];
const VERBS = [
  'understand',
  'use',
  'solve',
  'explain',
  'compare',
  'represent',
  'interpret',
  'analyze',
  'describe',
  'apply',
];
const NOUNS = [
  'ratio',
  'unit rates',
  'fractions',
  'decimals',
  'linear equations',
  'expressions',
  'area',
  'volume',
  'angles',
  'probability',
  'statistical variability',
  'place value',
  'multiplication',
  'division',
  'functions',
  'proportional relationships',
  'coordinate plane',
  'integers',
  'exponents',
  'inequalities',
  'central idea',
  'narrative text',
  'evidence',
  'argument',
  'vocabulary',
  'figurative language',
];
const CONTEXTS = [
  'in real-world and mathematical problems',
  'using models and drawings',
  'with whole-number measurements',
  'to describe relationships between two quantities',
  'in the context of a text read aloud',
  'by citing textual evidence',
  'on a number line diagram',
  'with tables and graphs',
];

function framework(documentId: string, prefix: string) {
  const items = Array.from({ length: ITEMS }, (_, i) => {
    const grade = pick(GRADES);
    const code = `${prefix}.${grade === 'KG' ? 'K' : Number(grade)}.${pick(DOMAINS)}.${String.fromCharCode(65 + (i % 4))}.${i}`;
    const statement = `${pick(VERBS)} ${pick(NOUNS)} and ${pick(NOUNS)} ${pick(CONTEXTS)}; ${pick(VERBS)} ${pick(NOUNS)}.`;
    return {
      identifier: randomUUID(),
      humanCodingScheme: code,
      fullStatement: statement.charAt(0).toUpperCase() + statement.slice(1),
      educationLevel: [grade],
      CFItemType: 'Standard',
      uri: `https://case.example.org/ims/case/v1p0/CFItems/${i}`,
    };
  });
  return {
    CFDocument: {
      identifier: documentId,
      title: `Generated framework ${prefix}`,
      creator: 'Benchmark',
      subject: ['Mathematics'],
      uri: `https://case.example.org/ims/case/v1p0/CFDocuments/${documentId}`,
    },
    CFItems: items,
    CFAssociations: items.map((i) => ({
      identifier: randomUUID(),
      associationType: 'isChildOf',
      originNodeURI: { identifier: i.identifier },
      destinationNodeURI: { identifier: documentId },
    })),
  };
}

const h = await startServiceForTest(assessmentService, { STANDARDS_PACKAGE_LIMIT_BYTES: String(100 * 1024 * 1024) });
try {
  const district = randomUUID();
  const admin = actor('admin', district);
  const teacher = actor('teacher', district);
  const otherAdmin = actor('admin');
  const prefixes = Array.from({ length: FRAMEWORKS }, (_, i) => `ST${i}`);
  for (const [who, prefix] of [...prefixes.map((p) => [admin, p] as const), [otherAdmin, 'OTHER'] as const]) {
    const pkg = framework(randomUUID(), prefix);
    const bytes = JSON.stringify(pkg).length;
    const t0 = performance.now();
    const res = await call(h, who, 'POST', '/api/standards/frameworks', pkg);
    const ms = performance.now() - t0;
    if (res.status !== 201)
      throw new Error(`import ${prefix}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    console.log(
      `› imported ${prefix}: ${ITEMS} items, ${(bytes / 1024 / 1024).toFixed(1)} MB of JSON in ${(ms / 1000).toFixed(2)} s`,
    );
  }
  await h.sql.query('analyze standard_items');
  await h.sql.query('analyze standard_frameworks');

  const kinds: Record<string, () => string> = {
    'code prefix': () =>
      `q=${encodeURIComponent(`${pick(prefixes)}.${Number(pick(GRADES.slice(1)))}.${pick(DOMAINS)}`)}`,
    'code prefix, lower case': () =>
      `q=${encodeURIComponent(`${pick(prefixes)}.${pick(['k', '3', '7'])}.`.toLowerCase())}`,
    words: () => `q=${encodeURIComponent(pick(NOUNS))}`,
    'words + grade': () =>
      `q=${encodeURIComponent(`${pick(VERBS)} ${pick(NOUNS)}`)}&grade=${Number(pick(GRADES.slice(1)))}`,
    'words + subject, limit 50': () => `q=${encodeURIComponent(pick(NOUNS))}&subject=Mathematics&limit=50`,
  };
  let failed = 0;
  const rows: string[] = [];
  for (const [kind, query] of Object.entries(kinds)) {
    for (let i = 0; i < 20; i++) await call(h, teacher, 'GET', `/api/standards/search?${query()}`); // warm-up
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      const res = await call(h, teacher, 'GET', `/api/standards/search?${query()}`);
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${kind}: ${res.status}`);
      found += (res.body as unknown[]).length;
      if ((res.body as { frameworkTitle: string }[]).some((r) => r.frameworkTitle.endsWith('OTHER')))
        throw new Error(`${kind}: another district's item was found`);
    }
    const s = summarize(times);
    if (s.p95! >= TARGET_P95_MS) failed++;
    rows.push(
      `| ${kind} | ${s.count} | ${(found / s.count).toFixed(1)} | ${s.p50!.toFixed(1)} | ${s.p95!.toFixed(1)} | ${s.p99!.toFixed(1)} |`,
    );
  }
  console.log(
    `\n${FRAMEWORKS} × ${ITEMS} items in the district, ${ITEMS} in another; times in ms, HTTP to the service`,
  );
  console.log('| query | n | items per answer | p50 | p95 | p99 |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log(
    failed ? `\n${failed} kinds of query above the target p95 < ${TARGET_P95_MS} ms` : '\nall within p95 < 100 ms',
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await h.stop();
}
