// The common assessments' read model (migrations/012) and its roll-up: per school and class of
// the district, the students of the classes that were given a copy, who submitted, the average
// percentage, the levels, and per standard (from the questions' alignment) the share of points
// earned. Groups of fewer than MIN_GROUP students with a result are suppressed (no figures).
import { EARNED } from './mastery.writer.ts';
import type pg from 'pg';
import { rows as query, type Tx } from './db.ts';

/** The smallest group whose figures are shown (district and school views: privacy). */
export const MIN_GROUP = 5;

export async function keepClassSchool(
  tx: Tx,
  c: { classId: string; tenantId: string; schoolId: string; schoolName: string; grades: string[] },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into class_schools (class_id, tenant_id, school_id, school_name, grades) values ($1, $2, $3, $4, $5::text[])
     on conflict (class_id) do update set school_id = excluded.school_id, school_name = excluded.school_name,
       grades = excluded.grades`,
    c.classId,
    c.tenantId,
    c.schoolId,
    c.schoolName,
    c.grades,
  );
}

export async function keepCommonCopy(
  tx: Tx,
  a: { assessmentId: string; commonAssessmentId: string; tenantId: string; classId: string },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `insert into common_assessment_copies (assessment_id, common_assessment_id, tenant_id, class_id)
     values ($1, $2, $3, $4) on conflict (assessment_id) do nothing`,
    a.assessmentId,
    a.commonAssessmentId,
    a.tenantId,
    a.classId,
  );
}

/** The standards of a copy's questions (nothing for an assessment that is not a copy). */
export async function keepCopyStandards(
  tx: Tx,
  assessmentId: string,
  questions: { questionId: string; standards: { identifier: string; code: string }[] }[],
): Promise<void> {
  await tx.$executeRawUnsafe('delete from common_question_standards where assessment_id = $1', assessmentId);
  const rows = questions.flatMap((q) => q.standards.map((s) => ({ q: q.questionId, id: s.identifier, code: s.code })));
  if (rows.length === 0) return;
  await tx.$executeRawUnsafe(
    `insert into common_question_standards (assessment_id, question_id, tenant_id, identifier, code)
     select c.assessment_id, r.q, c.tenant_id, r.id, r.code
       from common_assessment_copies c, jsonb_to_recordset($2::jsonb) as r(q uuid, id text, code text)
      where c.assessment_id = $1
     on conflict do nothing`,
    assessmentId,
    JSON.stringify(rows),
  );
}

export async function forgetCommonCopy(tx: Tx, assessmentId: string): Promise<void> {
  await tx.$executeRawUnsafe('delete from common_assessment_copies where assessment_id = $1', assessmentId);
}

export async function forgetClassSchool(tx: Tx, classId: string): Promise<void> {
  await tx.$executeRawUnsafe('delete from class_schools where class_id = $1', classId);
}

export interface ClassFigures {
  classId: string;
  className: string;
  schoolId: string;
  schoolName: string;
  /** Students of the class (members, and anyone with a result). */
  students: number;
  submitted: number;
  percentageSum: number;
  below: number;
  at: number;
  above: number;
}

export interface StandardFigures {
  classId: string;
  identifier: string;
  code: string;
  /** Distinct students with an answer to a question aligned to it. */
  students: number;
  earned: number;
  possible: number;
}

/** Per class given a copy: its figures (one row each). */
export function classFigures(pool: pg.Pool, tenantId: string, commonAssessmentId: string): Promise<ClassFigures[]> {
  return query<ClassFigures>(
    pool,
    `select c.class_id as "classId", c.name as "className", coalesce(s.school_id, '') as "schoolId",
            coalesce(s.school_name, '') as "schoolName",
            (select count(*) from (select m.student_id from memberships m where m.class_id = c.class_id
                                   union select r.student_id from results r where r.assessment_id = k.assessment_id) x)::int
              as students,
            count(r.result_id)::int as submitted,
            coalesce(sum(r.percentage), 0)::float8 as "percentageSum",
            count(*) filter (where r.level = 'below')::int as below,
            count(*) filter (where r.level = 'at')::int as at,
            count(*) filter (where r.level = 'above')::int as above
       from common_assessment_copies k
       join classes c on c.class_id = k.class_id
       left join class_schools s on s.class_id = k.class_id
       left join results r on r.assessment_id = k.assessment_id
      where k.tenant_id = $1::uuid and k.common_assessment_id = $2::uuid
      group by c.class_id, c.name, s.school_id, s.school_name, k.assessment_id
      order by "schoolName", "schoolId", c.name, c.class_id`,
    [tenantId, commonAssessmentId],
  );
}

/**
 * Per class and standard: points earned of the points possible on the aligned questions, per
 * student. An answer waiting for review is neither: left out until the teacher marks it.
 */
export function standardFigures(
  pool: pg.Pool,
  tenantId: string,
  commonAssessmentId: string,
): Promise<(StandardFigures & { studentId: string })[]> {
  return query(
    pool,
    `select k.class_id as "classId", qs.identifier, qs.code, r.student_id as "studentId", 1 as students,
            sum(case when a.pending then 0 else ${EARNED} end)::float8 as earned,
            sum(case when a.pending then 0 else q.points end)::float8 as possible
       from common_assessment_copies k
       join results r on r.assessment_id = k.assessment_id
       join common_question_standards qs on qs.assessment_id = k.assessment_id
       join questions q on q.assessment_id = k.assessment_id and q.question_id = qs.question_id
       left join result_answers a on a.result_id = r.result_id and a.question_id = qs.question_id
      where k.tenant_id = $1::uuid and k.common_assessment_id = $2::uuid
      group by k.class_id, qs.identifier, qs.code, r.student_id`,
    [tenantId, commonAssessmentId],
  );
}

/** The title of one of its copies ('' when no class was given it yet). */
export async function commonTitle(pool: pg.Pool, tenantId: string, commonAssessmentId: string): Promise<string> {
  const rows = await query<{ title: string }>(
    pool,
    `select a.title from common_assessment_copies k join assessments a on a.assessment_id = k.assessment_id
      where k.tenant_id = $1::uuid and k.common_assessment_id = $2::uuid limit 1`,
    [tenantId, commonAssessmentId],
  );
  return rows[0]?.title ?? '';
}
