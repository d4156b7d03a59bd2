// Email links and passwords: verify an address (or finish a sign-up by link), resend the
// verification, forgot / reset password, change password (domain/email-links.use-case.ts).
import cookieParser from 'cookie-parser';
import {
  ApiRouter,
  clientAddress,
  EMAIL,
  TooManyRequestsError,
  UnauthorizedError,
  type Caller,
} from '@checkpoint/service-kit';
import { z } from 'zod';
import {
  changePassword,
  redeemEmailLink,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  type EmailLinkDeps,
} from '../domain/email-links.use-case.ts';
import type { Limiter } from '../domain/ports.ts';
import { startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { normalizeEmail, toPublicUser, type UserRecord } from '../domain/user.ts';
import { userSchema } from './auth.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';

export interface EmailRouterDeps {
  links: EmailLinkDeps;
  sessions: SessionDeps;
  cookies: SessionCookies;
  limits: {
    /** Requests per client address (every route here). */
    perAddress: Limiter;
    /** Mails per address asked for (forgot password, resend). */
    perEmail: Limiter;
    /** Password changes per user (guessing the current password). */
    perUser: Limiter;
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The same rule as sign-up, with an upper bound on the hashing work. */
export const newPassword = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(200, 'Password must be at most 200 characters');
/** As sign-up's (auth.schemas.ts): z.email()'s rule as a pattern the document carries, trimmed. */
const email = z
  .string({ error: 'Please enter a valid email' })
  .max(254, 'Email must be at most 254 characters')
  .regex(EMAIL, 'Please enter a valid email')
  .trim();
const token = z
  .string({ error: 'The link is incomplete' })
  .min(1, 'The link is incomplete')
  .max(200, 'The link is incomplete');

export const verifyEmailBody = z.object({ token });
export const forgotPasswordBody = z.object({ email });
export const resetPasswordBody = z.object({ token, password: newPassword });
export const changePasswordBody = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(256),
  newPassword,
});
/** signedIn: a sign-up link created the account and started a session (201). */
const verifiedSchema = z.object({ user: userSchema, signedIn: z.boolean() });
const acceptedSchema = z.object({ accepted: z.literal(true) }).meta({ id: 'Accepted' });
const resendSchema = z.object({ verificationSent: z.boolean() });
const resetDoneSchema = z.object({ email: z.string() });

async function consume(limiter: Limiter, key: string, what: string): Promise<void> {
  const limit = await limiter.consume(key);
  if (!limit.allowed) {
    throw new TooManyRequestsError(
      `Too many ${what}. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
      limit.retryAfterSeconds,
    );
  }
}

/** The signed-in user, or 401 when the account or the session is gone. */
async function signedInUser(deps: EmailRouterDeps, caller: Caller): Promise<UserRecord> {
  const user = await deps.links.users.findById(caller.userId);
  if (!user || user.disabledAt) throw new UnauthorizedError();
  if (
    caller.sessionId &&
    (!UUID.test(caller.sessionId) || !(await deps.sessions.sessions.isFamilyActive(caller.sessionId)))
  ) {
    throw new UnauthorizedError();
  }
  return user;
}

export function emailRouter(deps: EmailRouterDeps): ApiRouter {
  const api = new ApiRouter();
  api.router.use('/api/auth', cookieParser());
  const { limits } = deps;

  api.add(
    {
      method: 'post',
      path: '/api/auth/email/verify',
      summary:
        'Open an email link: a verification link marks the address verified (200); a sign-up link creates the account and signs in (201)',
      access: 'public',
      body: verifyEmailBody,
      response: verifiedSchema,
      otherSuccesses: { 201: verifiedSchema },
      errors: [400, 429],
    },
    async ({ body, req, res }) => {
      await consume(limits.perAddress, clientAddress(req) || 'unknown', 'attempts');
      const outcome = await redeemEmailLink(deps.links, body.token);
      if (outcome.kind === 'signed-up') {
        deps.cookies.set(res, await startSession(deps.sessions, outcome.user));
        res.status(201).json({ user: toPublicUser(outcome.user), signedIn: true });
        return undefined;
      }
      return { user: toPublicUser(outcome.user), signedIn: false };
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/email/resend',
      summary: "Mail a new verification link to the signed-in user's address, unless it is verified",
      access: 'signed-in',
      status: 202,
      response: resendSchema,
      errors: [429],
    },
    async ({ caller, req }) => {
      const user = await signedInUser(deps, caller);
      await consume(limits.perAddress, clientAddress(req) || 'unknown', 'requests');
      await consume(limits.perEmail, user.email, 'mails to this address');
      return { verificationSent: await resendVerification(deps.links, user) };
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/password/forgot',
      summary: 'Mail a password reset link, if an account has this address (the answer is the same either way)',
      access: 'public',
      body: forgotPasswordBody,
      status: 202,
      response: acceptedSchema,
      errors: [429],
    },
    async ({ body, req }) => {
      await consume(limits.perAddress, clientAddress(req) || 'unknown', 'requests');
      await consume(limits.perEmail, normalizeEmail(body.email), 'requests for this address');
      await requestPasswordReset(deps.links, body.email);
      return { accepted: true as const };
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/password/reset',
      summary: 'Set a new password with a reset link; verifies the address and ends every session of the account',
      access: 'public',
      body: resetPasswordBody,
      response: resetDoneSchema,
      errors: [400, 429],
    },
    async ({ body, req }) => {
      await consume(limits.perAddress, clientAddress(req) || 'unknown', 'attempts');
      const user = await resetPassword(deps.links, body);
      return { email: user.email };
    },
  );

  api.add(
    {
      method: 'put',
      path: '/api/auth/password',
      summary: "Change the signed-in user's password; ends the user's other sessions",
      access: 'signed-in',
      body: changePasswordBody,
      errors: [400, 429],
    },
    async ({ caller, body, req }) => {
      const user = await signedInUser(deps, caller);
      await consume(limits.perUser, user.id, 'password attempts');
      await consume(limits.perAddress, clientAddress(req) || 'unknown', 'attempts');
      await changePassword(deps.links, {
        userId: user.id,
        ...(caller.sessionId ? { sessionId: caller.sessionId } : {}),
        currentPassword: body.currentPassword,
        newPassword: body.newPassword,
      });
      return undefined;
    },
  );

  return api;
}
