// `npm run bench -- mastery` (or `node --import tsx bench/mastery.ts`): mastery of standards at
// district size. Starts the analytics service on the testkit's embedded Postgres (a scratch
// database on a free port, none of stack mode's fixed ports), fills its mastery read model with
// generate_series in the shape the consumers leave (services/analytics/src/data-access/mastery.writer.ts):
//
//   100,000 students in 4,000 classes of 25 (800 teachers, 5 classes each), 1 district admin;
//   200 standards; each class assessed on 10 of them by 5 assessments aligned to all 10;
//   mastery_evidence: every student × 10 standards × 5 assessments = 5,000,000 rows (score 0–100);
//   student_mastery: the decaying average of each student's 5 scores per standard, in SQL by its
//     closed form (Σ 0.65·0.35^(n−i)·xᵢ, the first 0.35^(n−1)·x₁), checked against the service's own
//     rule (domain/mastery.ts) on a sample; class_mastery_figures summed from it;
//
// then calls, on the service with the gateway's caller headers, the district standards view
// (GET /api/mastery/district, the district admin), a class heatmap (GET /api/classes/{id}/mastery,
// a random class's teacher) and a student's trend (GET /api/mastery/students/{id}, their teacher):
// MASTERY_CLIENTS concurrent clients (2) for MASTERY_SECONDS (15) each after MASTERY_WARMUP_SECONDS
// (3); p50/p95/p99 against the target p95 < 200 ms. Prints a JSON summary; exit 1 on an error.
import { performance } from 'node:perf_hooks';
import { call, startServiceForTest, type Actor } from '@checkpoint/testkit';
import { analyticsService } from '../services/analytics/src/index.ts';
import { mastery } from '../services/analytics/src/domain/mastery.ts';
import { percentile } from './stats.mjs';

const STUDENTS = Number(process.env.MASTERY_STUDENTS ?? 100_000);
const CLIENTS = Number(process.env.MASTERY_CLIENTS ?? 2);
const SECONDS = Number(process.env.MASTERY_SECONDS ?? 15);
const WARMUP_SECONDS = Number(process.env.MASTERY_WARMUP_SECONDS ?? 3);
const TARGET_P95 = 200;
const CLASS_SIZE = 25;
const CLASSES = Math.ceil(STUDENTS / CLASS_SIZE);
const TEACHERS = Math.ceil(CLASSES / 5);
const STANDARDS = 200;
const PER_CLASS = 10; // standards assessed in each class
const ASSESSMENTS = 5; // per class, each aligned to the class's 10 standards

const id = (prefix: string, n: string) => `md5('bench:${prefix}:' || ${n})::uuid`;

const log = (msg: string) => process.stderr.write(`[mastery] ${msg}\n`);
const h = await startServiceForTest(analyticsService);
const sql = h.sql;
const tenantId = (await sql.query(`select ${id('tenant', "'district'")} as t`)).rows[0].t as string;

async function step(name: string, text: string) {
  const t0 = performance.now();
  const res = await sql.query(text);
  log(`${name}: ${res.rowCount ?? 0} rows, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function main() {
  const seedStart = performance.now();
  const T = `'${tenantId}'::uuid`;
  await sql.query('set synchronous_commit = off');
  await step(
    'people',
    `insert into people (user_id, tenant_id, first_name, last_name, email, role, registered_at, tenant_kind)
   select ${id('s', 's::text')}, ${T}, 'Student', 'N' || s, 's' || s || '@bench.test', 'student', '2026-08-01'::timestamptz, 'district'
     from generate_series(1, ${STUDENTS}) s
   union all
   select ${id('t', 't::text')}, ${T}, 'Teacher', 'N' || t, 't' || t || '@bench.test', 'teacher', '2026-08-01'::timestamptz, 'district'
     from generate_series(1, ${TEACHERS}) t
   union all select ${id('admin', "'1'")}, ${T}, 'Admin', 'One', 'admin@bench.test', 'admin', '2026-08-01'::timestamptz, 'district'`,
  );
  await step(
    'classes',
    `insert into classes (class_id, tenant_id, teacher_id, name, subject, period, created_at)
   select ${id('c', 'c::text')}, ${T}, ${id('t', '((c - 1) / 5 + 1)::text')}, 'Maths ' || c, 'Mathematics', '1', '2026-08-15'::timestamptz
     from generate_series(1, ${CLASSES}) c`,
  );
  await step(
    'memberships',
    `insert into memberships (class_id, student_id, tenant_id, joined_at)
   select ${id('c', `((s - 1) / ${CLASS_SIZE} + 1)::text`)}, ${id('s', 's::text')}, ${T}, '2026-08-20'::timestamptz
     from generate_series(1, ${STUDENTS}) s`,
  );
  await step(
    'assessments',
    `insert into assessments (assessment_id, tenant_id, class_id, title, created_at)
   select ${id('a', "c || ':' || j")}, ${T}, ${id('c', 'c::text')}, 'Unit check ' || j, '2026-09-01'::timestamptz + j * interval '14 days'
     from generate_series(1, ${CLASSES}) c, generate_series(1, ${ASSESSMENTS}) j`,
  );
  // Class c is assessed on standards ((c % 20) · 10 + k), k = 0…9: each standard in 1/20 of the classes.
  await step(
    'mastery_evidence',
    `insert into mastery_evidence (result_id, identifier, code, tenant_id, student_id, class_id, assessment_id,
                                 earned, total, score, submitted_at)
   select ${id('r', "s || ':' || j")}, 'std-' || std, 'BENCH.Math.' || std, ${T}, ${id('s', 's::text')},
          ${id('c', 'c::text')}, ${id('a', "c || ':' || j")}, x / 25.0, 4, x, '2026-09-01'::timestamptz + j * interval '14 days'
     from generate_series(1, ${STUDENTS}) s
     cross join lateral (select (s - 1) / ${CLASS_SIZE} + 1 as c) cl
     cross join generate_series(0, ${PER_CLASS - 1}) k
     cross join lateral (select (c % ${STANDARDS / PER_CLASS}) * ${PER_CLASS} + k as std) st
     cross join generate_series(1, ${ASSESSMENTS}) j
     cross join lateral (select (abs(hashtext(s || ':' || k || ':' || j)) % 5) * 25 as x) sc`,
  );
  await step(
    'student_mastery',
    `insert into student_mastery (class_id, student_id, identifier, tenant_id, code, score, level, evidence_count, last_evidence_at)
   select class_id, student_id, identifier, ${T}, code, m,
          case when round(m::numeric, 2) >= 90 then 'above' when round(m::numeric, 2) >= 80 then 'at' else 'below' end, n, last_at
     from (select class_id, student_id, identifier, max(code) as code, count(*)::int as n, max(submitted_at) as last_at,
                  round(sum(score * case when rn = 1 then power(0.35::float8, (n - 1)::float8)
                                         else 0.65 * power(0.35::float8, (n - rn)::float8) end)::numeric, 2)::float8 as m
             from (select e.*, row_number() over w as rn, count(*) over (partition by class_id, student_id, identifier) as n
                     from mastery_evidence e
                   window w as (partition by class_id, student_id, identifier order by submitted_at, result_id)) o
            group by class_id, student_id, identifier) g`,
  );
  await step(
    'class_mastery_figures',
    `insert into class_mastery_figures (class_id, identifier, tenant_id, code, students, score_sum, below, at, above)
   select class_id, identifier, ${T}, max(code), count(*), sum(score), count(*) filter (where level = 'below'),
          count(*) filter (where level = 'at'), count(*) filter (where level = 'above')
     from student_mastery group by class_id, identifier`,
  );
  await step('vacuum', 'vacuum (analyze)');
  const seedSeconds = (performance.now() - seedStart) / 1000;

  // The SQL closed form against the service's rule, on a sample of 200 students and standards.
  const sample = await sql.query<{ scores: number[]; ats: Date[]; ids: string[]; score: number; level: string }>(
    `select array_agg(e.score order by e.submitted_at, e.result_id) as scores, array_agg(e.submitted_at order by e.submitted_at, e.result_id) as ats,
          array_agg(e.result_id::text order by e.submitted_at, e.result_id) as ids, m.score, m.level
     from (select * from student_mastery tablesample bernoulli (1) limit 200) m
     join mastery_evidence e on e.class_id = m.class_id and e.student_id = m.student_id and e.identifier = m.identifier
    group by m.class_id, m.student_id, m.identifier, m.score, m.level`,
  );
  for (const r of sample.rows) {
    const expected = mastery(r.scores.map((score, i) => ({ score, at: r.ats[i]!, id: r.ids[i]! })))!;
    if (Math.abs(expected.score - r.score) > 0.011 || expected.level !== r.level)
      throw new Error(
        `seeded mastery ${r.score}/${r.level} differs from the rule's ${expected.score}/${expected.level}`,
      );
  }
  const counts = (
    await sql.query(
      `select (select count(*) from mastery_evidence)::int as evidence, (select count(*) from student_mastery)::int as mastery,
            (select count(*) from class_mastery_figures)::int as figures`,
    )
  ).rows[0];
  log(
    `seeded in ${seedSeconds.toFixed(0)} s: ${JSON.stringify(counts)}; ${sample.rowCount} sampled rows agree with the rule`,
  );

  const admin: Actor = {
    userId: (await sql.query(`select ${id('admin', "'1'")} as u`)).rows[0].u,
    tenantId,
    role: 'admin',
  };
  const ids = async (expr: string, n: number) =>
    (await sql.query<{ id: string }>(`select ${expr} as id from generate_series(1, ${n}) n`)).rows.map((r) => r.id);
  const classIds = await ids(id('c', 'n::text'), CLASSES);
  const teacherIds = await ids(id('t', 'n::text'), TEACHERS);
  const studentIds = await ids(id('s', 'n::text'), STUDENTS);
  const teacherOf = (c: number): Actor => ({ userId: teacherIds[Math.floor(c / 5)]!, tenantId, role: 'teacher' });

  type Request = () => { who: Actor; path: string };
  const CALLS: [string, Request][] = [
    [
      'district standards view `GET /api/mastery/district` (district admin)',
      () => ({ who: admin, path: '/api/mastery/district' }),
    ],
    [
      'class heatmap `GET /api/classes/{id}/mastery` (its teacher)',
      () => {
        const c = Math.floor(Math.random() * CLASSES);
        return { who: teacherOf(c), path: `/api/classes/${classIds[c]}/mastery` };
      },
    ],
    [
      'student trend `GET /api/mastery/students/{id}` (their teacher)',
      () => {
        const s = Math.floor(Math.random() * STUDENTS);
        return { who: teacherOf(Math.floor(s / CLASS_SIZE)), path: `/api/mastery/students/${studentIds[s]}` };
      },
    ],
  ];

  async function measure(name: string, request: Request) {
    const run = async (seconds: number) => {
      const times: number[] = [];
      let errors = 0;
      let bytes = 0;
      const end = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (performance.now() < end) {
            const { who, path } = request();
            const t0 = performance.now();
            const res = await call(h, who, 'GET', path);
            times.push(performance.now() - t0);
            bytes += JSON.stringify(res.body).length;
            if (res.status !== 200) errors++;
          }
        }),
      );
      return { times: times.sort((a, b) => a - b), errors, bytes };
    };
    await run(WARMUP_SECONDS);
    const { times, errors, bytes } = await run(SECONDS);
    const r = (p: number) => Number((percentile(times, p) ?? 0).toFixed(1));
    const row = {
      name,
      requests: times.length,
      errors,
      p50: r(50),
      p95: r(95),
      p99: r(99),
      max: r(100),
      kb: Math.round(bytes / times.length / 1024),
    };
    log(JSON.stringify(row));
    return row;
  }

  const rows = [];
  for (const [name, request] of CALLS) rows.push(await measure(name, request));
  const summary = {
    students: STUDENTS,
    ...counts,
    seedSeconds: Math.round(seedSeconds),
    clients: CLIENTS,
    seconds: SECONDS,
    targetP95: TARGET_P95,
    rows,
  };
  console.log(JSON.stringify(summary, null, 2));
  return rows.every((r) => r.errors === 0);
}

const ok = await main().finally(() => h.stop());
if (!ok) process.exit(1);
