// "Sign in with Google" and per-tenant SSO: /api/auth/google, its callback and the role step.
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import { ApiRouter, AppError, type Logger } from '@checkpoint/service-kit';
import type { AccountDeps } from '../domain/accounts.use-case.ts';
import type { OidcRepository } from '../data-access/oidc.repository.ts';
import { beginOidcSignIn, completeOidcSignUp, finishOidcSignIn, type OidcClients } from '../domain/oidc.use-case.ts';
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
      errors: [503],
    },
    async ({ query, res }) => {
      const emailHint = query.email_hint ?? query.login_hint;
      const { url, flowToken } = await beginOidcSignIn(oidcDeps, emailHint ? { emailHint } : {});
      res.cookie(FLOW_COOKIE, flowToken, cookie(10 * 60_000));
      res.redirect(302, url);
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
        (req.log ?? deps.logger).warn({ reason: err.message }, 'OpenID Connect sign-in rejected');
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
