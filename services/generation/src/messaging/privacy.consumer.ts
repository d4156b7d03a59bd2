// The generation service's part in privacy operations (docs/adr/009): a student's copies of
// results, practice and attempts go with the generic sweep; retention deletes old ones.
import { deleteOlderThan, type AuditedRoute, type PrivacyParticipant } from '@checkpoint/service-kit';

export const generationPrivacy: PrivacyParticipant = {
  service: 'generation',
  async retention(tx, tenantId, cutoff) {
    return (
      (await deleteOlderThan(tx, 'result_practice', 'created_at', tenantId, cutoff)) +
      (await deleteOlderThan(tx, 'results', 'submitted_at', tenantId, cutoff))
    );
  },
};

/**
 * Teachers' and admins' reads of a student's practice (audited in identity), filed under the
 * result and its student.
 */
export const generationAuditedRoutes: AuditedRoute[] = [
  {
    method: 'GET',
    path: '/api/support-content/:resultId',
    action: 'read',
    subjectsSql: 'select student_id::text as id from results where id = $1::uuid',
  },
];
