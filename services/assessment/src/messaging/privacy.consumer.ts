// The assessment service's part in privacy operations (docs/adr/009): a student's responses,
// results (with the teacher's feedback on them), the audit of their regrades (result_regrades),
// attempt starts and people copy go with the generic sweep; retention deletes old answers, attempt
// starts, regrade audits and results.
import { deleteOlderThan, type AuditedRoute, type PrivacyParticipant } from '@checkpoint/service-kit';

export const assessmentPrivacy: PrivacyParticipant = {
  service: 'assessment',
  async retention(tx, tenantId, cutoff) {
    return (
      (await deleteOlderThan(tx, 'responses', 'updated_at', tenantId, cutoff)) +
      (await deleteOlderThan(tx, 'attempt_starts', 'started_at', tenantId, cutoff)) +
      (await deleteOlderThan(tx, 'result_regrades', 'created_at', tenantId, cutoff)) +
      (await deleteOlderThan(tx, 'results', 'submitted_at', tenantId, cutoff))
    );
  },
};

/** Teachers' and admins' reads of student answers and results (audited in identity). */
export const assessmentAuditedRoutes: AuditedRoute[] = [
  // Filed under the student too: a search by the student finds who read their result.
  {
    method: 'GET',
    path: '/api/results/:id',
    action: 'read',
    subjectsSql: 'select student_id::text as id from results where id = $1::uuid',
  },
  {
    method: 'PATCH',
    path: '/api/results/:resultId/responses/:questionId',
    action: 'change',
    subjectsSql: 'select student_id::text as id from results where id = $1::uuid',
  },
  {
    method: 'PUT',
    path: '/api/results/:id/feedback',
    action: 'change',
    subjectsSql: 'select student_id::text as id from results where id = $1::uuid',
  },
  {
    method: 'GET',
    path: '/api/results/:id/regrades',
    action: 'read',
    subjectsSql: 'select student_id::text as id from results where id = $1::uuid',
  },
  {
    method: 'GET',
    path: '/api/assessments/:id/to-review',
    action: 'read',
    subjectsSql:
      'select distinct student_id::text as id from results where assessment_id = $1::uuid and pending_review > 0',
  },
  {
    method: 'GET',
    path: '/api/assessments/:id/responses',
    action: 'read',
    subjectsSql: 'select distinct student_id::text as id from responses where assessment_id = $1::uuid',
  },
];
