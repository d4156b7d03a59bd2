// `npm run bench -- bank-search` (or `node --import tsx bench/bank-search.ts`): the item bank's
// search (GET /api/bank/items) at a district's size. Starts the assessment service on the
// testkit's embedded Postgres (a scratch database, no fixed ports), writes generated items straight
// into bank_items (default 100,000 for the measured district, by 60 teachers of 10 schools, a mix of
// private, school and district items, and 100,000 more for another district, which its searches
// must never return), then times searches of each kind over HTTP to the service as the gateway
// calls it, as one teacher of the district. Reports the seeding's wall time and p50/p95/p99 per kind
// of query; target p95 < 100 ms. BENCH_BANK_EXPLAIN=1 also prints the plan (EXPLAIN ANALYZE) of the
// repository's own statement for one query of each kind.
// Env: BENCH_BANK_ITEMS (100000), BENCH_BANK_QUERIES (300).
import { randomUUID } from 'node:crypto';
import { actor, call, startServiceForTest } from '@checkpoint/testkit';
import type pg from 'pg';
import { assessmentService } from '../services/assessment/src/index.ts';
import { bankRepository } from '../services/assessment/src/data-access/bank.repository.ts';
import { bankUseCases } from '../services/assessment/src/domain/bank.use-case.ts';
import { summarize } from './stats.mjs';

const ITEMS = Number(process.env.BENCH_BANK_ITEMS ?? 100_000);
const QUERIES = Number(process.env.BENCH_BANK_QUERIES ?? 300);
const TARGET_P95_MS = 100;
const BATCH = 5_000;
const EXPLAIN = process.env.BENCH_BANK_EXPLAIN === '1';

// A deterministic generator (the same items every run).
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const TYPES = ['multiple_choice', 'short_answer', 'true_false'] as const;
const SUBJECTS = ['Mathematics', 'Science', 'English', 'History', 'Geography', 'Biology', 'Chemistry', 'Physics'];
const GRADES = ['K', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'];
const STEMS = ['Which', 'What', 'Explain why', 'Describe how', 'Compare', 'Identify', 'Calculate', 'Name'];
const NOUNS = [
  'ratio',
  'unit rate',
  'fractions',
  'decimals',
  'linear equations',
  'photosynthesis',
  'evaporation',
  'condensation',
  'the water cycle',
  'plate tectonics',
  'the civil war',
  'the constitution',
  'main idea',
  'figurative language',
  'narrative voice',
  'cell division',
  'chemical reactions',
  'velocity',
  'gravity',
  'ecosystems',
  'food chains',
  'volcanoes',
  'probability',
  'area of a triangle',
  'volume of a prism',
  'exponents',
  'inequalities',
  'the industrial revolution',
  'migration',
  'climate',
];
const CONTEXTS = [
  'in a real-world problem',
  'using a model',
  'from the passage',
  'in the diagram',
  'on a number line',
  'with evidence from the text',
  'in everyday life',
  'in the experiment',
];
const DOMAINS = ['RP', 'NS', 'EE', 'G', 'SP', 'ESS2', 'LS1', 'PS2', 'RL', 'RI'];

function item(tenantId: string, authors: { id: string; school: string }[], i: number) {
  const author = pick(authors);
  const r = random();
  const visibility = r < 0.6 ? 'district' : r < 0.85 ? 'school' : 'private';
  const type = pick(TYPES);
  const grade = pick(GRADES);
  const code = `ST.${grade}.${pick(DOMAINS)}.${(i % 40) + 1}`;
  const text = `${pick(STEMS)} ${pick(NOUNS)} and ${pick(NOUNS)} ${pick(CONTEXTS)}? (${i})`;
  return {
    id: randomUUID(),
    tenantId,
    authorId: author.id,
    visibility,
    schoolIds: visibility === 'school' ? [author.school] : [],
    questionText: text,
    questionType: type,
    options: type === 'multiple_choice' ? ['A', 'B', 'C', 'D'] : type === 'true_false' ? ['True', 'False'] : [],
    correctAnswer: type === 'multiple_choice' ? 'A' : type === 'true_false' ? 'True' : pick(NOUNS),
    subject: pick(SUBJECTS),
    grade,
    topic: pick(NOUNS),
    standard: code,
    standards: [{ identifier: `id-${code}`, code, uri: '', frameworkId: null }],
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
  };
}

const h = await startServiceForTest(assessmentService);
try {
  const district = randomUUID();
  const other = randomUUID();
  const schools = Array.from({ length: 10 }, (_, i) => `school-${i}`);
  const teachersOf = (tenantId: string) =>
    Array.from({ length: 60 }, (_, i) => ({ id: randomUUID(), school: schools[i % schools.length]!, tenantId }));
  const teachers = teachersOf(district);
  const others = teachersOf(other);
  for (const t of [...teachers, ...others])
    await h.sql.query(
      `insert into classes (class_id, tenant_id, teacher_id, name, subject, school_id, grades)
       values ($1, $2, $3, 'Class', 'Science', $4, '{7}')`,
      [randomUUID(), t.tenantId, t.id, t.school],
    );

  const t0 = performance.now();
  for (const [tenantId, authors] of [
    [district, teachers],
    [other, others],
  ] as const) {
    for (let start = 0; start < ITEMS; start += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, ITEMS - start) }, (_, k) => item(tenantId, authors, start + k));
      const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
      await h.sql.query(
        `insert into bank_items (id, tenant_id, author_id, visibility, school_ids, question_text, question_type, options,
           correct_answer, subject, grade, topic, standard, standards, standard_keys, created_at, updated_at)
         select u.id, u.tenant_id, u.author_id, u.visibility, array_remove(array[u.school], null), u.question_text,
                u.question_type, string_to_array(u.options, '|'), u.correct_answer, u.subject, u.grade, u.topic,
                u.standard, u.standards::jsonb, array[lower(u.standard), lower('id-' || u.standard)], u.updated_at,
                u.updated_at
           from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::timestamptz[])
             as u(id, tenant_id, author_id, visibility, school, question_text, question_type, options, correct_answer,
                  subject, grade, topic, standard, standards, updated_at)`,
        [
          col('id'),
          col('tenantId'),
          col('authorId'),
          col('visibility'),
          rows.map((r) => r.schoolIds[0] ?? null),
          col('questionText'),
          col('questionType'),
          rows.map((r) => r.options.join('|')),
          col('correctAnswer'),
          col('subject'),
          col('grade'),
          col('topic'),
          col('standard'),
          rows.map((r) => JSON.stringify(r.standards)),
          col('updatedAt'),
        ],
      );
    }
  }
  await h.sql.query('vacuum analyze bank_items');
  console.log(`› seeded 2 × ${ITEMS} items in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const reader = teachers[0]!;
  const teacher = { ...actor('teacher', district), userId: reader.id };
  const kinds: Record<string, () => string> = {
    'browse (no filter)': () => '',
    'browse, page 5': () => 'page=5',
    'one word': () => `q=${encodeURIComponent(pick(NOUNS).split(' ').pop()!)}`,
    'two words': () => `q=${encodeURIComponent(`${pick(NOUNS).split(' ').pop()} ${pick(NOUNS).split(' ').pop()}`)}`,
    'word + type': () => `q=${encodeURIComponent(pick(NOUNS).split(' ').pop()!)}&type=${pick(TYPES)}`,
    'word + subject + grade': () =>
      `q=${encodeURIComponent(pick(NOUNS).split(' ').pop()!)}&subject=${pick(SUBJECTS)}&grade=${pick(GRADES)}`,
    'standard code': () =>
      `standard=${encodeURIComponent(`ST.${pick(GRADES)}.${pick(DOMAINS)}.${1 + Math.floor(random() * 40)}`)}`,
    'subject + grade': () => `subject=${pick(SUBJECTS)}&grade=${pick(GRADES)}`,
    'rare word (no match)': () => `q=${encodeURIComponent(`zyx${Math.floor(random() * 1000)}`)}`,
    'mine, word': () => `scope=mine&q=${encodeURIComponent(pick(NOUNS).split(' ').pop()!)}`,
  };
  if (EXPLAIN) {
    // The repository's statements, each run under EXPLAIN ANALYZE on the scratch database.
    const explaining = {
      query: async (sql: string, params: unknown[]) => {
        if (!(/from bank_items b where/.test(sql) && /order by/.test(sql))) return h.sql.query(sql, params);
        const plan = await h.sql.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${sql}`, params);
        console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
        return { rows: [], rowCount: 0 };
      },
    } as unknown as pg.Pool;
    const uc = bankUseCases({ bank: bankRepository(explaining), assessments: null as never, questions: null as never });
    for (const [kind, query] of Object.entries(kinds)) {
      const params = Object.fromEntries(new URLSearchParams(query()));
      console.log(`\n--- ${kind}: ${JSON.stringify(params)}`);
      await uc.search({ tenantId: district, userId: reader.id, role: 'teacher' }, {
        ...params,
        page: Number(params.page ?? 1),
        pageSize: 20,
      } as never);
    }
  }
  let failed = 0;
  const rows: string[] = [];
  for (const [kind, query] of Object.entries(kinds)) {
    for (let i = 0; i < 20; i++) await call(h, teacher, 'GET', `/api/bank/items?${query()}`); // warm-up
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < QUERIES; i++) {
      const t = performance.now();
      const res = await call(h, teacher, 'GET', `/api/bank/items?${query()}`);
      times.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`${kind}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      const items = (res.body as { items: { id: string }[] }).items;
      found += items.length;
    }
    const s = summarize(times);
    if (s.p95! >= TARGET_P95_MS) failed++;
    rows.push(
      `| ${kind} | ${s.count} | ${(found / s.count).toFixed(1)} | ${s.p50!.toFixed(1)} | ${s.p95!.toFixed(1)} | ${s.p99!.toFixed(1)} |`,
    );
  }
  // No item of the other district is ever found (their texts are alike: look the ids up).
  const sample = await call(h, teacher, 'GET', '/api/bank/items?pageSize=50&q=ratio');
  const sampleIds = (sample.body as { items: { id: string }[] }).items.map((i) => i.id);
  const foreign = await h.sql.query(
    'select count(*)::int as n from bank_items where id = any($1) and tenant_id <> $2',
    [sampleIds, district],
  );
  if (foreign.rows[0].n !== 0) throw new Error("another district's item was found");

  console.log(`\n${ITEMS} items in the district, ${ITEMS} in another; times in ms, HTTP to the service`);
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
