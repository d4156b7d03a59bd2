// Writes of the mastery read model (migration 010), inside the consumers' inbox transactions:
// question alignments (replaced by each QuestionsChanged), evidence per result and aligned standard
// (from ResultSubmitted, re-scored when an assessment's questions change, removed with their
// result, assessment, student or retention period), and the running mastery of each student,
// class and standard with the per-class figures it feeds. The mastery of a (class, student,
// standard) is always recomputed from all its evidence by the one rule (domain/mastery.ts), so
// evidence arriving late or out of order, or applied twice, ends in the same rows.
import { mastery, type Mastery } from '../domain/mastery.ts';
import type { Tx } from './db.ts';

export interface AlignedQuestion {
  questionId: string;
  standards: { identifier: string; code: string; uri: string; frameworkId: string }[];
}

/** Whose mastery to recompute. */
interface Key {
  classId: string;
  studentId: string;
  identifier: string;
}

/**
 * Recomputing one student's mastery takes this lock (per student, in a space of its own): two
 * results of the student on different assessments may be handled at the same time by different
 * partitions, and each must see the other's evidence. Taken in student order, so two re-scorings
 * of overlapping classes cannot deadlock.
 */
const MASTERY_LOCK_SPACE = 7232;

/** Replaces the alignment of an assessment's questions with what the event carries. */
export async function replaceQuestionStandards(tx: Tx, assessmentId: string, questions: AlignedQuestion[]) {
  await tx.$executeRawUnsafe('delete from question_standards where assessment_id = $1', assessmentId);
  const rows = questions.flatMap((q) => q.standards.map((s) => ({ questionId: q.questionId, ...s })));
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(
    `insert into question_standards (assessment_id, question_id, identifier, code, uri, framework_id)
     select $1, q, i, c, u, f from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[]) as s(q, i, c, u, f)
     on conflict (assessment_id, question_id, identifier) do nothing`,
    assessmentId,
    rows.map((r) => r.questionId),
    rows.map((r) => r.identifier),
    rows.map((r) => r.code),
    rows.map((r) => r.uri),
    rows.map((r) => r.frameworkId),
  );
}

/**
 * The points an answer (`a`) of question `q` earned: what the teacher gave (part points, migration
 * 013; never more than the question's points now), else all when correct. (Not least(): it skips nulls.)
 */
export const EARNED = `case when a.earned_points is null then (case when a.correct then q.points else 0 end)
                            else least(a.earned_points, q.points) end`;

/**
 * Evidence of the results matching `where` (on `results r`): per result and standard of its
 * questions, the current points of the aligned questions the result scored and those it earned.
 * An answer waiting for the teacher's review is no evidence yet. A result whose aligned questions
 * are worth 0 points gives no evidence.
 */
const EVIDENCE_OF = (where: string) => `
  insert into mastery_evidence (result_id, identifier, code, tenant_id, student_id, class_id, assessment_id,
                                earned, total, score, submitted_at)
  select r.result_id, qs.identifier, max(qs.code), r.tenant_id, r.student_id, r.class_id, r.assessment_id,
         sum(${EARNED}), sum(q.points),
         least(100, 100 * sum(${EARNED}) / sum(q.points)), r.submitted_at
    from results r
    join question_standards qs on qs.assessment_id = r.assessment_id
    join questions q on q.assessment_id = qs.assessment_id and q.question_id = qs.question_id
    join result_answers a on a.result_id = r.result_id and a.question_id = qs.question_id and not a.pending
   where ${where}
   group by r.result_id, qs.identifier
  having sum(q.points) > 0
  on conflict (result_id, identifier) do nothing
  returning class_id as "classId", student_id as "studentId", identifier`;

/** Evidence of newly stored results, and the mastery it moves. */
export async function recordEvidence(tx: Tx, resultIds: string[]): Promise<void> {
  const keys = await tx.$queryRawUnsafe<Key[]>(EVIDENCE_OF('r.result_id = any($1::uuid[])'), resultIds);
  await refreshMastery(tx, keys);
}

/** An assessment's questions or alignment changed: its results' evidence is scored again. */
export async function rescoreAssessment(tx: Tx, assessmentId: string): Promise<void> {
  // Locked before reading the results: a student's deletion running at the same time either comes
  // first (their results are gone when read) or waits for this to commit (and erases its evidence).
  const students = await tx.$queryRawUnsafe<{ id: string }[]>(
    `select student_id as id from results where assessment_id = $1
     union select student_id from mastery_evidence where assessment_id = $1`,
    assessmentId,
  );
  await lockMastery(
    tx,
    students.map((s) => s.id),
  );
  const before = await tx.$queryRawUnsafe<Key[]>(
    `delete from mastery_evidence where assessment_id = $1
     returning class_id as "classId", student_id as "studentId", identifier`,
    assessmentId,
  );
  const after = await tx.$queryRawUnsafe<Key[]>(EVIDENCE_OF('r.assessment_id = $1'), assessmentId);
  await refreshMastery(tx, [...before, ...after]);
}

/** A result's answers were marked again (a teacher's regrade): its evidence is scored again. */
export async function rescoreResult(tx: Tx, resultId: string, studentId: string): Promise<void> {
  await lockMastery(tx, [studentId]);
  const before = await tx.$queryRawUnsafe<Key[]>(
    `delete from mastery_evidence where result_id = $1
     returning class_id as "classId", student_id as "studentId", identifier`,
    resultId,
  );
  const after = await tx.$queryRawUnsafe<Key[]>(EVIDENCE_OF('r.result_id = $1'), resultId);
  await refreshMastery(tx, [...before, ...after]);
}

/**
 * Deletes the evidence matching `where` (on mastery_evidence) and recomputes what it fed; returns
 * the rows erased (evidence, and mastery rows left without evidence).
 */
export async function forgetEvidence(tx: Tx, where: string, values: unknown[]): Promise<number> {
  const gone = await tx.$queryRawUnsafe<Key[]>(
    `delete from mastery_evidence where ${where}
     returning class_id as "classId", student_id as "studentId", identifier`,
    ...values,
  );
  return gone.length + (await refreshMastery(tx, gone));
}

/** Takes the mastery lock of each student (in order; once each). */
export async function lockMastery(tx: Tx, studentIds: string[]): Promise<void> {
  for (const id of [...new Set(studentIds)].sort())
    await tx.$queryRawUnsafe('select pg_advisory_xact_lock($1, hashtext($2))', MASTERY_LOCK_SPACE, id);
}

type Row = { classId: string; studentId: string; identifier: string; tenantId: string; code: string };
type Kept = Row & { score: number; level: Mastery['level'] };
const keyOf = (k: Key) => `${k.classId}/${k.studentId}/${k.identifier}`;

/**
 * Recomputes the mastery of each key from all its evidence, writes it (or deletes it when no
 * evidence is left) and moves the class figures by the difference. Returns the mastery rows deleted.
 */
export async function refreshMastery(tx: Tx, keys: Key[]): Promise<number> {
  const unique = [...new Map(keys.map((k) => [keyOf(k), k])).values()];
  if (unique.length === 0) return 0;
  await lockMastery(
    tx,
    unique.map((k) => k.studentId),
  );
  const params = [unique.map((k) => k.classId), unique.map((k) => k.studentId), unique.map((k) => k.identifier)];
  const KEYS = 'unnest($1::uuid[], $2::uuid[], $3::text[]) as k(c, s, i)';
  const evidence = await tx.$queryRawUnsafe<(Row & { score: number; at: Date; resultId: string })[]>(
    `select e.class_id as "classId", e.student_id as "studentId", e.identifier, e.tenant_id as "tenantId", e.code,
            e.score, e.submitted_at as at, e.result_id as "resultId"
       from ${KEYS} join mastery_evidence e on e.student_id = k.s and e.class_id = k.c and e.identifier = k.i`,
    ...params,
  );
  const old = await tx.$queryRawUnsafe<Kept[]>(
    `select m.class_id as "classId", m.student_id as "studentId", m.identifier, m.tenant_id as "tenantId", m.code,
            m.score, m.level
       from ${KEYS} join student_mastery m on m.student_id = k.s and m.class_id = k.c and m.identifier = k.i
        for update of m`,
    ...params,
  );
  const byKey = new Map<string, typeof evidence>();
  for (const e of evidence) byKey.set(keyOf(e), [...(byKey.get(keyOf(e)) ?? []), e]);
  const now: (Kept & { evidenceCount: number; lastAt: Date })[] = [];
  for (const [, list] of byKey) {
    const m = mastery(list.map((e) => ({ score: e.score, at: e.at, id: e.resultId })))!;
    const newest = list.reduce((a, b) =>
      b.at > a.at || (b.at.getTime() === a.at.getTime() && b.resultId > a.resultId) ? b : a,
    );
    now.push({ ...newest, score: m.score, level: m.level, evidenceCount: m.evidenceCount, lastAt: newest.at });
  }
  if (now.length > 0) {
    await tx.$executeRawUnsafe(
      `insert into student_mastery (class_id, student_id, identifier, tenant_id, code, score, level, evidence_count, last_evidence_at)
       select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::float8[], $7::text[], $8::int[], $9::timestamptz[])
       on conflict (class_id, student_id, identifier) do update set code = excluded.code, score = excluded.score,
         level = excluded.level, evidence_count = excluded.evidence_count, last_evidence_at = excluded.last_evidence_at`,
      now.map((m) => m.classId),
      now.map((m) => m.studentId),
      now.map((m) => m.identifier),
      now.map((m) => m.tenantId),
      now.map((m) => m.code),
      now.map((m) => m.score),
      now.map((m) => m.level),
      now.map((m) => m.evidenceCount),
      now.map((m) => m.lastAt),
    );
  }
  const gone = old.filter((o) => !byKey.has(keyOf(o)));
  if (gone.length > 0) {
    await tx.$executeRawUnsafe(
      `delete from student_mastery m using unnest($1::uuid[], $2::uuid[], $3::text[]) as k(c, s, i)
        where m.class_id = k.c and m.student_id = k.s and m.identifier = k.i`,
      gone.map((m) => m.classId),
      gone.map((m) => m.studentId),
      gone.map((m) => m.identifier),
    );
  }
  await moveClassFigures(tx, old, now);
  return gone.length;
}

/** Takes `before` out of the class figures and puts `after` in. */
async function moveClassFigures(tx: Tx, before: Kept[], after: Kept[]): Promise<void> {
  type Delta = {
    tenantId: string;
    code: string;
    students: number;
    sum: number;
    below: number;
    at: number;
    above: number;
  };
  const deltas = new Map<string, Delta & { classId: string; identifier: string }>();
  const add = (m: Kept, sign: 1 | -1) => {
    const k = `${m.classId}/${m.identifier}`;
    const d = deltas.get(k) ?? {
      classId: m.classId,
      identifier: m.identifier,
      tenantId: m.tenantId,
      code: m.code,
      students: 0,
      sum: 0,
      below: 0,
      at: 0,
      above: 0,
    };
    d.students += sign;
    d.sum += sign * m.score;
    d[m.level] += sign;
    if (sign > 0) d.code = m.code;
    deltas.set(k, d);
  };
  before.forEach((m) => add(m, -1));
  after.forEach((m) => add(m, 1));
  const moved = [...deltas.values()];
  if (moved.length === 0) return;
  /** students, score sum, below, at, above: the last five columns of both figure tables. */
  const figures = [
    moved.map((d) => d.students),
    moved.map((d) => d.sum),
    moved.map((d) => d.below),
    moved.map((d) => d.at),
    moved.map((d) => d.above),
  ];
  await tx.$executeRawUnsafe(
    `insert into class_mastery_figures as f (class_id, identifier, tenant_id, code, students, score_sum, below, at, above)
     select * from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::int[], $6::float8[], $7::int[], $8::int[], $9::int[])
     on conflict (class_id, identifier) do update set code = excluded.code, students = f.students + excluded.students,
       score_sum = f.score_sum + excluded.score_sum, below = f.below + excluded.below, at = f.at + excluded.at,
       above = f.above + excluded.above`,
    moved.map((d) => d.classId),
    moved.map((d) => d.identifier),
    moved.map((d) => d.tenantId),
    moved.map((d) => d.code),
    ...figures,
  );
  // A class and standard without students any more leaves no row (and no float remainder).
  await tx.$executeRawUnsafe(
    `delete from class_mastery_figures f using unnest($1::uuid[], $2::text[]) as k(c, i)
      where f.class_id = k.c and f.identifier = k.i and f.students <= 0`,
    moved.map((d) => d.classId),
    moved.map((d) => d.identifier),
  );
  // The same moves summed per district and standard (a hot row per standard, as tenant_figures).
  const districts = await tx.$queryRawUnsafe<{ t: string; i: string }[]>(
    `insert into standard_mastery_figures as f (tenant_id, identifier, code, students, score_sum, below, at, above)
     select t, i, max(c), sum(n)::int, sum(s), sum(b)::int, sum(a)::int, sum(u)::int
       from unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::float8[], $6::int[], $7::int[], $8::int[])
            as m(t, i, c, n, s, b, a, u)
      group by t, i order by t, i
     on conflict (tenant_id, identifier) do update set code = excluded.code,
       students = f.students + excluded.students, score_sum = f.score_sum + excluded.score_sum,
       below = f.below + excluded.below, at = f.at + excluded.at, above = f.above + excluded.above
     returning f.tenant_id as t, f.identifier as i`,
    moved.map((d) => d.tenantId),
    moved.map((d) => d.identifier),
    moved.map((d) => d.code),
    ...figures,
  );
  await tx.$executeRawUnsafe(
    `delete from standard_mastery_figures f using unnest($1::uuid[], $2::text[]) as k(t, i)
      where f.tenant_id = k.t and f.identifier = k.i and f.students <= 0`,
    districts.map((d) => d.t),
    districts.map((d) => d.i),
  );
}
