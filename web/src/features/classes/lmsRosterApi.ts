// A class's roster from its LMS course (integrations' /api/integrations/lti/classes/{id}/roster,
// NRPS): the linked courses and the last sync, and a sync on demand. Generated endpoints.
import { generatedApi } from '../../api/generated/endpoints';
import type { LtiRosterStatus, LtiRosterSync } from '../../api/generated/endpoints';

export type { LtiRosterStatus, LtiRosterSync };

export const lmsRosterApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['LtiRoster', 'ClassMembers', 'Class'],
  endpoints: {
    getLtiRoster: { providesTags: (_r, _e, id) => [{ type: 'LtiRoster', id }] },
    // The class's members and counts change with a sync.
    syncLtiRoster: {
      invalidatesTags: (_r, _e, id) => [
        { type: 'LtiRoster', id },
        { type: 'ClassMembers', id },
        { type: 'Class', id },
      ],
    },
  },
});

export const { useGetLtiRosterQuery, useSyncLtiRosterMutation } = lmsRosterApi;
