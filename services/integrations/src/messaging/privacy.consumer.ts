// The integrations service's part in privacy operations (docs/adr/009): its launches hold LMS user
// ids and course titles of a district. A district's deletion sweeps every row naming the tenant
// (registrations, launches, course links, dynamic registration links); retention deletes the
// district's launches older than its period. A launch names the Checkpoint account it signed in
// (lti_launches.user_id, ADR 014): a student's export and erasure find those rows by the user id,
// as every service's tables.
import { deleteOlderThan, type PrivacyParticipant } from '@checkpoint/service-kit';

export const integrationsPrivacy: PrivacyParticipant = {
  service: 'integrations',
  async retention(tx, tenantId, cutoff) {
    return deleteOlderThan(tx, 'lti_launches', 'launched_at', tenantId, cutoff);
  },
};
