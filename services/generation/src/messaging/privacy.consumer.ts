// The generation service's part in privacy operations (docs/adr/009): a student's copies of
// results, practice and attempts go with the generic sweep; retention deletes old ones.
import { deleteOlderThan, type PrivacyParticipant } from '@checkpoint/service-kit';

export const generationPrivacy: PrivacyParticipant = {
  service: 'generation',
  async retention(tx, tenantId, cutoff) {
    return (
      (await deleteOlderThan(tx, 'result_practice', 'created_at', tenantId, cutoff)) +
      (await deleteOlderThan(tx, 'results', 'submitted_at', tenantId, cutoff))
    );
  },
};
