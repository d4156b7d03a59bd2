// Email links and passwords: verify an address (or finish a sign-up by link), resend the
// verification, forgot / reset password, change password.
import { apiSlice } from '../../api/apiSlice';
import type { User } from './user';

export interface ChangePasswordRequest {
  currentPassword: string;
  newPassword: string;
}

export const emailApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    /** signedIn: a sign-up link created the account and started a session. */
    verifyEmail: build.mutation<{ user: User; signedIn: boolean }, { token: string }>({
      query: (body) => ({ url: '/api/auth/email/verify', method: 'POST', body }),
      invalidatesTags: ['User'],
    }),
    resendVerification: build.mutation<{ verificationSent: boolean }, void>({
      query: () => ({ url: '/api/auth/email/resend', method: 'POST' }),
    }),
    forgotPassword: build.mutation<{ accepted: true }, { email: string }>({
      query: (body) => ({ url: '/api/auth/password/forgot', method: 'POST', body }),
    }),
    resetPassword: build.mutation<{ email: string }, { token: string; password: string }>({
      query: (body) => ({ url: '/api/auth/password/reset', method: 'POST', body }),
    }),
    changePassword: build.mutation<null, ChangePasswordRequest>({
      query: (body) => ({ url: '/api/auth/password', method: 'PUT', body }),
    }),
  }),
});

export const {
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useChangePasswordMutation,
} = emailApi;
