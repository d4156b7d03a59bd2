// Password sign-up and sign-in, the current user, preferences and sign-out.
import cookieParser from 'cookie-parser';
import {
  ApiRouter,
  clientAddress,
  TooManyRequestsError,
  UnauthorizedError,
  type Caller,
} from '@checkpoint/service-kit';
import {
  signInWithPassword,
  updatePreferences,
  updateProfile,
  type AccountDeps,
  type ProfileLimits,
  type SignInLimits,
} from '../domain/accounts.use-case.ts';
import { signUpWithPassword, type MembershipDeps } from '../domain/membership.use-case.ts';
import type { Limiter } from '../domain/ports.ts';
import { endSession, startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { localeFromAcceptLanguage } from '../domain/locales.ts';
import { toPublicUser, type UserRecord } from '../domain/user.ts';
import {
  logInBody,
  preferencesChange,
  signUpBody,
  updateUserBody,
  userEnvelope,
  userSchema,
  verificationSentSchema,
} from './auth.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';

/** The browser's language (Accept-Language): the user's until they choose one. */
const browserLocale = (req: { headers: Record<string, string | string[] | undefined> }) =>
  localeFromAcceptLanguage([req.headers['accept-language']].flat().join(','));

export interface AuthRouterDeps {
  accounts: AccountDeps;
  /** Sign-up at a district's domain: a link, never an account (membership.use-case.ts). */
  membership: MembershipDeps;
  sessions: SessionDeps;
  cookies: SessionCookies;
  signInLimits: SignInLimits;
  profileLimits: ProfileLimits;
  signUpLimit: Limiter;
  /** Throws 403 password_sign_in_disabled when the user's district signs in with its provider only. */
  passwordSignInAllowed?: (tenantId: string) => Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The signed-in user, or 401 when the account or the session is gone. */
export async function currentUser(deps: AuthRouterDeps, caller: Caller): Promise<UserRecord> {
  const user = await deps.accounts.users.findById(caller.userId);
  if (!user || user.disabledAt) throw new UnauthorizedError();
  // The access token outlives a sign-out by up to its TTL; the session row says whether it ended.
  if (
    caller.sessionId &&
    (!UUID.test(caller.sessionId) || !(await deps.sessions.sessions.isFamilyActive(caller.sessionId)))
  ) {
    throw new UnauthorizedError();
  }
  return user;
}

export function authRouter(deps: AuthRouterDeps): ApiRouter {
  const api = new ApiRouter();
  api.router.use('/api/auth', cookieParser());

  api.add(
    {
      method: 'post',
      path: '/api/auth/simple-signup',
      summary:
        'Sign up with a password: mails a link that creates the account when opened (or, when the address has an account, a note saying so); the same 202 either way',
      access: 'public',
      body: signUpBody,
      status: 202,
      response: verificationSentSchema,
      errors: [403, 429],
    },
    async ({ body, req }) => {
      const limit = await deps.signUpLimit.consume(clientAddress(req));
      if (!limit.allowed) {
        throw new TooManyRequestsError(
          `Too many sign-up attempts. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
          limit.retryAfterSeconds,
        );
      }
      // No account and no session: the link in the mail proves the address (and the district).
      const { email } = await signUpWithPassword(deps.membership, body);
      return { verificationSent: true as const, email };
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/simple-login',
      summary: 'Sign in with email and password',
      access: 'public',
      body: logInBody,
      response: userEnvelope,
      errors: [401, 403, 429],
    },
    async ({ body, req, res }) => {
      const user = await signInWithPassword(
        { ...deps.accounts, limits: deps.signInLimits },
        { email: body.email, password: body.password, address: clientAddress(req) },
      );
      await deps.passwordSignInAllowed?.(user.tenantId);
      deps.cookies.set(res, await startSession(deps.sessions, user));
      return { user: toPublicUser(user) };
    },
  );

  api.add(
    { method: 'get', path: '/api/auth/user', summary: 'The signed-in user', access: 'signed-in', response: userSchema },
    async ({ caller, req }) => {
      const user = toPublicUser(await currentUser(deps, caller), browserLocale(req));
      const returning =
        Boolean(caller.sessionId) && (await deps.sessions.sessions.signedInBefore(caller.userId, caller.sessionId!));
      const pendingEmail = await deps.accounts.pendingEmailChange?.(caller.userId);
      return { ...user, returning, ...(pendingEmail ? { pendingEmail } : {}) };
    },
  );

  api.add(
    {
      method: 'put',
      path: '/api/auth/user',
      summary:
        "Change the signed-in user's names, and ask to change the email (needs currentPassword; the new address is used once the link mailed to it is opened)",
      access: 'signed-in',
      body: updateUserBody,
      response: userSchema,
      errors: [400, 403, 409, 429],
    },
    async ({ caller, body, req }) => {
      await currentUser(deps, caller);
      const changed = await updateProfile(
        { ...deps.accounts, limits: deps.profileLimits },
        caller.userId,
        body,
        clientAddress(req),
      );
      if (!changed) throw new UnauthorizedError();
      return { ...toPublicUser(changed.user, browserLocale(req)), pendingEmail: changed.pendingEmail ?? null };
    },
  );

  api.add(
    {
      method: 'patch',
      path: '/api/auth/user/preferences',
      summary: "Change some of the signed-in user's notification and display preferences",
      access: 'signed-in',
      body: preferencesChange,
      response: userSchema,
    },
    async ({ caller, body, req }) => {
      await currentUser(deps, caller);
      const user = await updatePreferences(deps.accounts, caller.userId, body);
      if (!user) throw new UnauthorizedError();
      return toPublicUser(user, browserLocale(req));
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/logout',
      summary: 'Sign out: ends the session and clears its cookies',
      access: 'public',
    },
    async ({ caller, req, res }) => {
      const sessionId = caller?.sessionId && UUID.test(caller.sessionId) ? caller.sessionId : undefined;
      const refreshToken = (req.cookies as Record<string, string> | undefined)?.[deps.cookies.names.refresh];
      await endSession(deps.sessions, {
        ...(sessionId ? { sessionId } : {}),
        ...(refreshToken ? { refreshToken } : {}),
      });
      deps.cookies.clear(res);
      return undefined;
    },
  );

  return api;
}
