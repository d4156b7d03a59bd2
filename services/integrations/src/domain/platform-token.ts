// The OAuth 2 client-credentials token of a registration, for the platform's services (AGS, NRPS):
// a JWT client assertion (RFC 7523, the LTI Security Framework §4.1) signed with the tool's key,
// POSTed to the registration's token URL under the egress rules, the answer's access token cached
// per registration and scopes until shortly before it expires.
import { randomUUID } from 'node:crypto';
import { fetchOutbound } from '@checkpoint/service-kit';
import { importJWK, SignJWT } from 'jose';
import type { ToolKey } from '../data-access/tool-keys.repository.ts';

export interface TokenRegistration {
  id: string;
  clientId: string;
  tokenUrl: string;
}

export interface PlatformTokenDeps {
  /** The tool's signing key (the newest active one). */
  signingKey: () => Promise<ToolKey>;
  allowLoopback: boolean;
  timeoutMs: number;
  now?: () => number;
}

/** A token is renewed this long before the platform says it expires. */
const RENEW_BEFORE_MS = 60_000;

export function createPlatformTokens(deps: PlatformTokenDeps) {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { token: string; until: number }>();
  const keyOf = (registration: TokenRegistration, scopes: string[]) =>
    `${registration.id} ${[...new Set(scopes)].sort().join(' ')}`;

  return {
    /** An access token for these scopes (from the cache while it lasts). */
    async accessToken(registration: TokenRegistration, scopes: string[]): Promise<string> {
      const key = keyOf(registration, scopes);
      const hit = cache.get(key);
      if (hit && hit.until > now()) return hit.token;
      const signing = await deps.signingKey();
      const seconds = Math.floor(now() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: signing.algorithm, kid: signing.kid, typ: 'JWT' })
        .setIssuer(registration.clientId)
        .setSubject(registration.clientId)
        .setAudience(registration.tokenUrl)
        .setIssuedAt(seconds)
        .setExpirationTime(seconds + 300)
        .setJti(randomUUID())
        .sign(await importJWK(signing.privateJwk, signing.algorithm));
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope: [...new Set(scopes)].join(' '),
      }).toString();
      const answer = await fetchOutbound(registration.tokenUrl, {
        field: 'tokenUrl',
        allowLoopback: deps.allowLoopback,
        timeoutMs: deps.timeoutMs,
        maxBytes: 64 * 1024,
        accept: 'application/json',
        post: { body, contentType: 'application/x-www-form-urlencoded' },
      });
      let parsed: { access_token?: unknown; expires_in?: unknown };
      try {
        parsed = JSON.parse(answer.toString('utf8')) as typeof parsed;
      } catch {
        throw new Error('The platform’s token URL did not answer JSON');
      }
      if (typeof parsed.access_token !== 'string' || parsed.access_token === '')
        throw new Error('The platform’s token URL gave no access_token');
      const expiresIn = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : 3600;
      cache.set(key, { token: parsed.access_token, until: now() + expiresIn * 1000 - RENEW_BEFORE_MS });
      return parsed.access_token;
    },

    /** Forgets a token the platform refused (401): the next call asks for a new one. */
    forget(registration: TokenRegistration, scopes: string[]): void {
      cache.delete(keyOf(registration, scopes));
    },
  };
}

export type PlatformTokens = ReturnType<typeof createPlatformTokens>;
