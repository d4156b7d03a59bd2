// The integrations service's part in privacy operations (docs/adr/009): its launches hold LMS user
// ids and course titles of a district. A district's deletion sweeps every row naming the tenant
// (registrations, launches, course links, dynamic registration links, AGS links, counted results
// and scores); retention deletes the district's launches, counted results and scores older than
// its period, and its expired deep-linking requests. A launch names the Checkpoint account it
// signed in (lti_launches.user_id, ADR 014), and the AGS rows name the student (user_id of
// lti_ags_links, lti_counted_results, lti_score_queue): a student's export and erasure find those
// rows by the user id, as every service's tables.
import { deleteOlderThan, type PrivacyParticipant } from '@checkpoint/service-kit';

export const integrationsPrivacy: PrivacyParticipant = {
  service: 'integrations',
  async retention(tx, tenantId, cutoff) {
    // Deep-linking requests never answered are of no use once expired (a teacher's, naming the
    // platform's return URL): gone with the district's next retention run.
    const expired = await tx.$executeRawUnsafe(
      'delete from lti_deep_link_requests where tenant_id = $1::uuid and expires_at < now()',
      tenantId,
    );
    return (
      expired +
      (await deleteOlderThan(tx, 'lti_launches', 'launched_at', tenantId, cutoff)) +
      (await deleteOlderThan(tx, 'lti_counted_results', 'scored_at', tenantId, cutoff)) +
      // A score still waiting is kept (it goes once sent, or when a teacher gives up on it).
      (await tx.$executeRawUnsafe(
        `delete from lti_score_queue where tenant_id = $1::uuid and status <> 'pending' and updated_at < $2::timestamptz`,
        tenantId,
        cutoff,
      )) +
      (await deleteOlderThan(tx, 'lti_ags_links', 'updated_at', tenantId, cutoff))
    );
  },
};
