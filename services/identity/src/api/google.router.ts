// "Sign in with Google" and per-tenant SSO: /api/auth/google, its callback and the role step.
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import {
  ApiRouter,
  AppError,
  clientAddress,
  LOG_LEVEL_HEADER,
  TooManyRequestsError,
  type Logger,
} from '@checkpoint/service-kit';
import type { AccountDeps } from '../domain/accounts.use-case.ts';
import type { OidcRepository } from '../data-access/oidc.repository.ts';
import type { Limiter } from '../domain/ports.ts';
import {
  beginOidcSignIn,
  completeOidcSignUp,
  finishOidcSignIn,
  SignInNotConfiguredError,
  type OidcClients,
} from '../domain/oidc.use-case.ts';
import { startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { toPublicUser } from '../domain/user.ts';
import { googleCompleteBody, googleStartQuery, userEnvelope } from './auth.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';

const FLOW_COOKIE = 'cp_oidc_flow';
const PENDING_COOKIE = 'cp_google_signup';
const COOKIE_PATH = '/api/auth/google';

export interface GoogleRouterDeps {
  accounts: AccountDeps;
  sessions: SessionDeps;
  cookies: SessionCookies;
  oidc: OidcRepository;
  clients: OidcClients;
  secure: boolean;
  logger: Logger;
  /** Sign-ins started per client address: each stores a pending flow for 10 minutes. */
  startLimit: Limiter;
}

export function googleRouter(deps: GoogleRouterDeps): ApiRouter {
  const api = new ApiRouter();
  api.router.use('/api/auth/google', cookieParser());
  const oidcDeps = { ...deps.accounts, oidc: deps.oidc, clients: deps.clients };
  const cookie = (maxAgeMs: number) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.secure,
    path: COOKIE_PATH,
    maxAge: maxAgeMs,
  });
  const readCookie = (req: Request, name: string) => (req.cookies as Record<string, string> | undefined)?.[name];

  api.add(
    {
      method: 'get',
      path: '/api/auth/google',
      summary: 'Start sign-in with Google (or the SSO provider of the email domain); redirects',
      access: 'public',
      query: googleStartQuery,
      status: 302,
      errors: [429, 503],
    },
    async ({ query, req, res }) => {
      const limit = await deps.startLimit.consume(clientAddress(req));
      if (!limit.allowed) {
        throw new TooManyRequestsError(
          `Too many sign-in attempts. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
          limit.retryAfterSeconds,
        );
      }
      const emailHint = query.email_hint ?? query.login_hint;
      let started: { url: string; flowToken: string };
      try {
        started = await beginOidcSignIn(oidcDeps, emailHint ? { emailHint } : {});
      } catch (err) {
        if (!(err instanceof SignInNotConfiguredError)) throw err;
        // Anyone can ask: the same 503 as ever, logged as the client's condition it is, not as an error.
        (req.log ?? deps.logger).debug('Google sign-in asked for but not configured');
        res.setHeader(LOG_LEVEL_HEADER, 'info');
        res.status(err.status).json({ message: err.message, code: err.code });
        return;
      }
      res.cookie(FLOW_COOKIE, started.flowToken, cookie(10 * 60_000));
      res.redirect(302, started.url);
    },
  );

  api.add(
    {
      method: 'get',
      path: '/api/auth/google/callback',
      summary: 'Where the provider sends the browser back; signs in or starts the role step, then redirects',
      access: 'public',
      status: 302,
    },
    async ({ req, res }) => {
      res.clearCookie(FLOW_COOKIE, { ...cookie(0), maxAge: undefined });
      try {
        const callbackUrl = new URL(req.originalUrl, deps.clients.redirectUri);
        const result = await finishOidcSignIn(oidcDeps, { flowToken: readCookie(req, FLOW_COOKIE), callbackUrl });
        if (result.kind === 'signed-in') {
          deps.cookies.set(res, await startSession(deps.sessions, result.user));
          res.redirect(302, '/');
        } else {
          res.cookie(PENDING_COOKIE, result.pendingToken, cookie(15 * 60_000));
          res.redirect(302, '/auth?google_signup=true');
        }
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        // A client's condition (anyone can call back with a stale or made-up flow): not a warning.
        (req.log ?? deps.logger).info({ reason: err.message }, 'OpenID Connect sign-in rejected');
        res.redirect(302, '/auth?error=google_signin_failed');
      }
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/google/complete',
      summary: 'Finish a Google sign-up by choosing a role',
      access: 'public',
      body: googleCompleteBody,
      response: userEnvelope,
      errors: [409],
    },
    async ({ body, req, res }: { body: { role: 'teacher' | 'student' }; req: Request; res: Response }) => {
      const user = await completeOidcSignUp(oidcDeps, {
        pendingToken: readCookie(req, PENDING_COOKIE),
        role: body.role,
      });
      res.clearCookie(PENDING_COOKIE, { ...cookie(0), maxAge: undefined });
      deps.cookies.set(res, await startSession(deps.sessions, user));
      return { user: toPublicUser(user) };
    },
  );

  return api;
}
