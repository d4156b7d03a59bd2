// The integrations group's copy of Checkpoint's assessments (docs/adr/014-lti.md, "Deep linking"):
// a teacher picks one of theirs in a deep-linking request (its title and total points make the
// content item and its line item), and a resource link naming one lands on it. Learnt only from
// the assessment service's events, each applied once in the inbox's transaction.
import { inboxConsumer, type SqlExecutor, type SubscribeOptions } from '@checkpoint/events';
import { poolTransactions } from '@checkpoint/service-kit';
import type pg from 'pg';
import { InvalidEventError, requireIds } from '../domain/ids.ts';

export const ASSESSMENT_TOPIC = 'checkpoint.assessment.v1';
export const INTEGRATIONS_GROUP = 'integrations';

const title = (t: string) => (t.trim() === '' ? 'Untitled assessment' : t.slice(0, 500));

export function assessmentSubscription(pool: pg.Pool): SubscribeOptions {
  return {
    groupId: INTEGRATIONS_GROUP,
    topics: [ASSESSMENT_TOPIC],
    ...inboxConsumer<SqlExecutor>(poolTransactions(pool), INTEGRATIONS_GROUP, {
      'checkpoint.assessment.v1.AssessmentCreated': async (tx, m) => {
        requireIds(m.$typeName, {
          assessmentId: m.assessmentId,
          tenantId: m.tenantId,
          classId: m.classId,
          teacherId: m.teacherId,
        });
        await tx.$executeRawUnsafe(
          `insert into lti_assessments (assessment_id, tenant_id, class_id, teacher_id, title)
           values ($1::uuid, $2::uuid, $3::uuid, $4::uuid, $5)
           on conflict (assessment_id) do update set title = excluded.title, class_id = excluded.class_id,
             updated_at = now()`,
          m.assessmentId,
          m.tenantId,
          m.classId,
          m.teacherId,
          title(m.title),
        );
      },
      'checkpoint.assessment.v1.AssessmentUpdated': async (tx, m) => {
        requireIds(m.$typeName, { assessmentId: m.assessmentId, classId: m.classId });
        await tx.$executeRawUnsafe(
          `update lti_assessments set title = $2, class_id = $3::uuid, updated_at = now() where assessment_id = $1::uuid`,
          m.assessmentId,
          title(m.title),
          m.classId,
        );
      },
      'checkpoint.assessment.v1.QuestionsChanged': async (tx, m) => {
        requireIds(m.$typeName, { assessmentId: m.assessmentId });
        let total = 0;
        for (const [i, q] of m.questions.entries()) {
          if (!Number.isFinite(q.points) || q.points < 0)
            throw new InvalidEventError(m.$typeName, `questions.${i}.points`, 'must be a number ≥ 0');
          total += q.points;
        }
        await tx.$executeRawUnsafe(
          `update lti_assessments set total_points = $2, updated_at = now() where assessment_id = $1::uuid`,
          m.assessmentId,
          total,
        );
      },
      'checkpoint.assessment.v1.AssessmentDeleted': async (tx, m) => {
        requireIds(m.$typeName, { assessmentId: m.assessmentId });
        await tx.$executeRawUnsafe('delete from lti_assessments where assessment_id = $1::uuid', m.assessmentId);
      },
    }),
  };
}
