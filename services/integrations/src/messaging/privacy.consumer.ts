// The integrations service's part in privacy operations (docs/adr/009): its launches hold LMS user
// ids and course titles of a district. A district's deletion sweeps every row naming the tenant
// (registrations, launches, dynamic registration links); retention deletes the district's
// launches older than its period.
// Nothing here names a Checkpoint user id yet (no LMS user is mapped to an account, ADR 014), so
// a student's export and erasure find no rows of theirs; once the mapping exists its table is
// swept by the user id like the other services' tables.
import { deleteOlderThan, type PrivacyParticipant } from '@checkpoint/service-kit';

export const integrationsPrivacy: PrivacyParticipant = {
  service: 'integrations',
  async retention(tx, tenantId, cutoff) {
    return deleteOlderThan(tx, 'lti_launches', 'launched_at', tenantId, cutoff);
  },
};
