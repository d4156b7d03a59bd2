// Session check: verifies the access JWT against identity's JWKS, refreshes it transparently from
// the refresh cookie when it is missing or expired, and signs the caller into the service token of
// the call it passes on.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import {
  ROLES,
  SERVICE_TOKEN_HEADER,
  sessionCookieNames,
  type Caller,
  type Role,
  type ServiceTokens,
} from '@checkpoint/service-kit';
import type { Logger } from '@checkpoint/service-kit';
import { clearCookie, setCookie } from './cookies.ts';
import type { RevokedSessions } from './revocations.ts';

export interface SessionInfo extends Caller {
  csrf: string;
}

interface RefreshAnswer {
  accessToken: string;
  accessTokenMaxAgeSeconds: number;
  refreshToken?: string;
  /** ISO time of the session's absolute end: the refresh and CSRF cookies live until then. */
  refreshExpiresAt: string;
  csrf: string;
}

const VERIFIED_CACHE_SIZE = 50_000;

/** What identity puts in every access token it signs. */
export const ACCESS_TOKEN = { issuer: 'checkpoint-identity', audience: 'checkpoint' } as const;

export class SessionVerifier {
  private readonly jwks: JWTVerifyGetKey;
  private readonly cookies;
  private readonly inflight = new Map<string, Promise<RefreshAnswer | undefined>>();

  constructor(
    private readonly identityUrl: string,
    private readonly secure: boolean,
    private readonly logger: Logger,
    /** Signs the gateway's own calls to identity (refresh). */
    private readonly tokens: ServiceTokens,
    private readonly revoked?: Pick<RevokedSessions, 'isRevoked'>,
  ) {
    this.jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', identityUrl), { cooldownDuration: 30_000 });
    this.cookies = sessionCookieNames(secure);
  }

  /**
   * The caller of a request with these cookies, refreshing the session when needed (the renewed
   * cookies set on `res`); undefined when signed out.
   */
  async authenticate(
    cookies: Record<string, string | undefined>,
    res: ServerResponse,
  ): Promise<SessionInfo | undefined> {
    const token = cookies[this.cookies.session];
    if (token) {
      const session = await this.verify(token);
      if (session) return session;
    }
    const refreshToken = cookies[this.cookies.refresh];
    if (!refreshToken) return undefined;
    const answer = await this.refresh(refreshToken);
    if (!answer) {
      this.clearCookies(res);
      return undefined;
    }
    this.setCookies(res, answer);
    return this.verify(answer.accessToken);
  }

  /**
   * Verified tokens, so that a session's every request does not pay an RS256 check. Bounded;
   * an entry is used only until the token's own expiry.
   */
  private readonly verified = new Map<string, { session: SessionInfo; expiresAt: number }>();

  private async verify(token: string): Promise<SessionInfo | undefined> {
    const session = await this.verifyCached(token);
    // A revoked session's token is refused like an expired one (its refresh is refused too).
    if (session && (await this.revoked?.isRevoked(session.sessionId))) return undefined;
    return session;
  }

  private async verifyCached(token: string): Promise<SessionInfo | undefined> {
    const hit = this.verified.get(token);
    if (hit && hit.expiresAt > Date.now()) return hit.session;
    if (hit) this.verified.delete(token);
    const session = await this.verifySignature(token);
    if (session) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, session);
    }
    return session?.session;
  }

  private async verifySignature(token: string): Promise<{ session: SessionInfo; expiresAt: number } | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.jwks, {
        algorithms: ['RS256'],
        issuer: ACCESS_TOKEN.issuer,
        audience: ACCESS_TOKEN.audience,
      });
      const role = payload.role as string;
      if (typeof payload.sub !== 'string' || !(ROLES as readonly string[]).includes(role)) return undefined;
      if (typeof payload.tid !== 'string' || typeof payload.csrf !== 'string') return undefined;
      const session: SessionInfo = {
        userId: payload.sub,
        role: role as Role,
        tenantId: payload.tid,
        sessionId: typeof payload.sid === 'string' ? payload.sid : '',
        csrf: payload.csrf,
      };
      return { session, expiresAt: (payload.exp ?? 0) * 1000 };
    } catch {
      return undefined;
    }
  }

  /**
   * One refresh call per token at a time: parallel requests of one browser share it. Only the
   * request that made the call gets the successor refresh token; the others (and the old token
   * presented again within the next 5 s) get the new access token only, as identity's grace rule.
   */
  private refresh(refreshToken: string): Promise<RefreshAnswer | undefined> {
    const pending = this.inflight.get(refreshToken);
    if (pending) return pending.then((answer) => answer && withoutRefreshToken(answer));
    const call = this.callRefresh(refreshToken).finally(() => {
      setTimeout(() => this.inflight.delete(refreshToken), 5_000).unref();
    });
    this.inflight.set(refreshToken, call);
    return call;
  }

  private async callRefresh(refreshToken: string): Promise<RefreshAnswer | undefined> {
    try {
      const res = await fetch(new URL('/internal/sessions/refresh', this.identityUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(await this.tokens.headers('identity')) },
        body: JSON.stringify({ refreshToken }),
        signal: AbortSignal.timeout(5_000),
      });
      if (!res.ok) return undefined;
      return (await res.json()) as RefreshAnswer;
    } catch (err) {
      this.logger.warn({ err }, 'session refresh failed');
      return undefined;
    }
  }

  private setCookies(res: ServerResponse, answer: RefreshAnswer): void {
    const base = { httpOnly: true, sameSite: 'lax' as const, secure: this.secure, path: '/' };
    const until = Math.max(0, new Date(answer.refreshExpiresAt).getTime() - Date.now());
    setCookie(res, this.cookies.session, answer.accessToken, {
      ...base,
      maxAge: answer.accessTokenMaxAgeSeconds * 1000,
    });
    if (answer.refreshToken) setCookie(res, this.cookies.refresh, answer.refreshToken, { ...base, maxAge: until });
    setCookie(res, this.cookies.csrf, answer.csrf, { ...base, httpOnly: false, maxAge: until });
  }

  private clearCookies(res: ServerResponse): void {
    for (const name of [this.cookies.session, this.cookies.refresh]) {
      clearCookie(res, name, { path: '/', secure: this.secure, httpOnly: true, sameSite: 'lax' });
    }
  }
}

function withoutRefreshToken(answer: RefreshAnswer): RefreshAnswer {
  const { refreshToken: _successor, ...rest } = answer;
  return rest;
}

/**
 * Removes any x-checkpoint-* header a client sent, then sets the service token of this call to
 * `service`: the verified caller (none when signed out), the client's address and the request id.
 */
export function applyServiceToken(
  headers: IncomingHttpHeaders,
  tokens: ServiceTokens,
  service: string,
  call: { session: SessionInfo | undefined; clientAddress: string | undefined; requestId: string | undefined },
): void {
  for (const name of Object.keys(headers)) if (name.startsWith('x-checkpoint-')) delete headers[name];
  const { session } = call;
  headers[SERVICE_TOKEN_HEADER] = tokens.signNow(service, {
    caller: session && {
      userId: session.userId,
      role: session.role,
      tenantId: session.tenantId,
      sessionId: session.sessionId,
    },
    clientAddress: call.clientAddress,
    requestId: call.requestId,
  });
}
