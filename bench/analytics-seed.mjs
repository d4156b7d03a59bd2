// Bulk seed of the analytics read model: one district of 100,000 students and 1,000,000 results,
// written straight into the analytics schema's tables with generate_series (no events, no inbox
// rows), in the shape the consumers (services/analytics/src/data-access/read-model.writer.ts)
// would have left after the same events:
//
//   people        100,000 students, 800 teachers (5 classes each), 1 district admin
//   classes       4,000 classes of 25 students; memberships 100,000 (each student in one class)
//   assessments   10 per class (40,000), 10 multiple-choice questions each (400,000 questions)
//   results       every student takes every assessment of their class: 1,000,000 results of
//                 0–10 points out of 10; level as the assessment service scores it (below < 80 %,
//                 at from 80 %, above from 90 %)
//   result_answers one row per question for the results of the first ANALYTICS_ANSWERS_SHARE of
//                 the classes (default 0.1: 1,000,000 rows); correct = question position <= points
//   tenant_figures / student_figures: computed from the results exactly as the consumers' running
//                 sums add them up (count, sum of percentages, below/at/above)
//
// Ids are md5-derived (`md5('bench:s:42')::uuid`, …), so every id can be computed from its number
// without a lookup and a second seed of the same tenant finds it already there (it then does
// nothing, unless ANALYTICS_RESEED=1). Times come from a fixed school year, not now().
//
// Usage: DATABASE_URL=postgres://…(owner of the schema) [DATABASE_SCHEMA=analytics] node bench/analytics-seed.mjs
// Prints one JSON line with the ids a benchmark needs (tenant, admin, a teacher, a class).
// Also imported by bench/analytics.mjs (seedDistrict).
import pg from 'pg';
import { fileURLToPath } from 'node:url';

export const DISTRICT = {
  students: Number(process.env.ANALYTICS_STUDENTS ?? 100_000),
  classSize: 25,
  classesPerTeacher: 5,
  assessmentsPerClass: 10,
  questionsPerAssessment: 10,
  answersShare: Number(process.env.ANALYTICS_ANSWERS_SHARE ?? 0.1),
};

/** The md5-derived ids (SQL expression and JS value agree: both are md5 of the same text as a uuid). */
export const idSql = (prefix, ...parts) => `md5('bench:${prefix}:' || ${parts.join(" || ':' || ")})::uuid`;

const FIRST = [
  'Aiden', 'Amara', 'Ava', 'Benjamin', 'Carlos', 'Chloe', 'Daniel', 'Diya', 'Elena', 'Ethan', 'Fatima',
  'Gabriel', 'Grace', 'Hannah', 'Hiro', 'Isabella', 'Isaac', 'Jade', 'James', 'Kai', 'Layla', 'Liam',
  'Lucas', 'Maya', 'Mateo', 'Mia', 'Noah', 'Nora', 'Olivia', 'Omar', 'Priya', 'Quinn', 'Ravi', 'Rosa',
  'Samuel', 'Sofia', 'Tariq', 'Theo', 'Uma', 'Victor', 'Wei', 'Willow', 'Xavier', 'Yara', 'Yusuf', 'Zara',
  'Zoe', 'Leo', 'Ines', 'Aria',
]; // prettier-ignore
const LAST = [
  'Adams', 'Ali', 'Anderson', 'Baker', 'Brown', 'Campbell', 'Chen', 'Clark', 'Cohen', 'Costa', 'Davis',
  'Diaz', 'Evans', 'Fischer', 'Garcia', 'Green', 'Gupta', 'Hall', 'Harris', 'Hernandez', 'Hill', 'Ito',
  'Jackson', 'Johnson', 'Jones', 'Kaur', 'Kim', 'King', 'Kowalski', 'Lee', 'Lewis', 'Lopez', 'Martin',
  'Martinez', 'Miller', 'Mitchell', 'Moore', 'Murphy', 'Nakamura', 'Nguyen', 'Novak', 'Okafor', 'Olsen',
  'Patel', 'Perez', 'Phillips', 'Ramirez', 'Reyes', 'Roberts', 'Robinson', 'Rossi', 'Sanchez', 'Santos',
  'Schmidt', 'Scott', 'Shah', 'Silva', 'Singh', 'Smith', 'Tanaka', 'Taylor', 'Thomas', 'Thompson',
  'Torres', 'Turner', 'Walker', 'White', 'Williams', 'Wilson', 'Wright', 'Yamamoto', 'Young', 'Zhang',
  'Ahmed', 'Bauer', 'Dubois', 'Eriksen', 'Fernandes', 'Ivanova', 'Jensen',
]; // prettier-ignore
const SUBJECTS = ['Science', 'Mathematics', 'English', 'History', 'Geography', 'Biology', 'Chemistry', 'Physics'];
const TOPICS = ['Photosynthesis', 'Fractions', 'Poetry', 'The Romans', 'Rivers', 'Cells', 'Atoms', 'Forces'];

/** Figures of a district of `students` (derived, so that a smaller seed keeps the same shape). */
export function districtShape(d = DISTRICT) {
  const classes = Math.ceil(d.students / d.classSize);
  const teachers = Math.ceil(classes / d.classesPerTeacher);
  return {
    ...d,
    classes,
    teachers,
    assessments: classes * d.assessmentsPerClass,
    results: classes * d.assessmentsPerClass * d.classSize,
    answerClasses: Math.round(classes * d.answersShare),
  };
}

/** The ids the measurements use, as computed in SQL (select them rather than re-implement md5 here). */
export async function districtIds(client, shape = districtShape()) {
  const { rows } = await client.query(
    `select ${idSql('tenant', "'district'")} as "tenantId", ${idSql('admin', "'1'")} as "adminId",
            array(select ${idSql('t', 't::text')} from generate_series(1, $1::int) t order by t) as "teacherIds",
            array(select ${idSql('c', 'c::text')} from generate_series(1, $2::int) c order by c) as "classIds"`,
    [shape.teachers, shape.classes],
  );
  return rows[0];
}

/**
 * Seeds the district (idempotent per tenant: does nothing when its people are there already,
 * unless `reseed`). `client` is connected with search_path = the analytics schema. Returns the
 * shape, the ids and the seconds each step took.
 */
export async function seedDistrict(client, { reseed = false, log = () => {} } = {}) {
  const s = districtShape();
  const tenant = idSql('tenant', "'district'");
  const steps = {};
  const step = async (name, sql, values = []) => {
    const t0 = Date.now();
    const r = await client.query(sql, values);
    steps[name] = (Date.now() - t0) / 1000;
    log(`  ${name}: ${r.rowCount ?? 0} rows in ${steps[name].toFixed(1)} s`);
    return r;
  };
  const { rows: existing } = await client.query(`select count(*)::int as n from people where tenant_id = ${tenant}`);
  if (existing[0].n > 0 && !reseed) {
    log(`district already seeded (${existing[0].n} people): kept (ANALYTICS_RESEED=1 to seed again)`);
    return { shape: s, ids: await districtIds(client, s), steps, seeded: false };
  }
  await client.query('set synchronous_commit = off');
  await client.query("set maintenance_work_mem = '256MB'");
  await client.query("set work_mem = '64MB'");
  await client.query('begin');
  if (existing[0].n > 0) {
    log('removing the earlier seed of the district');
    await step(
      'delete earlier seed',
      `with r as (delete from results where tenant_id = ${tenant} returning result_id),
            q as (delete from questions where assessment_id in (select assessment_id from assessments where tenant_id = ${tenant})),
            a as (delete from assessments where tenant_id = ${tenant}),
            m as (delete from memberships where tenant_id = ${tenant}),
            c as (delete from classes where tenant_id = ${tenant}),
            f as (delete from student_figures where tenant_id = ${tenant}),
            t as (delete from tenant_figures where tenant_id = ${tenant})
       delete from people where tenant_id = ${tenant}`,
    );
  }
  // A school year: sign-ups in August, classes on 1 September, assessments every two weeks.
  const YEAR = `timestamptz '2026-08-01 08:00:00+00'`;
  const CLASSES_AT = `timestamptz '2026-09-01 08:00:00+00'`;
  const pick = (list, expr) => `(array[${list.map((v) => `'${v}'`).join(',')}])[1 + (${expr}) % ${list.length}]`;
  const level = (pct) => `case when ${pct} >= 90 then 'above' when ${pct} >= 80 then 'at' else 'below' end`;
  // Student s's ability (points out of 10 on average) and a result's spread around it: 0–10.
  const points = (s, c, k) =>
    `greatest(0, least(10, 3 + (abs(hashtext('bench:ability:' || ${s})) % 8) + (abs(hashtext('bench:noise:' || ${c} || ':' || ${k} || ':' || ${s})) % 5) - 2))`;

  await step(
    'people',
    `insert into people (user_id, tenant_id, first_name, last_name, email, role, registered_at)
     select ${idSql('s', 'i::text')}, ${tenant}, ${pick(FIRST, 'i')}, ${pick(LAST, 'i / 7 + i')},
            'student' || i || '@students.bench-district.example.org', 'student', ${YEAR} + i * interval '20 seconds'
       from generate_series(1, $1::int) i
     union all
     select ${idSql('t', 't::text')}, ${tenant}, ${pick(FIRST, 't * 3')}, ${pick(LAST, 't * 5')},
            'teacher' || t || '@bench-district.example.org', 'teacher', ${YEAR} - interval '30 days' + t * interval '1 minute'
       from generate_series(1, $2::int) t
     union all
     select ${idSql('admin', "'1'")}, ${tenant}, 'Dana', 'Admin', 'admin@bench-district.example.org', 'admin', ${YEAR} - interval '60 days'`,
    [s.students, s.teachers],
  );
  await step(
    'classes',
    `insert into classes (class_id, tenant_id, teacher_id, name, subject, period, created_at)
     select ${idSql('c', 'c::text')}, ${tenant}, ${idSql('t', `((c - 1) / ${s.classesPerTeacher} + 1)::text`)},
            ${pick(SUBJECTS, 'c')} || ' ' || (6 + c % 7), ${pick(SUBJECTS, 'c')}, ((c - 1) % 6 + 1)::text,
            ${CLASSES_AT} + c * interval '1 second'
       from generate_series(1, $1::int) c`,
    [s.classes],
  );
  await step(
    'memberships',
    `insert into memberships (class_id, student_id, tenant_id, joined_at)
     select ${idSql('c', 'c::text')}, ${idSql('s', 'i::text')}, ${tenant}, ${CLASSES_AT} + interval '1 day' + i * interval '1 second'
       from generate_series(1, $1::int) i, lateral (select (i - 1) / ${s.classSize} + 1 as c) x`,
    [s.students],
  );
  await step(
    'assessments',
    `insert into assessments (assessment_id, tenant_id, class_id, title, description, topic, standard, is_active, created_at)
     select ${idSql('a', "c || '-' || k")}, ${tenant}, ${idSql('c', 'c::text')},
            ${pick(TOPICS, 'c + k')} || ' check ' || k, 'Benchmark assessment', ${pick(TOPICS, 'c + k')},
            'STD-' || (c % 8) || '.' || k, true, ${CLASSES_AT} + k * interval '14 days' + c * interval '1 second'
       from generate_series(1, $1::int) c, generate_series(1, $2::int) k`,
    [s.classes, s.assessmentsPerClass],
  );
  await step(
    'questions',
    `insert into questions (assessment_id, question_id, position, question_text, question_type, options, correct_answer, points)
     select ${idSql('a', "c || '-' || k")}, ${idSql('q', "c || '-' || k || '-' || p")}, p,
            'Question ' || p || ' of check ' || k || '?', 'multiple_choice',
            array['Option A', 'Option B', 'Option C', 'Option D'], (array['Option A', 'Option B', 'Option C', 'Option D'])[1 + p % 4], 1
       from generate_series(1, $1::int) c, generate_series(1, $2::int) k, generate_series(1, $3::int) p`,
    [s.classes, s.assessmentsPerClass, s.questionsPerAssessment],
  );
  await step(
    'results',
    `insert into results (result_id, tenant_id, class_id, assessment_id, student_id, earned_points, total_points,
                          percentage, level, submitted_at)
     select ${idSql('r', "c || '-' || k || '-' || i")}, ${tenant}, ${idSql('c', 'c::text')}, ${idSql('a', "c || '-' || k")},
            ${idSql('s', 'i::text')}, pts, ${s.questionsPerAssessment}, pts * 100.0 / ${s.questionsPerAssessment},
            ${level(`pts * 100.0 / ${s.questionsPerAssessment}`)},
            ${CLASSES_AT} + k * interval '14 days' + c * interval '1 second' + interval '1 day' + (i % ${s.classSize}) * interval '1 minute'
       from generate_series(1, $1::int) c, generate_series(1, $2::int) k,
            lateral generate_series((c - 1) * ${s.classSize} + 1, least(c * ${s.classSize}, $3::int)) i,
            lateral (select ${points('i', 'c', 'k')}::float8 as pts) p`,
    [s.classes, s.assessmentsPerClass, s.students],
  );
  await step(
    'result_answers',
    `insert into result_answers (result_id, question_id, answer, correct)
     select r.result_id, q.question_id, case when q.position <= r.earned_points then q.correct_answer
                                            else q.options[1 + (q.position + 1) % 4] end,
            q.position <= r.earned_points
       from generate_series(1, $1::int) c
       join results r on r.class_id = ${idSql('c', 'c::text')}
       join questions q on q.assessment_id = r.assessment_id`,
    [s.answerClasses],
  );
  await step(
    'tenant_figures',
    // As services/analytics keeps them: results by level, people by role, and students by the band
    // of their average as the cards show it (the rounded average, rounded to 6 decimals first).
    `with r as (select * from results where tenant_id = ${tenant}),
          b as (select round(round(avg(percentage)::numeric, 6)) as avg from r group by student_id),
          p as (select * from people where tenant_id = ${tenant})
     insert into tenant_figures (tenant_id, results, percentage_sum, below, at, above, users, teachers, students,
                                 students_above, students_at, students_below)
     select ${tenant}, (select count(*) from r), coalesce((select sum(percentage) from r), 0),
            (select count(*) from r where level = 'below'), (select count(*) from r where level = 'at'),
            (select count(*) from r where level = 'above'), (select count(*) from p),
            (select count(*) from p where role in ('teacher', 'admin')), (select count(*) from p where role = 'student'),
            (select count(*) from b where avg >= 80), (select count(*) from b where avg >= 60 and avg < 80),
            (select count(*) from b where avg < 60)`,
  );
  await step(
    'student_figures',
    `insert into student_figures (tenant_id, student_id, results, percentage_sum)
     select tenant_id, student_id, count(*), sum(percentage) from results where tenant_id = ${tenant}
      group by tenant_id, student_id`,
  );
  await client.query('commit');
  // A read model that has been running is vacuumed and analysed by autovacuum; a fresh bulk load
  // is not yet (index-only scans need the visibility map, plans need statistics).
  await step('vacuum analyze', 'vacuum (analyze)');
  return { shape: s, ids: await districtIds(client, s), steps, seeded: true };
}

/** Checks the figures against the results, as the consumers keep them (throws on a mismatch). */
export async function checkFigures(client, tenantId) {
  const { rows } = await client.query(
    `with b as (select round(round(avg(percentage)::numeric, 6)) as avg from results where tenant_id = $1
                 group by student_id),
          p as (select role from people where tenant_id = $1)
     select (select row(results, percentage_sum, below, at, above, users, teachers, students,
                        students_above, students_at, students_below)::text from tenant_figures where tenant_id = $1) as kept,
            (select row(count(*)::int, sum(percentage), count(*) filter (where level = 'below')::int,
                        count(*) filter (where level = 'at')::int, count(*) filter (where level = 'above')::int,
                        (select count(*)::int from p), (select count(*)::int from p where role in ('teacher', 'admin')),
                        (select count(*)::int from p where role = 'student'),
                        (select count(*)::int from b where avg >= 80),
                        (select count(*)::int from b where avg >= 60 and avg < 80),
                        (select count(*)::int from b where avg < 60))::text
               from results where tenant_id = $1) as counted,
            (select count(*)::int from student_figures f
               full join (select student_id, count(*)::int as n, sum(percentage) as s from results where tenant_id = $1
                           group by student_id) r on r.student_id = f.student_id
              where (f.tenant_id = $1 or f.tenant_id is null)
                and (f.results is distinct from r.n or f.percentage_sum is distinct from r.s)) as "studentMismatches"`,
    [tenantId],
  );
  const r = rows[0];
  if (r.kept !== r.counted || r.studentMismatches !== 0)
    throw new Error(
      `figures do not match the results: tenant ${r.kept} vs ${r.counted}, ${r.studentMismatches} students`,
    );
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required (a role that owns the analytics schema)');
  const schema = process.env.DATABASE_SCHEMA ?? 'analytics';
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const t0 = Date.now();
    const out = await seedDistrict(client, { reseed: process.env.ANALYTICS_RESEED === '1', log: console.log });
    await checkFigures(client, out.ids.tenantId);
    console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s; figures match the results`);
    const { classIds, teacherIds, ...ids } = out.ids;
    console.log(JSON.stringify({ ...ids, teacherId: teacherIds[0], classId: classIds[0], shape: out.shape }));
  } finally {
    await client.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
