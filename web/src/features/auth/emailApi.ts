// Email links and passwords: verify an address (or finish a sign-up by link), resend the
// verification, forgot / reset password, change password. Endpoints and types are generated from
// the gateway's OpenAPI document (api/generated).
import { generatedApi } from '../../api/generated/endpoints';
import type { ChangePasswordApiArg } from '../../api/generated/endpoints';

export type ChangePasswordRequest = ChangePasswordApiArg;

export const emailApi = generatedApi.enhanceEndpoints({
  // signedIn: a sign-up link created the account and started a session.
  endpoints: { verifyEmail: { invalidatesTags: ['User'] } },
});

export const {
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useChangePasswordMutation,
} = emailApi;
