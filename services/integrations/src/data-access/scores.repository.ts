// AGS (docs/adr/014-lti.md, "Scores to the LMS"): students' line item links, the results that
// count, who teaches which assessment, and the score queue. SQL only; every function takes the
// executor of the caller's transaction (an inbox transaction, a worker's claim) or the pool's.
import type { SqlExecutor } from '@checkpoint/events';

export const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

export interface AgsLink {
  registrationId: string;
  resourceLinkId: string;
  userId: string;
  tenantId: string;
  deploymentId: string;
  assessmentId: string;
  lineitemUrl: string;
  lineitemsUrl: string | null;
  scopes: string[];
  lmsUserId: string;
}

export interface CountedResult {
  assessmentId: string;
  userId: string;
  tenantId: string;
  classId: string;
  resultId: string;
  earnedPoints: number;
  totalPoints: number;
  pendingCount: number;
  scoredAt: Date;
}

/** What is posted: the score of a counted result, or none (the result was withdrawn). */
export interface ScoreToSend {
  tenantId: string;
  assessmentId: string;
  classId: string;
  userId: string;
  resultId: string | null;
  scoreGiven: number | null;
  scoreMaximum: number | null;
  activityProgress: 'Completed' | 'InProgress';
  gradingProgress: 'FullyGraded' | 'PendingManual' | 'NotReady';
  timestamp: Date;
}

export interface QueuedScore {
  id: string;
  tenantId: string;
  registrationId: string;
  clientId: string;
  tokenUrl: string;
  lineitemUrl: string;
  userId: string;
  lmsUserId: string;
  assessmentId: string;
  scoreGiven: number | null;
  scoreMaximum: number | null;
  activityProgress: string;
  gradingProgress: string;
  scoreTimestamp: Date;
  attempts: number;
}

export interface ScoreStatusRow {
  id: string;
  userId: string;
  lmsUserId: string;
  lineitemUrl: string;
  status: 'pending' | 'sent' | 'failed';
  scoreGiven: number | null;
  scoreMaximum: number | null;
  gradingProgress: string;
  scoreTimestamp: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  sentAt: string | null;
  assessmentId: string;
}

const iso = (col: string) => `to_char(${col} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const STATUS_COLUMNS = `id, user_id as "userId", lms_user_id as "lmsUserId", lineitem_url as "lineitemUrl", status,
  score_given as "scoreGiven", score_maximum as "scoreMaximum", grading_progress as "gradingProgress",
  ${iso('score_timestamp')} as "scoreTimestamp", attempts,
  case when status = 'pending' then ${iso('next_attempt_at')} end as "nextAttemptAt",
  last_error as "lastError", ${iso('sent_at')} as "sentAt", assessment_id as "assessmentId"`;

export const scoresRepository = {
  /** Records (or refreshes) a student's line item for an assessment's resource link. */
  async saveLink(db: SqlExecutor, l: AgsLink): Promise<void> {
    await db.$executeRawUnsafe(
      `insert into lti_ags_links (registration_id, resource_link_id, user_id, tenant_id, deployment_id, assessment_id,
                                  lineitem_url, lineitems_url, scopes, lms_user_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (registration_id, resource_link_id, user_id) do update
         set deployment_id = excluded.deployment_id, assessment_id = excluded.assessment_id,
             lineitem_url = excluded.lineitem_url, lineitems_url = excluded.lineitems_url, scopes = excluded.scopes,
             lms_user_id = excluded.lms_user_id, updated_at = now()`,
      l.registrationId,
      l.resourceLinkId,
      l.userId,
      l.tenantId,
      l.deploymentId,
      l.assessmentId,
      l.lineitemUrl,
      l.lineitemsUrl,
      l.scopes,
      l.lmsUserId,
    );
  },

  /** The student's line items for an assessment that the platform lets the tool post scores to. */
  async linksOf(db: SqlExecutor, tenantId: string, assessmentId: string, userId: string): Promise<AgsLink[]> {
    return db.$queryRawUnsafe<AgsLink[]>(
      `select registration_id as "registrationId", resource_link_id as "resourceLinkId", user_id as "userId",
              tenant_id as "tenantId", deployment_id as "deploymentId", assessment_id as "assessmentId",
              lineitem_url as "lineitemUrl", lineitems_url as "lineitemsUrl", scopes, lms_user_id as "lmsUserId"
         from lti_ags_links
        where tenant_id = $1 and assessment_id = $2 and user_id = $3 and $4 = any(scopes)
        order by created_at`,
      tenantId,
      assessmentId,
      userId,
      SCORE_SCOPE,
    );
  },

  async countedResult(db: SqlExecutor, assessmentId: string, userId: string): Promise<CountedResult | undefined> {
    const rows = await db.$queryRawUnsafe<CountedResult[]>(
      `select assessment_id as "assessmentId", user_id as "userId", tenant_id as "tenantId", class_id as "classId",
              result_id as "resultId", earned_points as "earnedPoints", total_points as "totalPoints",
              pending_count as "pendingCount", scored_at as "scoredAt"
         from lti_counted_results where assessment_id = $1 and user_id = $2`,
      assessmentId,
      userId,
    );
    return rows[0];
  },

  async countedResultById(db: SqlExecutor, resultId: string): Promise<CountedResult | undefined> {
    const rows = await db.$queryRawUnsafe<CountedResult[]>(
      `select assessment_id as "assessmentId", user_id as "userId", tenant_id as "tenantId", class_id as "classId",
              result_id as "resultId", earned_points as "earnedPoints", total_points as "totalPoints",
              pending_count as "pendingCount", scored_at as "scoredAt"
         from lti_counted_results where result_id = $1`,
      resultId,
    );
    return rows[0];
  },

  /** The student's counted result for the assessment is now `r` (replacing any other). */
  async setCountedResult(db: SqlExecutor, r: CountedResult): Promise<void> {
    await db.$executeRawUnsafe(
      `insert into lti_counted_results (assessment_id, user_id, tenant_id, class_id, result_id, earned_points,
                                        total_points, pending_count, scored_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (assessment_id, user_id) do update
         set tenant_id = excluded.tenant_id, class_id = excluded.class_id, result_id = excluded.result_id,
             earned_points = excluded.earned_points, total_points = excluded.total_points,
             pending_count = excluded.pending_count, scored_at = excluded.scored_at`,
      r.assessmentId,
      r.userId,
      r.tenantId,
      r.classId,
      r.resultId,
      r.earnedPoints,
      r.totalPoints,
      r.pendingCount,
      r.scoredAt,
    );
  },

  async dropCountedResult(db: SqlExecutor, resultId: string): Promise<void> {
    await db.$executeRawUnsafe('delete from lti_counted_results where result_id = $1', resultId);
  },

  async keepAssessmentClass(db: SqlExecutor, assessmentId: string, tenantId: string, classId: string): Promise<void> {
    await db.$executeRawUnsafe(
      `insert into lti_assessment_classes (assessment_id, tenant_id, class_id) values ($1, $2, $3)
       on conflict (assessment_id) do update set tenant_id = excluded.tenant_id, class_id = excluded.class_id`,
      assessmentId,
      tenantId,
      classId,
    );
  },

  async forgetAssessment(db: SqlExecutor, assessmentId: string): Promise<void> {
    await db.$executeRawUnsafe('delete from lti_assessment_classes where assessment_id = $1', assessmentId);
    await db.$executeRawUnsafe('delete from lti_counted_results where assessment_id = $1', assessmentId);
  },

  async keepClassTeachers(db: SqlExecutor, classId: string, tenantId: string, teacherIds: string[]): Promise<void> {
    await db.$executeRawUnsafe(
      `insert into lti_class_teachers (class_id, tenant_id, teacher_ids) values ($1, $2, $3::uuid[])
       on conflict (class_id) do update set tenant_id = excluded.tenant_id, teacher_ids = excluded.teacher_ids`,
      classId,
      tenantId,
      teacherIds,
    );
  },

  async forgetClass(db: SqlExecutor, classId: string): Promise<void> {
    await db.$executeRawUnsafe('delete from lti_class_teachers where class_id = $1', classId);
  },

  /**
   * Whether the user teaches the class of the assessment (in that tenant): by the class's teachers
   * from its events; for a class whose events this service never saw (made before it consumed
   * them), by an instructor launch of the user that reached the class.
   */
  async teachesAssessment(db: SqlExecutor, tenantId: string, assessmentId: string, userId: string): Promise<boolean> {
    const rows = await db.$queryRawUnsafe<unknown[]>(
      `select 1 from lti_assessment_classes a
         left join lti_class_teachers c on c.class_id = a.class_id and c.tenant_id = $2
        where a.assessment_id = $1 and a.tenant_id = $2
          and case when c.class_id is not null then $3::uuid = any(c.teacher_ids)
                   else exists (select 1 from lti_launches l
                                 where l.tenant_id = $2 and l.user_id = $3::uuid and l.class_id = a.class_id) end`,
      assessmentId,
      tenantId,
      userId,
    );
    return rows.length > 0;
  },

  /**
   * Queues the score for a student's line item: it replaces the unsent score of that student and
   * line item (pending or failed) unless that one is newer; attempts start again.
   */
  async enqueue(db: SqlExecutor, id: string, link: AgsLink, s: ScoreToSend): Promise<void> {
    await db.$executeRawUnsafe(
      `insert into lti_score_queue as q (id, tenant_id, registration_id, lineitem_url, user_id, lms_user_id, assessment_id,
                                         class_id, result_id, score_given, score_maximum, activity_progress,
                                         grading_progress, score_timestamp)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       on conflict (registration_id, lineitem_url, user_id) where status <> 'sent' do update
         set lms_user_id = excluded.lms_user_id, assessment_id = excluded.assessment_id, class_id = excluded.class_id,
             result_id = excluded.result_id, score_given = excluded.score_given, score_maximum = excluded.score_maximum,
             activity_progress = excluded.activity_progress, grading_progress = excluded.grading_progress,
             score_timestamp = excluded.score_timestamp, status = 'pending', attempts = 0, next_attempt_at = now(),
             last_error = null, updated_at = now()
         where q.score_timestamp <= excluded.score_timestamp`,
      id,
      s.tenantId,
      link.registrationId,
      link.lineitemUrl,
      s.userId,
      link.lmsUserId,
      s.assessmentId,
      s.classId,
      s.resultId,
      s.scoreGiven,
      s.scoreMaximum,
      s.activityProgress,
      s.gradingProgress,
      s.timestamp,
    );
  },

  /**
   * Claims the oldest due score (locked for the caller's transaction; rows other replicas hold are
   * skipped). Per student and line item there is only one unsent score, so the newest is sent.
   */
  async claimDue(db: SqlExecutor): Promise<QueuedScore | undefined> {
    const rows = await db.$queryRawUnsafe<QueuedScore[]>(
      `select q.id, q.tenant_id as "tenantId", q.registration_id as "registrationId", r.client_id as "clientId",
              r.token_url as "tokenUrl", q.lineitem_url as "lineitemUrl", q.user_id as "userId",
              q.lms_user_id as "lmsUserId", q.assessment_id as "assessmentId", q.score_given as "scoreGiven",
              q.score_maximum as "scoreMaximum", q.activity_progress as "activityProgress",
              q.grading_progress as "gradingProgress", q.score_timestamp as "scoreTimestamp", q.attempts
         from lti_score_queue q join lti_registrations r on r.id = q.registration_id
        where q.status = 'pending' and q.next_attempt_at <= now()
        order by q.next_attempt_at, q.created_at
        limit 1
        for update of q skip locked`,
    );
    return rows[0];
  },

  /** The platform took it: the older sent score of that student and line item goes. */
  async markSent(db: SqlExecutor, q: QueuedScore): Promise<void> {
    await db.$executeRawUnsafe(
      `delete from lti_score_queue
        where registration_id = $2 and lineitem_url = $3 and user_id = $4 and status = 'sent' and id <> $1`,
      q.id,
      q.registrationId,
      q.lineitemUrl,
      q.userId,
    );
    await db.$executeRawUnsafe(
      `update lti_score_queue set status = 'sent', attempts = attempts + 1, sent_at = now(), last_error = null,
              updated_at = now() where id = $1`,
      q.id,
    );
  },

  /** A failed attempt: tried again at `retryAt`, or given up (`retryAt` undefined). */
  async markFailed(db: SqlExecutor, id: string, error: string, retryAt: Date | undefined): Promise<void> {
    await db.$executeRawUnsafe(
      `update lti_score_queue
          set attempts = attempts + 1, last_error = $2, status = case when $3::timestamptz is null then 'failed' else 'pending' end,
              next_attempt_at = coalesce($3::timestamptz, next_attempt_at), updated_at = now()
        where id = $1`,
      id,
      error.slice(0, 1000),
      retryAt ?? null,
    );
  },

  /** The scores of an assessment, the newest first. */
  async statusOf(db: SqlExecutor, tenantId: string, assessmentId: string): Promise<ScoreStatusRow[]> {
    return db.$queryRawUnsafe<ScoreStatusRow[]>(
      `select ${STATUS_COLUMNS} from lti_score_queue where tenant_id = $1 and assessment_id = $2
        order by created_at desc limit 2000`,
      tenantId,
      assessmentId,
    );
  },

  /** The district's scores the platform did not take (given up), the newest first. */
  async failuresOf(db: SqlExecutor, tenantId: string): Promise<ScoreStatusRow[]> {
    return db.$queryRawUnsafe<ScoreStatusRow[]>(
      `select ${STATUS_COLUMNS} from lti_score_queue where tenant_id = $1 and status = 'failed'
        order by updated_at desc limit 500`,
      tenantId,
    );
  },

  /** Failed (and waiting) scores of an assessment tried again now, their attempts counted afresh. */
  async resend(db: SqlExecutor, tenantId: string, assessmentId: string, userId?: string): Promise<number> {
    return db.$executeRawUnsafe(
      `update lti_score_queue set status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
        where tenant_id = $1 and assessment_id = $2 and status <> 'sent' and ($3::uuid is null or user_id = $3::uuid)`,
      tenantId,
      assessmentId,
      userId ?? null,
    );
  },
};
