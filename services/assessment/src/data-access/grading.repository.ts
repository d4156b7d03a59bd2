// Grading by hand (docs/architecture.md, "Grading by hand"): a result read under a row lock, its
// marks and totals written back, the audit rows of each change, and the answers waiting for the
// teacher's review. SQL only: the use case (domain/grading.use-case.ts) decides and adds the event.
import { randomUUID } from 'node:crypto';
import { sqlExecutor } from '@checkpoint/events';
import { inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';
import type { ResultQuestionRecord, ResultRow } from '../domain/assessment.ts';
import type { PerformanceLevel, Score } from '../domain/scoring.ts';
import {
  resultSelect,
  toResult,
  type AttemptTx,
  type ResultWithQuestionsSqlRow,
} from './student-attempts.repository.ts';

export type GradedResult = ResultRow & { questions: ResultQuestionRecord[] | null };

/** One change as the audit keeps it. */
export interface RegradeAudit {
  resultId: string;
  tenantId: string;
  assessmentId: string;
  studentId: string;
  /** Null: the result's overall feedback. */
  questionId: string | null;
  gradedBy: string;
  /** Null: the answer was waiting for review (or the change is of the overall feedback). */
  oldPoints: number | null;
  newPoints: number | null;
  feedback: string | null;
}

/** An answer waiting for the teacher's review, with what they need to mark it. */
export interface ReviewItem {
  resultId: string;
  studentId: string;
  firstName: string | null;
  lastName: string | null;
  submittedAt: Date;
  question: ResultQuestionRecord;
}

export type GradingRepository = ReturnType<typeof gradingRepository>;

export function gradingRepository(pool: pg.Pool) {
  return {
    /** One transaction on one pooled connection (its SqlExecutor also carries the outbox row). */
    transaction: <T>(fn: (tx: AttemptTx) => Promise<T>): Promise<T> =>
      inTransaction(pool, (client) => fn({ ...sqlExecutor(client), client })),

    /**
     * The result with its review, its row locked for the rest of `tx` (one change of it at a time);
     * `lock` false: read only.
     */
    async lockResult(tx: AttemptTx, id: string, lock = true): Promise<GradedResult | undefined> {
      const { rows } = await tx.client.query<ResultWithQuestionsSqlRow>(
        `${resultSelect('results', true)} where r.id = $1::uuid${lock ? ' for update of r' : ''}`,
        [id],
      );
      const row = rows[0];
      return row ? { ...toResult(row), questions: row.questions } : undefined;
    },

    /** Writes the marks (the review) and the totals they give; the level as the use case decided it. */
    async saveMarks(
      tx: AttemptTx,
      id: string,
      marks: {
        questions: ResultQuestionRecord[];
        score: Score;
        level: PerformanceLevel;
        /** The score's own level when practice raised the result; null otherwise. */
        originalLevel: PerformanceLevel | null;
      },
    ): Promise<void> {
      const { score } = marks;
      await tx.client.query(
        `update results set questions = $2::jsonb, earned_points = $3, total_points = $4, percentage = $5,
                performance_level = $6, original_level = $7, correct_answers = $8, incorrect_answers = $9,
                pending_review = $10, regraded_at = now()
          where id = $1::uuid`,
        [
          id,
          JSON.stringify(marks.questions),
          score.earnedPoints,
          score.totalPoints,
          score.percentage,
          marks.level,
          marks.originalLevel,
          score.correctAnswers,
          score.incorrectAnswers,
          score.pendingReview,
        ],
      );
    },

    async setFeedback(tx: AttemptTx, id: string, feedback: string | null): Promise<void> {
      await tx.client.query('update results set feedback = $2 where id = $1::uuid', [id, feedback]);
    },

    async audit(tx: AttemptTx, a: RegradeAudit): Promise<void> {
      await tx.client.query(
        `insert into result_regrades (id, result_id, tenant_id, assessment_id, student_id, question_id, graded_by,
                                      old_points, new_points, feedback)
         values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid, $7::uuid, $8, $9, $10)`,
        [
          randomUUID(),
          a.resultId,
          a.tenantId,
          a.assessmentId,
          a.studentId,
          a.questionId,
          a.gradedBy,
          a.oldPoints,
          a.newPoints,
          a.feedback,
        ],
      );
    },

    /** The audit of one result, oldest first. */
    async history(resultId: string) {
      const { rows } = await pool.query<{
        question_id: string | null;
        graded_by: string;
        old_points: number | null;
        new_points: number | null;
        feedback: string | null;
        created_at: Date;
      }>(
        `select question_id, graded_by, old_points, new_points, feedback, created_at
           from result_regrades where result_id = $1::uuid order by created_at, id`,
        [resultId],
      );
      return rows.map((r) => ({
        questionId: r.question_id,
        gradedBy: r.graded_by,
        oldPoints: r.old_points,
        newPoints: r.new_points,
        feedback: r.feedback,
        at: r.created_at,
      }));
    },

    /** The answers of the assessment's results waiting for review, by submission then question order. */
    /**
     * The answers of the assessment waiting for review; with `taughtBy`, only those of results taken
     * in a class this caller teaches (a teacher of a class it is assigned to, not of its own).
     */
    async toReview(assessmentId: string, taughtBy?: { tenantId: string; teacherId: string }): Promise<ReviewItem[]> {
      const { rows } = await pool.query<{
        id: string;
        student_id: string;
        first_name: string | null;
        last_name: string | null;
        submitted_at: Date;
        question: ResultQuestionRecord;
      }>(
        `select r.id, r.student_id, p.first_name, p.last_name, r.submitted_at, q.value as question
           from results r
           left join people p on p.user_id = r.student_id
           cross join lateral jsonb_array_elements(r.questions) q(value)
          where r.assessment_id = $1::uuid and r.pending_review > 0
            and coalesce((q.value->>'pending')::boolean, false)
            and ($2::uuid is null or exists (
                 select 1 from classes c where c.class_id = r.class_id
                    and ((c.tenant_id = $3::uuid and c.teacher_id = $2::uuid) or $2::uuid = any(c.co_teacher_ids))))
          order by r.submitted_at, r.id, (q.value->>'position')::int`,
        [assessmentId, taughtBy?.teacherId ?? null, taughtBy?.tenantId ?? null],
      );
      return rows.map((r) => ({
        resultId: r.id,
        studentId: r.student_id,
        firstName: r.first_name,
        lastName: r.last_name,
        submittedAt: r.submitted_at,
        question: r.question,
      }));
    },
  };
}
