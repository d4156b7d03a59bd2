// Reads of the mastery read model (migration 010): a class's heatmap from the running
// student_mastery rows, a student's evidence (with the assessments' titles) for their trend, and
// the district's per-class figures. Every read is limited to a scope as the results' reads are.
import type pg from 'pg';
import type { Level } from '../domain/events.ts';
import { rows } from './db.ts';
import { classMembers, type Scope } from './results.queries.ts';

export interface HeatmapCell {
  studentId: string;
  identifier: string;
  code: string;
  level: Level;
  score: number;
  evidenceCount: number;
}

export interface EvidenceRow {
  identifier: string;
  code: string;
  score: number;
  submittedAt: Date;
  resultId: string;
  assessmentId: string;
  title: string;
}

export interface ClassFiguresRow {
  identifier: string;
  code: string;
  classId: string;
  className: string;
  period: string | null;
  teacherName: string;
  /** The class's school (its roster's sourcedId and name); empty: not known. */
  schoolId: string;
  schoolName: string;
  students: number;
  scoreSum: number;
  below: number;
  at: number;
  above: number;
}

/** One page of the district's standards (by code), or one standard. */
export interface DistrictPage {
  identifier?: string;
  limit: number;
  offset: number;
}

export function masteryQueries(pool: pg.Pool) {
  return {
    /** The class's members (as the grid lists them) and each one's mastery of each standard. */
    async classHeatmap(scope: Scope, classId: string) {
      const [students, cells] = await Promise.all([
        classMembers(pool, scope, classId),
        rows<HeatmapCell>(
          pool,
          `select sm.student_id as "studentId", sm.identifier, sm.code, sm.level, sm.score,
                  sm.evidence_count as "evidenceCount"
             from student_mastery sm
            where sm.class_id = $1 and sm.tenant_id = $2
            order by sm.code, sm.identifier`,
          [classId, scope.tenantId],
        ),
      ]);
      return { students, cells };
    },

    /**
     * Whether the caller may see the student: a member of (or evidence in) one of the scope's
     * classes, or (a district admin) a person of the district.
     */
    async studentVisible(scope: Scope, studentId: string): Promise<boolean> {
      const [row] = await rows<{ ok: boolean }>(
        pool,
        `select exists (select 1 from memberships m join classes c on c.class_id = m.class_id
                         where m.student_id = $3
                           and (c.tenant_id = $1 and ($2::uuid is null or c.teacher_id = $2) or $2::uuid = any(c.co_teacher_ids)))
             or exists (select 1 from mastery_evidence e join classes c on c.class_id = e.class_id
                         where e.student_id = $3
                           and (c.tenant_id = $1 and ($2::uuid is null or c.teacher_id = $2) or $2::uuid = any(c.co_teacher_ids)))
             or ($2::uuid is null and exists (select 1 from people p where p.user_id = $3 and p.tenant_id = $1
                                                and p.role = 'student')) as ok`,
        [scope.tenantId, scope.teacherId, studentId],
      );
      return row?.ok ?? false;
    },

    /** The student's name (as the people read model has it); undefined: not known yet. */
    async studentName(studentId: string): Promise<{ firstName: string; lastName: string } | undefined> {
      const [row] = await rows<{ firstName: string; lastName: string }>(
        pool,
        `select coalesce(first_name, '') as "firstName", coalesce(last_name, '') as "lastName"
           from people where user_id = $1`,
        [studentId],
      );
      return row;
    },

    /** The student's evidence, oldest first per standard; `scope` null: all of it (the student's own). */
    studentEvidence(studentId: string, scope: Scope | null): Promise<EvidenceRow[]> {
      return rows<EvidenceRow>(
        pool,
        `select e.identifier, e.code, e.score, e.submitted_at as "submittedAt", e.result_id as "resultId",
                e.assessment_id as "assessmentId", a.title
           from mastery_evidence e
           join classes c on c.class_id = e.class_id
           join assessments a on a.assessment_id = e.assessment_id
          where e.student_id = $1
            and (($2::uuid is null or c.tenant_id = $2) and ($3::uuid is null or c.teacher_id = $3)
                 or $3::uuid = any(c.co_teacher_ids))
          order by e.code, e.identifier, e.submitted_at, e.result_id`,
        [studentId, scope?.tenantId ?? null, scope?.teacherId ?? null],
      );
    },

    /**
     * Per standard and class of the district: the running figures of the class's students, for one
     * page of the district's standards (by code) or one standard; with the number of standards.
     */
    async districtFigures(tenantId: string, page: DistrictPage): Promise<{ total: number; rows: ClassFiguresRow[] }> {
      const values = [tenantId, page.identifier ?? null];
      const [[count], figures] = await Promise.all([
        rows<{ n: number }>(
          pool,
          `select count(*)::int as n from standard_mastery_figures
            where tenant_id = $1 and students > 0 and ($2::text is null or identifier = $2)`,
          values,
        ),
        rows<ClassFiguresRow>(
          pool,
          `with page as (
             select identifier, code from standard_mastery_figures
              where tenant_id = $1 and students > 0 and ($2::text is null or identifier = $2)
              order by code, identifier limit $3 offset $4)
           select f.identifier, f.code, f.class_id as "classId", c.name as "className", c.period,
                  trim(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '')) as "teacherName",
                  coalesce(cs.school_id, '') as "schoolId", coalesce(cs.school_name, '') as "schoolName",
                  f.students, f.score_sum as "scoreSum", f.below, f.at, f.above
             from page
             join class_mastery_figures f on f.tenant_id = $1 and f.identifier = page.identifier and f.students > 0
             join classes c on c.class_id = f.class_id and c.tenant_id = $1
             left join people t on t.user_id = c.teacher_id
             left join class_schools cs on cs.class_id = f.class_id
            order by page.code, page.identifier, c.name, c.period nulls first, c.class_id`,
          [...values, page.limit, page.offset],
        ),
      ]);
      return { total: count?.n ?? 0, rows: figures };
    },
  };
}

export type MasteryQueries = ReturnType<typeof masteryQueries>;
