// "Sign in with Google" and per-district SSO: /api/auth/google, the sign-in a district's provider
// starts, the callback (the redirect URI of every provider) and the role step.
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { ApiRouter, AppError, clientAddress, LOG_LEVEL_HEADER, type Logger } from '@checkpoint/service-kit';
import type { AccountDeps } from '../domain/accounts.use-case.ts';
import type { OidcRepository } from '../data-access/oidc.repository.ts';
import type { Limiter } from '../domain/ports.ts';
import {
  beginOidcSignIn,
  completeOidcSignUp,
  finishOidcSignIn,
  initiateOidcSignIn,
  OidcSignInError,
  type OidcClients,
} from '../domain/oidc.use-case.ts';
import type { SecretBox } from '../domain/secret-box.ts';
import { startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { toPublicUser } from '../domain/user.ts';
import { googleCompleteBody, googleStartQuery, userEnvelope } from './auth.schemas.ts';
import { ssoInitiateQuery } from './sso.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';

const FLOW_COOKIE = 'cp_oidc_flow';
const PENDING_COOKIE = 'cp_google_signup';
const COOKIE_PATH = '/api/auth/google';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface GoogleRouterDeps {
  accounts: AccountDeps;
  sessions: SessionDeps;
  cookies: SessionCookies;
  oidc: OidcRepository;
  clients: OidcClients;
  /** Opens the sealed client secrets of the districts' connections. */
  secrets: SecretBox;
  secure: boolean;
  logger: Logger;
  /** Sign-ins started per client address: each stores a pending flow for 10 minutes. */
  startLimit: Limiter;
}

export function googleRouter(deps: GoogleRouterDeps): ApiRouter {
  const api = new ApiRouter();
  api.router.use('/api/auth/google', cookieParser());
  const oidcDeps = { ...deps.accounts, oidc: deps.oidc, clients: deps.clients, secrets: deps.secrets };
  const cookie = (maxAgeMs: number) => ({
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.secure,
    path: COOKIE_PATH,
    maxAge: maxAgeMs,
  });
  const readCookie = (req: Request, name: string) => (req.cookies as Record<string, string> | undefined)?.[name];

  /**
   * A refused sign-in goes back to the sign-in page with a code it explains, never to a JSON page;
   * anyone can cause one (a stale link, an unconfigured provider), so it is logged at info.
   */
  const refuse = (req: Request, res: Response, err: unknown) => {
    if (!(err instanceof OidcSignInError)) throw err;
    (req.log ?? deps.logger).info({ reason: err.message, code: err.redirectCode }, 'OpenID Connect sign-in refused');
    res.setHeader(LOG_LEVEL_HEADER, 'info');
    res.redirect(302, `/auth?error=${err.redirectCode}`);
  };
  /**
   * Sign-ins started per address (each stores a pending flow). The start is a browser navigation:
   * past the limit it goes back to the sign-in page with a sentence (and Retry-After), not to a
   * JSON page. Returns false when it answered so.
   */
  const limitStarts = async (req: Request, res: Response): Promise<boolean> => {
    const limit = await deps.startLimit.consume(clientAddress(req));
    if (limit.allowed) return true;
    (req.log ?? deps.logger).info(
      { retryAfterSeconds: limit.retryAfterSeconds },
      'OpenID Connect sign-in starts limited',
    );
    res.setHeader(LOG_LEVEL_HEADER, 'info');
    res.setHeader('Retry-After', String(limit.retryAfterSeconds));
    res.redirect(302, '/auth?error=too_many_attempts');
    return false;
  };

  api.add(
    {
      method: 'get',
      path: '/api/auth/google',
      summary:
        "Start sign-in with Google, or with the district's provider of the hinted email's domain; redirects to the provider, or to /auth?error=<code> when it is not configured or unreachable",
      access: 'public',
      query: googleStartQuery,
      status: 302,
    },
    async ({ query, req, res }) => {
      if (!(await limitStarts(req, res))) return;
      const emailHint = query.email_hint ?? query.login_hint;
      let started: { url: string; flowToken: string };
      try {
        started = await beginOidcSignIn(oidcDeps, emailHint ? { emailHint } : {});
      } catch (err) {
        refuse(req, res, err);
        return;
      }
      res.cookie(FLOW_COOKIE, started.flowToken, cookie(10 * 60_000));
      res.redirect(302, started.url);
    },
  );

  api.add(
    {
      method: 'get',
      path: '/api/auth/sso/:connectionId/initiate',
      summary:
        "Sign-in started by the district's provider (OpenID Connect third-party initiated login): checks iss, then starts the code flow; redirects",
      access: 'public',
      params: z.object({ connectionId: z.string().max(100) }),
      query: ssoInitiateQuery,
      status: 302,
    },
    async ({ params, query, req, res }) => {
      if (!(await limitStarts(req, res))) return;
      let started: { url: string; flowToken: string };
      try {
        if (!UUID.test(params.connectionId)) throw new OidcSignInError('not a connection id', 'sso_unavailable');
        started = await initiateOidcSignIn(oidcDeps, {
          connectionId: params.connectionId,
          iss: query.iss,
          ...(query.login_hint ? { loginHint: query.login_hint } : {}),
          ...(query.target_link_uri ? { targetLinkUri: query.target_link_uri } : {}),
        });
      } catch (err) {
        refuse(req, res, err);
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
          res.redirect(302, result.returnTo);
        } else {
          res.cookie(PENDING_COOKIE, result.pendingToken, cookie(15 * 60_000));
          res.redirect(302, '/auth?google_signup=true');
        }
      } catch (err) {
        // A client's condition (anyone can call back with a stale or made-up flow): not a warning.
        if (err instanceof AppError && !(err instanceof OidcSignInError) && err.status < 500) {
          refuse(req, res, new OidcSignInError(err.message));
          return;
        }
        refuse(req, res, err);
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
