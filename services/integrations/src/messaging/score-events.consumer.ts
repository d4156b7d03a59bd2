// Assessment's and class's events → scores for the LMS (docs/adr/014-lti.md, "Scores to the LMS
// (AGS)"). The result that counts for a student (ResultSubmitted that counts, CountedResultChanged,
// a regrade of it, its withdrawal) is queued for the student's linked line items in the inbox
// transaction of its event; the class of each assessment and the teachers of each class are kept
// so that only a teacher of the class sees and resends its scores. ResultLevelRaised (the level,
// not the points) and RetakeGranted (the result counts until the retake is submitted) change no
// score and are not consumed.
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { inboxConsumer, type ResultSubmitted, type SqlExecutor, type SubscribeOptions } from '@checkpoint/events';
import { poolTransactions } from '@checkpoint/service-kit';
import type pg from 'pg';
import { scoresRepository as repo } from '../data-access/scores.repository.ts';
import { countedResultChanged, countedResultWithdrawn } from '../domain/scores.use-case.ts';
import { requireIds, UUID } from '../domain/ids.ts';

export const SCORES_GROUP = 'integrations-scores';
export const ASSESSMENT_TOPIC = 'checkpoint.assessment.v1';
export const CLASS_TOPIC = 'checkpoint.class.v1';

const requirePoints = (type: string, earned: number, total: number) => {
  if (!Number.isFinite(earned) || !Number.isFinite(total) || total < 0)
    throw new Error(`${type}: earned_points and total_points must be numbers (total ≥ 0)`);
};

const when = (t: Timestamp | undefined) => (t ? timestampDate(t) : new Date());

async function resultCounts(db: SqlExecutor, m: ResultSubmitted, at: Date): Promise<void> {
  requireIds(m.$typeName, {
    resultId: m.resultId,
    assessmentId: m.assessmentId,
    tenantId: m.tenantId,
    classId: m.classId,
    studentId: m.studentId,
  });
  requirePoints(m.$typeName, m.earnedPoints, m.totalPoints);
  await repo.keepAssessmentClass(db, m.assessmentId, m.tenantId, m.classId);
  await countedResultChanged(db, {
    assessmentId: m.assessmentId,
    userId: m.studentId,
    tenantId: m.tenantId,
    classId: m.classId,
    resultId: m.resultId,
    earnedPoints: m.earnedPoints,
    totalPoints: m.totalPoints,
    pendingCount: m.answers.filter((a) => a.pending).length,
    scoredAt: at,
  });
}

export function scoreEventsSubscription(pool: pg.Pool, afterScoreQueued?: () => void): SubscribeOptions {
  const consumer = inboxConsumer(poolTransactions(pool), SCORES_GROUP, {
    'checkpoint.assessment.v1.AssessmentCreated': async (tx, m) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId, tenantId: m.tenantId, classId: m.classId });
      await repo.keepAssessmentClass(tx, m.assessmentId, m.tenantId, m.classId);
    },
    'checkpoint.assessment.v1.AssessmentDeleted': async (tx, m) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId });
      await repo.forgetAssessment(tx, m.assessmentId);
    },
    // Only the attempt that counts goes to the gradebook; attempt 0 (before retakes) counts.
    'checkpoint.assessment.v1.ResultSubmitted': async (tx, m) => {
      if (m.attempt === 0 || m.counted) return resultCounts(tx, m, when(m.submittedAt));
      requireIds(m.$typeName, { assessmentId: m.assessmentId, tenantId: m.tenantId, classId: m.classId });
      await repo.keepAssessmentClass(tx, m.assessmentId, m.tenantId, m.classId);
    },
    'checkpoint.assessment.v1.CountedResultChanged': async (tx, m) => {
      if (!m.result) throw new Error(`${m.$typeName}: result is missing`);
      await resultCounts(tx, m.result, when(m.occurredAt));
    },
    // The teacher's regrade (or review) of the result that counts: its new points and pending count.
    'checkpoint.assessment.v1.ResultRegraded': async (tx, m) => {
      requireIds(m.$typeName, { resultId: m.resultId });
      requirePoints(m.$typeName, m.earnedPoints, m.totalPoints);
      const counted = await repo.countedResultById(tx, m.resultId);
      if (!counted) return;
      await countedResultChanged(tx, {
        ...counted,
        earnedPoints: m.earnedPoints,
        totalPoints: m.totalPoints,
        pendingCount: Math.max(0, m.pendingCount),
        scoredAt: when(m.occurredAt),
      });
    },
    'checkpoint.assessment.v1.ResultWithdrawn': async (tx, m) => {
      requireIds(m.$typeName, { resultId: m.resultId });
      await countedResultWithdrawn(tx, m.resultId, when(m.occurredAt));
    },
    'checkpoint.class.v1.ClassCreated': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId, tenantId: m.tenantId, teacherId: m.teacherId });
      await repo.keepClassTeachers(tx, m.classId, m.tenantId, [
        m.teacherId,
        ...m.coTeacherIds.filter((id) => UUID.test(id)),
      ]);
    },
    'checkpoint.class.v1.ClassUpdated': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId, tenantId: m.tenantId, teacherId: m.teacherId });
      await repo.keepClassTeachers(tx, m.classId, m.tenantId, [
        m.teacherId,
        ...m.coTeacherIds.filter((id) => UUID.test(id)),
      ]);
    },
    'checkpoint.class.v1.ClassDeleted': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId });
      await repo.forgetClass(tx, m.classId);
    },
  });
  const wake = async <T>(p: Promise<T>) => {
    const r = await p;
    afterScoreQueued?.();
    return r;
  };
  return {
    groupId: SCORES_GROUP,
    topics: [ASSESSMENT_TOPIC, CLASS_TOPIC],
    handler: (msg) => wake(consumer.handler(msg)),
    batchHandler: (msgs) => wake(consumer.batchHandler(msgs)),
  };
}
