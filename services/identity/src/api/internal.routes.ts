// Routes outside /api: the JWKS (public, for the gateway and anyone verifying tokens) and the
// refresh exchange the gateway calls (internal; never routed from the internet).
import type { Express, NextFunction, Request, Response } from 'express';
import { UnauthorizedError, zodToValidationError } from '@checkpoint/service-kit';
import { refreshSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { refreshBody } from './auth.schemas.ts';

export interface InternalRoutesDeps {
  sessions: SessionDeps;
  jwks: () => Promise<{ keys: Record<string, unknown>[] }>;
}

export function mountInternalRoutes(app: Express, deps: InternalRoutesDeps): void {
  app.get('/.well-known/jwks.json', async (_req: Request, res: Response, next: NextFunction) => {
    try {
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.json(await deps.jwks());
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
