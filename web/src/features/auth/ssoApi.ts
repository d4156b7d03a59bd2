// District sign-in (identity's /api/auth/sso): the typed email's district button, and the reasons
// a provider sign-in came back refused (/auth?error=<code>).
// The look-up's endpoint and type are generated from the gateway's OpenAPI document (api/generated).
import { generatedApi, type SsoLookup } from '../../api/generated/endpoints';

export type { SsoLookup };

export const ssoApi = generatedApi;

export const { useLookUpSsoQuery } = ssoApi;

/** What the sign-in page says for each `error` code identity sends the browser back with. */
export const SIGN_IN_ERRORS: Record<string, string> = {
  account_not_verified:
    'An account with this email already exists but its address has not been verified. Sign in with your password and verify your email first.',
  email_not_verified: 'Your sign-in provider did not confirm your email address, so we could not sign you in.',
  domain_not_allowed:
    "This account's email address is not one that your district's sign-in accepts. Use your district email address, or ask your district administrator.",
  wrong_district:
    'This account belongs to another district or school. Sign in through that district, or ask your administrator.',
  account_disabled: 'This account has been disabled. Ask your district administrator.',
  sso_unavailable:
    "Your district's sign-in is not available right now (it is turned off or was removed). Ask your district administrator.",
  sso_invalid_request: 'That sign-in link is not valid. Start again from your district portal or from this page.',
  google_not_configured: 'Sign in with Google is not available here. Sign in with your email and password.',
  provider_unavailable: 'The sign-in provider cannot be reached right now. Please try again in a moment.',
  too_many_attempts: 'Too many sign-ins were started from your network. Please wait a minute and try again.',
  google_signin_failed: 'Sign-in with your provider did not work. Please try again.',
  lti_handoff_invalid:
    'That sign-in link from your LMS has expired or was used already (it works once, for two minutes). Open Checkpoint again from your course in the LMS.',
};

export function signInErrorText(code: string | null): string | undefined {
  if (!code) return undefined;
  return SIGN_IN_ERRORS[code] ?? SIGN_IN_ERRORS.google_signin_failed;
}
