// Routes outside /api: the JWKS (public, for the gateway and anyone verifying tokens), and the
// refresh exchange and the list of revoked sessions the gateway calls (internal; never routed from
// the internet, and answered only to calls with a valid service token: the service kit refuses
// others with 401 unauthenticated_peer before they get here, see docs/adr/007).
import type { Express, NextFunction, Request, Response } from 'express';
import { LOG_LEVEL_HEADER, UnauthorizedError, zodToValidationError } from '@checkpoint/service-kit';
import { refreshSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { refreshBody, revokedQuery } from './auth.schemas.ts';

export interface InternalRoutesDeps {
  sessions: SessionDeps;
  jwks: () => Promise<{ keys: Record<string, unknown>[] }>;
  /** Lifetime of an access token: how long a revoked session's tokens may still be presented. */
  accessTokenTtlSeconds: number;
  /** Aborted when shutdown begins: held answers are given at once. */
  draining?: AbortSignal;
}

/** How often a held request for revoked sessions looks again (an indexed query on revoked_at). */
const HELD_CHECK_MS = 250;

export function mountInternalRoutes(app: Express, deps: InternalRoutesDeps): void {
  app.get('/.well-known/jwks.json', async (_req: Request, res: Response, next: NextFunction) => {
    try {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json(await deps.jwks());
    } catch (err) {
      next(err);
    }
  });

  // Sessions ended (sign-out, account disabled, refresh token reuse) whose access tokens have not
  // all expired yet. `asOf` is this service's clock, the one that stamps revocations: the caller's
  // next `since`, minus an overlap for transactions still committing. With `wait`, the answer is
  // held (up to that many seconds) until a session revoked after `after` is in the list, so that a
  // gateway holding one learns of a sign-out at once.
  app.get('/internal/sessions/revoked', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const parsed = revokedQuery.safeParse(req.query);
      if (!parsed.success) throw zodToValidationError(parsed.error);
      const ttlMs = deps.accessTokenTtlSeconds * 1000;
      const since = parsed.data.since ? new Date(parsed.data.since) : new Date(0);
      const after = parsed.data.after ? Date.parse(parsed.data.after) : -Infinity;
      const holdUntil = Date.now() + (parsed.data.wait ?? 0) * 1000;
      // Held on purpose: not a slow call.
      if (parsed.data.wait) res.setHeader(LOG_LEVEL_HEADER, 'debug');
      let asOf = new Date();
      let revoked = await deps.sessions.sessions.revokedSince(since, new Date(asOf.getTime() - ttlMs));
      while (
        !revoked.some((r) => r.revokedAt.getTime() > after) &&
        Date.now() + HELD_CHECK_MS < holdUntil &&
        !req.socket.destroyed &&
        !deps.draining?.aborted
      ) {
        await pause(HELD_CHECK_MS, deps.draining);
        asOf = new Date();
        revoked = await deps.sessions.sessions.revokedSince(since, new Date(asOf.getTime() - ttlMs));
      }
      // The gateway gave up waiting (it is stopping): nobody is left to answer.
      if (req.socket.destroyed) return;
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        asOf: asOf.toISOString(),
        accessTokenTtlSeconds: deps.accessTokenTtlSeconds,
        sessions: revoked.map((r) => ({ id: r.id, revokedAt: r.revokedAt.toISOString() })),
      });
    } catch (err) {
      next(err);
    }
  });

  app.post('/internal/sessions/refresh', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const parsed = refreshBody.safeParse(req.body ?? {});
      if (!parsed.success) throw zodToValidationError(parsed.error);
      const session = await refreshSession(deps.sessions, parsed.data.refreshToken);
      if (!session) throw new UnauthorizedError();
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        accessToken: session.accessToken,
        accessTokenMaxAgeSeconds: session.accessTokenMaxAgeSeconds,
        ...(session.refreshToken ? { refreshToken: session.refreshToken } : {}),
        refreshExpiresAt: session.refreshExpiresAt.toISOString(),
        csrf: session.csrf,
        user: session.user,
      });
    } catch (err) {
      next(err);
    }
  });
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
