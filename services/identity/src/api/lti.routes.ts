// Sign-in from an LTI launch (docs/adr/014-lti.md): the internal route the integrations service
// calls after verifying a launch (service token signed by integrations; never routed by the
// gateway), and the first-party URL where the browser redeems the one-time sign-in it opened.
import type { Express, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { ApiRouter, AppError, LOG_LEVEL_HEADER, peerClaims, zodToValidationError } from '@checkpoint/service-kit';
import { ltiSignIn, openLtiHandoff, redeemLtiHandoff, type LtiSignInDeps } from '../domain/lti-sign-in.use-case.ts';
import { startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { ltiHandoffBody, ltiHandoffQuery, ltiSignInBody } from './lti.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';

/** The only peer that may open an LTI sign-in. */
const CALLER = 'integrations';

export function mountLtiInternalRoutes(app: Express, deps: LtiSignInDeps): void {
  const internal =
    <T>(schema: z.ZodType<T>, run: (body: T) => Promise<unknown>) =>
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        // The service kit refused calls without a valid service token (401 unauthenticated_peer);
        // of the valid ones, only integrations' own calls (not the gateway's, not a user's).
        const peer = peerClaims(req);
        if (peer?.issuer !== CALLER || peer.caller)
          throw new AppError('forbidden', 'peer_not_allowed', 'Only the integrations service opens an LTI sign-in');
        const parsed = schema.safeParse(req.body ?? {});
        if (!parsed.success) throw zodToValidationError(parsed.error);
        res.setHeader('Cache-Control', 'no-store');
        res.json(await run(parsed.data));
      } catch (err) {
        next(err);
      }
    };
  app.post(
    '/internal/lti/sign-in',
    internal(ltiSignInBody, (body) => ltiSignIn(deps, body)),
  );
  app.post(
    '/internal/lti/handoffs',
    internal(ltiHandoffBody, (body) => openLtiHandoff(deps, body)),
  );
}

export function ltiHandoffRouter(deps: {
  lti: LtiSignInDeps['lti'];
  users: LtiSignInDeps['users'];
  sessions: SessionDeps;
  cookies: SessionCookies;
}): ApiRouter {
  return new ApiRouter().add(
    {
      method: 'get',
      path: '/api/auth/lti/handoff',
      summary:
        'Redeem the one-time sign-in an LTI launch opened: sets the session cookies and redirects into the app; a token unknown, used or expired redirects to /auth?error=lti_handoff_invalid',
      access: 'public',
      query: ltiHandoffQuery,
      status: 302,
    },
    async ({ query, res }) => {
      // The token is in the URL: never sent on as a Referer, never cached.
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.setHeader('Cache-Control', 'no-store');
      const redeemed = await redeemLtiHandoff(deps, query.token);
      if (!redeemed) {
        res.setHeader(LOG_LEVEL_HEADER, 'info');
        res.redirect(302, '/auth?error=lti_handoff_invalid');
        return;
      }
      deps.cookies.set(res, await startSession(deps.sessions, redeemed.user));
      res.redirect(302, redeemed.returnTo);
    },
  );
}
