// The district's LTI 1.3 platform registrations (integrations' /api/integrations/lti/…): by hand,
// and the one-time dynamic registration links. Endpoints and types are generated from the
// gateway's OpenAPI document (api/generated).
import { generatedApi } from '../../api/generated/endpoints';
import type {
  CreateLtiRegistrationApiArg,
  LtiRegistration,
  LtiRegistrationLink,
  LtiRegistrationList,
} from '../../api/generated/endpoints';

export type { LtiRegistration, LtiRegistrationLink, LtiRegistrationList };
/** What the admin types for a registration by hand. */
export type LtiRegistrationInput = CreateLtiRegistrationApiArg;

export const integrationsApi = generatedApi.enhanceEndpoints({
  addTagTypes: ['LtiRegistrations'],
  endpoints: {
    getLtiRegistrations: { providesTags: ['LtiRegistrations'] },
    createLtiRegistration: { invalidatesTags: ['LtiRegistrations'] },
    updateLtiRegistration: { invalidatesTags: ['LtiRegistrations'] },
    removeLtiRegistration: { invalidatesTags: ['LtiRegistrations'] },
  },
});

export const {
  useGetLtiRegistrationsQuery,
  useCreateLtiRegistrationMutation,
  useUpdateLtiRegistrationMutation,
  useRemoveLtiRegistrationMutation,
  useCreateLtiRegistrationLinkMutation,
} = integrationsApi;
