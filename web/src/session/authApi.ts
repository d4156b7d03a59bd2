// Auth calls: current user, sign-in/up, Google completion, logout, profile and preferences.
// Endpoints and types are generated from the gateway's OpenAPI document (api/generated); this file
// adds the current user (read its own way) and what the features do around the generated calls.
import { generatedApi } from '../api/generated/endpoints';
import type {
  AcceptInvitationApiArg,
  Invitation,
  LoginApiArg,
  SignupApiArg,
  SignupApiResponse,
  UpdateUserApiArg,
} from '../api/generated/endpoints';
import { DEFAULT_PREFERENCES, type User } from './user';

export type LoginRequest = LoginApiArg;
export type SignupRequest = SignupApiArg;
/** 202: a sign-up link (or, for a registered address, a note) went to the address; no account yet. */
export type SignupResponse = SignupApiResponse;
/** What an invitation to a district is for (GET /api/auth/invitations/{token}). */
export type { Invitation };
export type AcceptInvitationRequest = AcceptInvitationApiArg;
export type UpdateUserRequest = UpdateUserApiArg;

const withCurrentUser = generatedApi.injectEndpoints({
  endpoints: (build) => ({
    // A 401 here means "signed out": the user is null, never an error toast.
    getCurrentUser: build.query<User | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery('/api/auth/user');
        if (result.error) return result.error.status === 401 ? { data: null } : { error: result.error };
        return { data: result.data as User };
      },
      providesTags: ['User'],
    }),
  }),
});

export const authApi = withCurrentUser.enhanceEndpoints({
  endpoints: {
    completeGoogleSignup: { invalidatesTags: ['User'] },
    updateUser: {
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        // Only the profile: a preference switched while this was on its way keeps its new value.
        if (data)
          dispatch(
            withCurrentUser.util.updateQueryData('getCurrentUser', undefined, (draft) => {
              if (draft)
                Object.assign(draft, {
                  firstName: data.firstName,
                  lastName: data.lastName,
                  // The sign-in address changes only when the link mailed to the new one is opened.
                  email: data.email,
                  emailVerified: data.emailVerified,
                  pendingEmail: data.pendingEmail ?? undefined,
                  locale: data.locale,
                });
            }),
          );
      },
    },
    // Optimistic: the switch (and dark mode) follow at once, and go back if the save fails. Only the
    // changed keys are sent and patched, so a reply to an earlier save cannot undo a later switch.
    updatePreferences: {
      async onQueryStarted(change, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          withCurrentUser.util.updateQueryData('getCurrentUser', undefined, (draft) => {
            if (!draft) return;
            draft.preferences ??= { ...DEFAULT_PREFERENCES };
            Object.assign(draft.preferences, change);
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
    },
  },
});

export const {
  useGetCurrentUserQuery,
  useLoginMutation,
  useSignupMutation,
  useGetInvitationQuery,
  useAcceptInvitationMutation,
  useCompleteGoogleSignupMutation,
  useLogoutMutation,
  useUpdateUserMutation,
  useUpdatePreferencesMutation,
} = authApi;
