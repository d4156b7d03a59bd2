// Cookie names shared by identity (sets them at sign-in) and the gateway (reads them, refreshes).
// Over https the session cookies carry the __Host- prefix (Secure, Path=/, no Domain). The CSRF
// cookie keeps one name because the web app reads it; the gateway binds it to the session anyway.
export interface SessionCookieNames {
  session: string;
  refresh: string;
  csrf: string;
}

export function sessionCookieNames(secure: boolean): SessionCookieNames {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}cp_session`, refresh: `${prefix}cp_refresh`, csrf: 'cp_csrf' };
}
