// The OAuth 2.0 client-credentials token a registration's platform gives the tool for its
// services (LTI Advantage: NRPS, AGS), per the IMS Security Framework 1.0 §4.1: a JWT client
// assertion (RFC 7523) signed with the tool's key, POSTed to the registration's token URL under
// the egress rules; cached per registration and scopes until shortly before it expires.
import { randomUUID } from 'node:crypto';
import { AppError, fetchOutbound, ValidationError } from '@checkpoint/service-kit';
import { importJWK, SignJWT } from 'jose';
import type { StoredRegistration } from '../data-access/registrations.repository.ts';
import type { ToolKey } from '../data-access/tool-keys.repository.ts';

export interface PlatformTokenDeps {
  /** The tool's current signing key (tool-keys.ts). */
  signingKey(): Promise<ToolKey>;
  allowLoopback: boolean;
  timeoutMs: number;
  /** The clock of the cache (tests). */
  now?: () => number;
}

/** Tokens are renewed this long before the platform says they expire. */
const RENEW_BEFORE_MS = 60_000;
/** How many tokens are kept (registrations × scope sets are few). */
const MAX_CACHED = 500;

export function createPlatformTokens(deps: PlatformTokenDeps) {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { token: string; until: number }>();
  const pending = new Map<string, Promise<string>>();

  async function request(reg: Pick<StoredRegistration, 'id' | 'clientId' | 'tokenUrl'>, scope: string) {
    const key = await deps.signingKey();
    // The assertion is dated by the real clock (the platform checks it); `now` times the cache.
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: key.algorithm, kid: key.kid, typ: 'JWT' })
      .setIssuer(reg.clientId)
      .setSubject(reg.clientId)
      .setAudience(reg.tokenUrl)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 300)
      .setJti(randomUUID())
      .sign(await importJWK(key.privateJwk, key.algorithm));
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope,
    }).toString();
    let raw: Buffer;
    try {
      raw = await fetchOutbound(reg.tokenUrl, {
        field: 'tokenUrl',
        allowLoopback: deps.allowLoopback,
        maxBytes: 64 * 1024,
        timeoutMs: deps.timeoutMs,
        accept: 'application/json',
        post: { body, contentType: 'application/x-www-form-urlencoded' },
      });
    } catch (err) {
      if (err instanceof ValidationError)
        throw new AppError(
          'unavailable',
          'lti_platform_token',
          `The LMS gave no access token (token URL of the registration): ${err.message}`,
          { tokenUrl: err.message },
        );
      throw err;
    }
    let answer: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
    try {
      answer = JSON.parse(raw.toString('utf8')) as typeof answer;
    } catch {
      answer = {};
    }
    if (typeof answer.access_token !== 'string' || answer.access_token === '')
      throw new AppError('unavailable', 'lti_platform_token', 'The LMS’s token answer holds no access_token', {
        tokenUrl: 'No access_token in the answer',
      });
    if (typeof answer.token_type === 'string' && answer.token_type.toLowerCase() !== 'bearer')
      throw new AppError(
        'unavailable',
        'lti_platform_token',
        `The LMS gave a ${answer.token_type} token, not a bearer`,
        {
          tokenUrl: 'Not a bearer token',
        },
      );
    const lifetimeMs =
      (typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600) * 1000;
    return { token: answer.access_token, until: now() + Math.max(0, lifetimeMs - RENEW_BEFORE_MS) };
  }

  return {
    /** A bearer token of the registration's platform for `scopes` (cached; one request at a time per key). */
    async accessToken(registration: Pick<StoredRegistration, 'id' | 'clientId' | 'tokenUrl'>, scopes: string[]) {
      const scope = [...new Set(scopes)].sort().join(' ');
      const cacheKey = `${registration.id}\u0000${registration.tokenUrl}\u0000${scope}`;
      const hit = cache.get(cacheKey);
      if (hit && hit.until > now()) return hit.token;
      let inFlight = pending.get(cacheKey);
      if (!inFlight) {
        inFlight = request(registration, scope)
          .then((got) => {
            if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
            cache.set(cacheKey, got);
            return got.token;
          })
          .finally(() => pending.delete(cacheKey));
        pending.set(cacheKey, inFlight);
      }
      return inFlight;
    },
    /** Forgets a token the platform refused (401): the next call asks for a new one. */
    forget(registration: Pick<StoredRegistration, 'id' | 'tokenUrl'>, scopes: string[]) {
      const scope = [...new Set(scopes)].sort().join(' ');
      cache.delete(`${registration.id}\u0000${registration.tokenUrl}\u0000${scope}`);
    },
  };
}

export type PlatformTokens = ReturnType<typeof createPlatformTokens>;
