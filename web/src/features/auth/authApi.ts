// Auth calls of spec §7: current user, sign-in/up, Google completion, logout, profile and preferences.
import { apiSlice } from '../../api/apiSlice';
import { DEFAULT_PREFERENCES, type Preferences, type SignupRole, type User } from './user';

export interface LoginRequest {
  email: string;
  password: string;
}

export interface SignupRequest {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  role: SignupRole;
}

/** 201: the account (signed in); 202: an address at a district's domain got a sign-up link instead. */
export type SignupResponse = { user: User } | { verificationSent: true; email: string };

/** What an invitation to a district is for (GET /api/auth/invitations/{token}). */
export interface Invitation {
  email: string;
  districtName: string;
  role: 'student' | 'teacher' | 'admin';
}

export interface AcceptInvitationRequest {
  token: string;
  firstName: string;
  lastName: string;
  password: string;
}

export interface UpdateUserRequest {
  firstName: string;
  lastName: string;
  email: string;
}

export const authApi = apiSlice.injectEndpoints({
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
    login: build.mutation<{ user: User }, LoginRequest>({
      query: (body) => ({ url: '/api/auth/simple-login', method: 'POST', body }),
    }),
    signup: build.mutation<SignupResponse, SignupRequest>({
      query: (body) => ({ url: '/api/auth/simple-signup', method: 'POST', body }),
    }),
    getInvitation: build.query<Invitation, string>({
      query: (token) => `/api/auth/invitations/${encodeURIComponent(token)}`,
    }),
    acceptInvitation: build.mutation<{ user: User }, AcceptInvitationRequest>({
      query: (body) => ({ url: '/api/auth/invitations/accept', method: 'POST', body }),
    }),
    completeGoogleSignup: build.mutation<{ user: User }, { role: SignupRole }>({
      query: (body) => ({ url: '/api/auth/google/complete', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    logout: build.mutation<null, void>({
      query: () => ({ url: '/api/auth/logout', method: 'POST' }),
    }),
    updateUser: build.mutation<User, UpdateUserRequest>({
      query: (body) => ({ url: '/api/auth/user', method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        // Only the profile: a preference switched while this was on its way keeps its new value.
        if (data)
          dispatch(
            authApi.util.updateQueryData('getCurrentUser', undefined, (draft) => {
              if (draft)
                Object.assign(draft, {
                  firstName: data.firstName,
                  lastName: data.lastName,
                  email: data.email,
                  // A new address is unverified until its link is opened (the banner says so).
                  emailVerified: data.emailVerified,
                });
            }),
          );
      },
    }),
    // Optimistic: the switch (and dark mode) follow at once, and go back if the save fails. Only the
    // changed keys are sent and patched, so a reply to an earlier save cannot undo a later switch.
    updatePreferences: build.mutation<User, Partial<Preferences>>({
      query: (body) => ({ url: '/api/auth/user/preferences', method: 'PATCH', body }),
      async onQueryStarted(change, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          authApi.util.updateQueryData('getCurrentUser', undefined, (draft) => {
            if (!draft) return;
            draft.preferences ??= { ...DEFAULT_PREFERENCES };
            Object.assign(draft.preferences, change);
          }),
        );
        await queryFulfilled.catch(() => patch.undo());
      },
    }),
  }),
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
