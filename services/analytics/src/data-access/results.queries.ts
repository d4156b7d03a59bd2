// Reads of the read models. Every query is limited to a scope: a teacher's own classes, or (for a
// district admin) every class of the tenant. Results show only while their class and assessment
// exist here, so a deleted class disappears at once even before its results are removed.
import type pg from 'pg';
import type { Level, RaisedBy } from '../domain/events.ts';
import { rows } from './db.ts';

/**
 * A teacher sees the classes they own or co-teach (teacherId set); a district admin the whole
 * tenant (teacherId null).
 */
export interface Scope {
  tenantId: string;
  teacherId: string | null;
}

/**
 * `c` = classes; parameters $1 = tenant, $2 = teacher or null. A co-teacher's class is in scope
 * whatever its tenant (an individual account's co-teacher has a tenant of their own).
 */
const inScope = (c: string) =>
  `(${c}.tenant_id = $1 and ($2::uuid is null or ${c}.teacher_id = $2) or $2::uuid = any(${c}.co_teacher_ids))`;
const IN_SCOPE = inScope('c');
/**
 * `r` = results joined with `c`; $3 = chosen class ids or null (then active classes only), $4 = since
 * or null. `r.tenant_id = $1` lets Postgres walk the tenant's results index newest first. `cross`:
 * the caller co-teaches a class of another tenant (an individual account's co-teacher has a tenant
 * of their own), whose results count too: the tenants of the classes they co-teach join $1 (`@>`
 * walks the co_teacher_ids GIN index, migration 014; IN_SCOPE still keeps the owner's other classes
 * out). Everyone else keeps the one-tenant condition and its plan.
 */
const resultsInScope = (cross: boolean) => `${IN_SCOPE}
  and ${
    cross
      ? `r.tenant_id = any(array[$1::uuid] || array(select t.tenant_id from classes t
                                                  where t.co_teacher_ids @> array[$2::uuid]))`
      : 'r.tenant_id = $1'
  }
  and (case when $3::uuid[] is null then not c.archived else r.class_id = any($3) end)
  and ($4::timestamptz is null or r.submitted_at >= $4)`;
const scopeValues = (s: Scope) => [s.tenantId, s.teacherId];
/**
 * The members (`m`) an assessment (SQL `assessment`) is given to (migrations/016): a class's
 * members wholly, or the chosen ones; before it is assigned anywhere, its own class (`ownClass`).
 */
const GIVEN_TO = (assessment: string, ownClass: string) => `(case
  when exists (select 1 from assessment_classes ac where ac.assessment_id = ${assessment})
  then exists (select 1 from assessment_classes ac where ac.assessment_id = ${assessment} and ac.class_id = m.class_id
                  and (not ac.only_chosen or m.student_id = any(ac.student_ids)))
  else m.class_id = ${ownClass} end)`;
/** `r` = results: the score's own level and what raised it (null when never raised), docs/adr/005. */
const RAISE_COLUMNS = `coalesce(r.original_level, r.level) as "originalLevel", r.raised_by as "raisedBy",
  r.raised_attempt as "raisedAttempt"`;
/** What one result's level adds to: counts by the server's level (never by percentage bands). */
const LEVEL_COUNTS = `count(*) filter (where r.level = 'above')::int as above,
  count(*) filter (where r.level = 'at')::int as at,
  count(*) filter (where r.level = 'below')::int as below`;

/** One standard an assessment's questions are aligned to, with this assessment's evidence on it. */
export interface AssessmentStandardRow {
  identifier: string;
  code: string;
  uri: string;
  questionCount: number;
  /** Students with evidence (one result each: the assessment service takes one submission). */
  students: number;
  /** Each result's score (0–100) on the standard's aligned questions (mastery_evidence). */
  scores: number[];
}

/**
 * The standards of one assessment by code: its alignment (question_standards) and, grouped once by
 * standard over the assessment's evidence (its index on assessment_id), the students and scores.
 */
function assessmentStandards(pool: pg.Pool, tenantId: string, assessmentId: string, onlyClasses: string[] | null) {
  return rows<AssessmentStandardRow>(
    pool,
    `select qs.identifier, qs.code, qs.uri, qs."questionCount",
            coalesce(e.students, 0) as students, coalesce(e.scores, '{}') as scores
       from (select identifier, max(code) as code, max(uri) as uri, count(*)::int as "questionCount"
               from question_standards where assessment_id = $1 group by identifier) qs
       left join (select identifier, count(distinct student_id)::int as students, array_agg(score) as scores
                    from mastery_evidence where assessment_id = $1 and tenant_id = $2
                     and ($3::uuid[] is null or class_id = any($3))
                   group by identifier) e
         on e.identifier = qs.identifier
      order by qs.code, qs.identifier`,
    [assessmentId, tenantId, onlyClasses],
  );
}

/** The server's level of one result, with the score's own level and what raised it. */
export interface ResultLevel {
  originalLevel: Level;
  raisedBy: RaisedBy | null;
  /** Which practice attempt (from 1) raised the level; null when not raised or not known. */
  raisedAttempt: number | null;
}

export interface AssessmentInScope {
  id: string;
  title: string;
  topic: string;
  classId: string;
  className: string;
  tenantId: string;
  onlyClasses: string[] | null;
}

export interface ClassRef {
  id: string;
  name: string;
  period: string | null;
  subject: string;
}

export interface TeacherResultRow {
  id: string;
  studentId: string;
  assessmentId: string;
  classId: string;
  className: string;
  percentage: number;
  earnedPoints: number;
  totalPoints: number;
  level: Level;
  originalLevel: Level;
  raisedBy: RaisedBy | null;
  raisedAttempt: number | null;
  /** Which of the student's attempts it is (the one that counts: only that one is kept). */
  attempt: number;
  submittedAt: Date;
  firstName: string;
  lastName: string;
  email: string;
  title: string;
  topic: string;
  standard: string;
}

/**
 * The student's e-mail as a teacher may see it (docs/security.md, finding 10): for a student of the tenant
 * `tenant` (the class's, or the viewer's), and for individual accounts and people whose tenant kind
 * is not known yet; a student of another district or school (joined by code) is shown by name only
 * (''), as in the class service's member list. `p` = people.
 */
const shownEmail = (tenant: string) =>
  `case when p.tenant_id = ${tenant} or coalesce(p.tenant_kind, '') not in ('district', 'school')
        then coalesce(p.email, '') else '' end`;

const TEACHER_RESULT_COLUMNS = `r.result_id as "id", r.student_id as "studentId", r.assessment_id as "assessmentId",
  r.class_id as "classId", c.name as "className", r.percentage, r.earned_points as "earnedPoints",
  r.total_points as "totalPoints", r.level, ${RAISE_COLUMNS}, r.attempt, r.submitted_at as "submittedAt",
  coalesce(p.first_name, '') as "firstName", coalesce(p.last_name, '') as "lastName", ${shownEmail('c.tenant_id')} as "email",
  a.title, a.topic, a.standard`;

const RESULTS_JOIN = `results r join classes c on c.class_id = r.class_id
  join assessments a on a.assessment_id = r.assessment_id left join people p on p.user_id = r.student_id`;

/** A class's members by name, as the grid and the mastery heatmap list them. */
export function classMembers(pool: pg.Pool, scope: Scope, classId: string) {
  return rows<{ id: string; firstName: string; lastName: string }>(
    pool,
    `select m.student_id as id, coalesce(p.first_name, '') as "firstName", coalesce(p.last_name, '') as "lastName"
       from memberships m left join people p on p.user_id = m.student_id
      where m.class_id = $1 and m.tenant_id = $2 order by p.last_name, p.first_name, m.student_id`,
    [classId, scope.tenantId],
  );
}

export function resultsQueries(pool: pg.Pool) {
  /** Whether a teacher co-teaches a class of another tenant than theirs (see resultsInScope). */
  async function crossTenant(scope: Scope): Promise<boolean> {
    if (scope.teacherId === null) return false;
    const [row] = await rows<{ found: boolean }>(
      pool,
      `select exists (select 1 from classes where co_teacher_ids @> array[$2::uuid] and tenant_id <> $1) as found`,
      scopeValues(scope),
    );
    return row?.found ?? false;
  }

  return {
    /** A class in scope, with its tenant (a co-teacher's class may be of another tenant than theirs). */
    async classInScope(scope: Scope, classId: string): Promise<(ClassRef & { tenantId: string }) | undefined> {
      const [row] = await rows<ClassRef & { tenantId: string }>(
        pool,
        `select c.class_id as id, c.name, c.period, c.subject, c.tenant_id as "tenantId"
           from classes c where c.class_id = $3 and ${IN_SCOPE}`,
        [...scopeValues(scope), classId],
      );
      return row;
    },

    classesInScope(scope: Scope): Promise<ClassRef[]> {
      return rows<ClassRef>(
        pool,
        `select c.class_id as id, c.name, c.period, c.subject from classes c
          where ${IN_SCOPE} and not c.archived order by c.name, c.period nulls first, c.class_id`,
        scopeValues(scope),
      );
    },

    /**
     * An assessment the scope reads: of a class in scope, or assigned to one (a co-teacher of the
     * class it is given to). `tenantId` is the assessment's; `onlyClasses` null when the scope has
     * its own class (all of it), else the classes in scope it is given to (only their students).
     */
    async assessmentInScope(scope: Scope, assessmentId: string): Promise<AssessmentInScope | undefined> {
      const [row] = await rows<AssessmentInScope & { whole: boolean; given: string[] }>(
        pool,
        `select a.assessment_id as id, a.title, a.topic, a.class_id as "classId", c.name as "className",
                a.tenant_id as "tenantId", ${IN_SCOPE} as whole,
                array(select ac.class_id from assessment_classes ac join classes c2 on c2.class_id = ac.class_id
                       where ac.assessment_id = a.assessment_id and ${inScope('c2')} order by ac.class_id) as given
           from assessments a join classes c on c.class_id = a.class_id
          where a.assessment_id = $3`,
        [...scopeValues(scope), assessmentId],
      );
      if (!row || (!row.whole && row.given.length === 0)) return undefined;
      const { whole, given, ...found } = row;
      return { ...found, onlyClasses: whole ? null : given };
    },

    classResults(scope: Scope, classId: string): Promise<TeacherResultRow[]> {
      return rows<TeacherResultRow>(
        pool,
        `select ${TEACHER_RESULT_COLUMNS} from ${RESULTS_JOIN}
          where r.class_id = $3 and r.tenant_id = c.tenant_id and ${IN_SCOPE} order by r.submitted_at desc, r.result_id`,
        [...scopeValues(scope), classId],
      );
    },

    /**
     * The scope's results, newest first, with filters; `total` counts all that match (a district
     * admin's unfiltered total is the district's running figure, not a count of a million rows).
     */
    async scopeResults(
      scope: Scope,
      filter: { classIds?: string[]; since?: Date; limit: number; offset: number },
    ): Promise<{ total: number; rows: TeacherResultRow[] }> {
      const values = [...scopeValues(scope), filter.classIds ?? null, filter.since ?? null];
      const where = resultsInScope(await crossTenant(scope));
      const districtTotal = scope.teacherId === null && !filter.classIds && !filter.since;
      const [page, [count]] = await Promise.all([
        rows<TeacherResultRow>(
          pool,
          `select ${TEACHER_RESULT_COLUMNS} from ${RESULTS_JOIN} where ${where}
            order by r.submitted_at desc, r.result_id limit $5 offset $6`,
          [...values, filter.limit, filter.offset],
        ),
        districtTotal
          ? rows<{ n: number }>(
              pool,
              'select coalesce(sum(results), 0)::int as n from tenant_figures where tenant_id = $1',
              [scope.tenantId],
            )
          : rows<{ n: number }>(
              pool,
              `select count(*)::int as n from results r join classes c on c.class_id = r.class_id
                 join assessments a on a.assessment_id = r.assessment_id where ${where}`,
              values,
            ),
      ]);
      return { total: count?.n ?? 0, rows: page };
    },

    async grid(scope: Scope, classId: string) {
      const [students, assessments, cells, inProgress] = await Promise.all([
        classMembers(pool, scope, classId),
        rows<{ id: string; title: string; createdAt: Date }>(
          pool,
          `select assessment_id as id, title, created_at as "createdAt" from assessments a
            where tenant_id = $2 and (class_id = $1 or exists (
                  select 1 from assessment_classes ac where ac.assessment_id = a.assessment_id and ac.class_id = $1))
            order by created_at, assessment_id`,
          [classId, scope.tenantId],
        ),
        rows<
          {
            studentId: string;
            assessmentId: string;
            resultId: string;
            percentage: number;
            performanceLevel: Level;
          } & ResultLevel
        >(
          pool,
          `select distinct on (r.student_id, r.assessment_id) r.student_id as "studentId", r.assessment_id as "assessmentId",
                  r.result_id as "resultId", r.percentage, r.level as "performanceLevel", ${RAISE_COLUMNS}
             from results r join memberships m on m.class_id = r.class_id and m.student_id = r.student_id
            where r.class_id = $1 and r.tenant_id = $2
            order by r.student_id, r.assessment_id, r.submitted_at desc, r.result_id`,
          [classId, scope.tenantId],
        ),
        // Attempts started and not yet submitted: counts only.
        rows<{ studentId: string; assessmentId: string; answered: number; questionCount: number }>(
          pool,
          `select ap.student_id as "studentId", ap.assessment_id as "assessmentId", ap.answered,
                  (select count(*) from questions q where q.assessment_id = ap.assessment_id)::int as "questionCount"
             from attempt_progress ap
             join memberships m on m.class_id = ap.class_id and m.student_id = ap.student_id
            where ap.class_id = $1 and ap.tenant_id = $2 and ap.submitted_at is null and ap.answered is not null
              and not exists (select 1 from results r where r.assessment_id = ap.assessment_id
                                 and r.student_id = ap.student_id and r.attempt >= ap.attempt)`,
          [classId, scope.tenantId],
        ),
      ]);
      return { students, assessments, cells, inProgress };
    },

    /**
     * Students in scope with their average over the scope's results: the members of the scope's
     * classes (or of one class). A district admin's whole district reads the running per-student
     * figures instead of aggregating every result.
     */
    async students(scope: Scope, filter: { classId?: string; search?: string; limit: number; offset: number }) {
      const search = filter.search ? `%${filter.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
      const district = scope.teacherId === null && !filter.classId;
      const base = district
        ? `select p.user_id as id, p.first_name as "firstName", p.last_name as "lastName", p.email,
                  coalesce(f.results, 0) as n, f.percentage_sum as s
             from people p left join student_figures f on f.tenant_id = p.tenant_id and f.student_id = p.user_id
            where p.tenant_id = $1 and p.role = 'student' and $2::uuid is null and $3::uuid is null`
        : `select m.student_id as id, coalesce(p.first_name, '') as "firstName", coalesce(p.last_name, '') as "lastName",
                  ${shownEmail('$1')} as email, coalesce(x.n, 0) as n, x.s
             from (select distinct m.student_id from memberships m join classes c on c.class_id = m.class_id
                    where ${IN_SCOPE} and (case when $3::uuid is null then not c.archived else m.class_id = $3 end)) m
             left join people p on p.user_id = m.student_id
             left join lateral (select count(*)::int as n, sum(r.percentage) as s
                                  from results r join classes c on c.class_id = r.class_id
                                 where r.student_id = m.student_id and ${IN_SCOPE}
                                   and (case when $3::uuid is null then not c.archived else r.class_id = $3 end)) x on true`;
      const values = [...scopeValues(scope), filter.classId ?? null];
      const matching = `with s as (${base}) select * from s where ($4::text is null or
          ("firstName" || ' ' || "lastName") ilike $4 or email ilike $4)`;
      const [[stats], page] = await Promise.all([
        district && !search
          ? // The whole district: its running counts (migrations/001, tenant_figures), not 100,000 students.
            rows<{ total: number; above: number; at: number; below: number }>(
              pool,
              `select coalesce(max(students), 0) as total, coalesce(max(students_above), 0) as above,
                      coalesce(max(students_at), 0) as at, coalesce(max(students_below), 0) as below
                 from tenant_figures where tenant_id = $1`,
              [scope.tenantId],
            )
          : // One aggregate over the matching students (m used once is inlined, not materialised).
            // Banded like each student's card: the rounded average.
            rows<{ total: number; above: number; at: number; below: number }>(
              pool,
              `with m as (${matching}), a as (select round(round((s / nullif(n, 0))::numeric, 6)) as avg from m)
               select count(*)::int as total,
                      count(*) filter (where avg >= 80)::int as above,
                      count(*) filter (where avg >= 60 and avg < 80)::int as at,
                      count(*) filter (where avg < 60)::int as below from a`,
              [...values, search],
            ),
        rows<{ id: string; firstName: string; lastName: string; email: string; n: number; s: number | null }>(
          pool,
          `${matching} order by "lastName", "firstName", id limit $5 offset $6`,
          [...values, search, filter.limit, filter.offset],
        ),
      ]);
      const ids = page.map((p) => p.id);
      const [recent, classes] = await Promise.all([
        rows<
          {
            studentId: string;
            resultId: string;
            assessmentId: string;
            title: string;
            percentage: number;
            performanceLevel: Level;
            submittedAt: Date;
            classId: string;
            className: string;
          } & ResultLevel
        >(
          pool,
          `select s.id as "studentId", x.* from unnest($4::uuid[]) as s(id)
             cross join lateral (
               select r.result_id as "resultId", r.assessment_id as "assessmentId", a.title, r.percentage,
                      r.level as "performanceLevel", ${RAISE_COLUMNS}, r.submitted_at as "submittedAt"
                 from results r join classes c on c.class_id = r.class_id
                 join assessments a on a.assessment_id = r.assessment_id
                where r.student_id = s.id and ${IN_SCOPE}
                  and (case when $3::uuid is null then $2::uuid is null or not c.archived else r.class_id = $3 end)
                order by r.submitted_at desc, r.result_id limit 3) x`,
          [...values, ids],
        ),
        rows<{ studentId: string; id: string; name: string; period: string | null }>(
          pool,
          `select m.student_id as "studentId", c.class_id as id, c.name, c.period
             from memberships m join classes c on c.class_id = m.class_id
            where m.student_id = any($3::uuid[]) and ${IN_SCOPE} and not c.archived order by c.name, c.class_id`,
          [...scopeValues(scope), ids],
        ),
      ]);
      return { stats: stats ?? { total: 0, above: 0, at: 0, below: 0 }, page, recent, classes };
    },

    /** Aggregates of the scope's results for a report (filters as scopeResults). */
    async reportFigures(scope: Scope, filter: { classIds?: string[]; since?: Date }) {
      const values = [...scopeValues(scope), filter.classIds ?? null, filter.since ?? null];
      const RESULTS_IN_SCOPE = resultsInScope(await crossTenant(scope));
      const from = `from results r join classes c on c.class_id = r.class_id
        join assessments a on a.assessment_id = r.assessment_id where ${RESULTS_IN_SCOPE}`;
      // Results counted by their level (docs/adr/005); the 80/60 bands apply to averages only.
      const bands = `count(*)::int as results, coalesce(avg(r.percentage), 0)::float8 as average, ${LEVEL_COUNTS}`;
      type Bands = { results: number; average: number; above: number; at: number; below: number };
      return {
        summary: async () =>
          (
            await rows<Bands & { students: number; assessments: number }>(
              pool,
              `select ${bands}, count(distinct r.student_id)::int as students, count(distinct r.assessment_id)::int as assessments ${from}`,
              values,
            )
          )[0]!,
        byAssessment: () =>
          rows<Bands & { title: string; className: string; period: string | null; createdAt: Date }>(
            pool,
            `select a.title, c.name as "className", c.period, a.created_at as "createdAt", ${bands} ${from}
              group by a.assessment_id, a.title, c.name, c.period, a.created_at order by a.created_at desc, a.assessment_id`,
            values,
          ),
        byStandard: () =>
          rows<Bands & { standard: string; assessments: number }>(
            pool,
            `select coalesce(nullif(a.standard, ''), nullif(a.topic, ''), 'Not set') as standard,
                    count(distinct a.assessment_id)::int as assessments, ${bands} ${from}
              group by 1 order by 1`,
            values,
          ),
        /** Results per period (day, week or month, UTC) by level, oldest first. */
        overTime: (unit: 'day' | 'week' | 'month') =>
          rows<{ period: Date; above: number; at: number; below: number }>(
            pool,
            `select date_trunc($5, r.submitted_at, 'UTC') as period, ${LEVEL_COUNTS} ${from}
              group by 1 order by 1`,
            [...values, unit],
          ),
        byStudent: (limit: number) =>
          rows<
            Bands & {
              firstName: string;
              lastName: string;
              email: string;
              first: number;
              latest: number;
              latestLevel: Level;
              latestRaisedBy: RaisedBy | null;
              latestRaisedAttempt: number | null;
            }
          >(
            pool,
            `select coalesce(p.first_name, '') as "firstName", coalesce(p.last_name, '') as "lastName",
                    ${shownEmail('$1')} as email,
                    (array_agg(r.percentage order by r.submitted_at, r.result_id))[1] as first,
                    (array_agg(r.percentage order by r.submitted_at desc, r.result_id desc))[1] as latest,
                    (array_agg(r.level order by r.submitted_at desc, r.result_id desc))[1] as "latestLevel",
                    (array_agg(r.raised_by order by r.submitted_at desc, r.result_id desc))[1] as "latestRaisedBy",
                    (array_agg(r.raised_attempt order by r.submitted_at desc, r.result_id desc))[1] as "latestRaisedAttempt", ${bands}
               from results r join classes c on c.class_id = r.class_id
               join assessments a on a.assessment_id = r.assessment_id left join people p on p.user_id = r.student_id
              where ${RESULTS_IN_SCOPE}
              group by r.student_id, p.first_name, p.last_name, p.email, p.tenant_id, p.tenant_kind
              order by p.last_name, p.first_name, r.student_id limit $5`,
            [...values, limit],
          ),
      };
    },

    /**
     * Each member of the class with how far they are on the assessment: their result's time, or
     * the count of their attempt in progress (never an answer or a score).
     */
    async attemptProgress(scope: Scope, assessmentId: string, classId: string) {
      const [students, [questions]] = await Promise.all([
        rows<{
          studentId: string;
          firstName: string;
          lastName: string;
          submittedAt: Date | null;
          answered: number | null;
          startedAt: Date | null;
          updatedAt: Date | null;
        }>(
          pool,
          `select * from (
             select distinct on (m.student_id) m.student_id as "studentId", coalesce(p.first_name, '') as "firstName",
                    coalesce(p.last_name, '') as "lastName",
                    case when l.open then null when l.later then ap.submitted_at else r.submitted_at end as "submittedAt",
                    case when l.open then ap.answered end as answered,
                    case when l.open then ap.started_at end as "startedAt",
                    case when l.open then ap.updated_at end as "updatedAt"
               from memberships m
               left join people p on p.user_id = m.student_id
               left join lateral (select min(r.submitted_at) as submitted_at, max(r.attempt) as attempt from results r
                                   where r.assessment_id = $3 and r.student_id = m.student_id) r on true
               left join attempt_progress ap on ap.assessment_id = $3 and ap.student_id = m.student_id
               -- The student's latest attempt: the progress row's when it is later than the kept
               -- result's (a retake, a reopening, an attempt that did not count), open until submitted.
               cross join lateral (select ap.attempt > coalesce(r.attempt, 0) as later,
                                          ap.attempt > coalesce(r.attempt, 0) and ap.submitted_at is null as open) l
               where ${GIVEN_TO('$3', '$4')}
                and exists (select 1 from classes c where c.class_id = m.class_id and ${IN_SCOPE})
              order by m.student_id) s
            order by "lastName", "firstName", "studentId"`,
          [...scopeValues(scope), assessmentId, classId],
        ),
        rows<{ n: number }>(pool, 'select count(*)::int as n from questions where assessment_id = $1', [assessmentId]),
      ]);
      return { students, questionCount: questions?.n ?? 0 };
    },

    /**
     * One assessment's questions and results in its tenant (`a.tenantId`); with `a.onlyClasses`,
     * only the results, practice and members of those classes.
     */
    async assessmentDetail(a: { id: string; classId: string; tenantId: string; onlyClasses: string[] | null }) {
      const [assessmentId, classId, only] = [a.id, a.classId, a.onlyClasses];
      const [questions, results, answers, practice, classes, standards] = await Promise.all([
        rows<{
          id: string;
          position: number;
          questionText: string;
          questionType: 'multiple_choice' | 'short_answer' | 'true_false';
          options: string[];
          correctAnswer: string;
          points: number;
        }>(
          pool,
          `select question_id as id, position, question_text as "questionText", question_type as "questionType",
                  options, correct_answer as "correctAnswer", points
             from questions where assessment_id = $1 order by position`,
          [assessmentId],
        ),
        rows<
          {
            id: string;
            studentId: string;
            firstName: string;
            lastName: string;
            percentage: number;
            earnedPoints: number;
            totalPoints: number;
            performanceLevel: Level;
            submittedAt: Date;
            classId: string;
            className: string;
            attempt: number;
          } & ResultLevel
        >(
          pool,
          `select r.result_id as id, r.student_id as "studentId", coalesce(p.first_name, '') as "firstName",
                  coalesce(p.last_name, '') as "lastName", r.percentage, r.earned_points as "earnedPoints",
                  r.total_points as "totalPoints", r.level as "performanceLevel", ${RAISE_COLUMNS}, r.attempt,
                  r.submitted_at as "submittedAt", r.class_id as "classId", coalesce(c.name, '') as "className"
             from results r left join people p on p.user_id = r.student_id
             left join classes c on c.class_id = r.class_id
            where r.assessment_id = $1 and r.tenant_id = $2 and ($3::uuid[] is null or r.class_id = any($3))
            order by p.last_name, p.first_name, r.result_id`,
          [assessmentId, a.tenantId, only],
        ),
        rows<{
          resultId: string;
          questionId: string;
          answer: string;
          correct: boolean;
          pending: boolean;
          shownOptions: string[] | null;
        }>(
          pool,
          `select x.result_id as "resultId", x.question_id as "questionId", x.answer, x.correct, x.pending,
                  x.shown_options as "shownOptions"
             from result_answers x join results r on r.result_id = x.result_id
            where r.assessment_id = $1 and r.tenant_id = $2 and ($3::uuid[] is null or r.class_id = any($3))`,
          [assessmentId, a.tenantId, only],
        ),
        rows<{ studentId: string; type: string; attempts: number; bestScore: number }>(
          pool,
          `select student_id as "studentId", type, attempts, best_score as "bestScore"
             from practice_completions pc where assessment_id = $1 and tenant_id = $2
              and ($3::uuid[] is null or exists (select 1 from memberships m
                                                  where m.student_id = pc.student_id and m.class_id = any($3)))
            order by type`,
          [assessmentId, a.tenantId, only],
        ),
        // Whom it is given to, by class (a student in two of its classes counted once, in the first).
        rows<{ classId: string; className: string; n: number }>(
          pool,
          `select x.class_id as "classId", coalesce(c.name, '') as "className", count(*)::int as n
             from (select distinct on (m.student_id) m.student_id, m.class_id
                     from memberships m where m.tenant_id = $2 and ${GIVEN_TO('$1', '$3')}
                      and ($4::uuid[] is null or m.class_id = any($4))
                    order by m.student_id, m.class_id <> $3, m.class_id) x
             left join classes c on c.class_id = x.class_id
            group by x.class_id, c.name
            order by x.class_id <> $3, c.name, x.class_id`,
          [assessmentId, a.tenantId, classId, only],
        ),
        assessmentStandards(pool, a.tenantId, assessmentId, only),
      ]);
      const classSize = classes.reduce((sum, c) => sum + c.n, 0);
      return { questions, results, answers, practice, classSize, classes, standards };
    },

    async adminStats(tenantId: string) {
      const [[counts], [figures], recent] = await Promise.all([
        rows<{ classes: number; assessments: number }>(
          pool,
          `select (select count(*)::int from classes where tenant_id = $1) as classes,
                  (select count(*)::int from assessments where tenant_id = $1) as assessments`,
          [tenantId],
        ),
        rows<{
          results: number;
          percentage_sum: number;
          below: number;
          at: number;
          above: number;
          users: number;
          teachers: number;
          students: number;
        }>(
          pool,
          `select results, percentage_sum, below, at, above, users, teachers, students
             from tenant_figures where tenant_id = $1`,
          [tenantId],
        ),
        rows<{ firstName: string; lastName: string; email: string; role: string; registeredAt: Date }>(
          pool,
          `select first_name as "firstName", last_name as "lastName", email, role, registered_at as "registeredAt"
             from people where tenant_id = $1 order by registered_at desc, user_id limit 10`,
          [tenantId],
        ),
      ]);
      // People counts are running figures too (migrations/001, tenant_figures), not a count of the tenant's people.
      const people = { users: figures?.users ?? 0, teachers: figures?.teachers ?? 0, students: figures?.students ?? 0 };
      return { people, counts: counts!, figures, recent };
    },

    async usage(tenantId: string, teacherId: string) {
      const [row] = await rows<{ classes: number; students: number; assessments: number }>(
        pool,
        `select (select count(*)::int from classes where tenant_id = $1 and teacher_id = $2) as classes,
                (select count(distinct m.student_id)::int from memberships m join classes c on c.class_id = m.class_id
                  where c.tenant_id = $1 and c.teacher_id = $2) as students,
                (select count(*)::int from assessments a join classes c on c.class_id = a.class_id
                  where c.tenant_id = $1 and c.teacher_id = $2) as assessments`,
        [tenantId, teacherId],
      );
      return row!;
    },
  };
}

export type ResultsQueries = ReturnType<typeof resultsQueries>;
