// The three session cookies identity sets at sign-in and clears at sign-out (the gateway sets
// them again after a refresh, with the same attributes).
import type { Response } from 'express';
import { sessionCookieNames } from '@checkpoint/service-kit';
import type { IssuedSession } from '../domain/sessions.use-case.ts';

export function sessionCookies(secure: boolean) {
  const names = sessionCookieNames(secure);
  const base = { sameSite: 'lax' as const, path: '/', secure };
  return {
    names,
    set(res: Response, session: IssuedSession, now = Date.now()): void {
      res.cookie(names.session, session.accessToken, {
        ...base,
        httpOnly: true,
        maxAge: session.accessTokenMaxAgeSeconds * 1000,
      });
      const until = Math.max(0, session.refreshExpiresAt.getTime() - now);
      if (session.refreshToken)
        res.cookie(names.refresh, session.refreshToken, { ...base, httpOnly: true, maxAge: until });
      res.cookie(names.csrf, session.csrf, { ...base, httpOnly: false, maxAge: until });
    },
    clear(res: Response): void {
      res.clearCookie(names.session, { ...base, httpOnly: true });
      res.clearCookie(names.refresh, { ...base, httpOnly: true });
      res.clearCookie(names.csrf, { ...base, httpOnly: false });
    },
  };
}

export type SessionCookies = ReturnType<typeof sessionCookies>;
