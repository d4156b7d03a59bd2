// Who is calling a service, proven by a service token: a short-lived compact JWS (HS256, one
// secret shared by the gateway and the services) that the gateway signs for every request it
// passes on, carrying the signed-in caller (if any), the client's address, the request id and the
// target service as audience. Peers sign one without a caller for their internal calls. Services
// verify it before any route (peerAuthentication) and read the caller and the client address only
// from it: headers a local process makes up are worth nothing without the secret.
import type { Request, RequestHandler } from 'express';
import { jwtVerify, SignJWT } from 'jose';

export const ROLES = ['student', 'teacher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The header carrying the service token on every call to a service. */
export const SERVICE_TOKEN_HEADER = 'x-checkpoint-service-token';

export interface Caller {
  userId: string;
  role: Role;
  tenantId: string;
  sessionId: string;
}

/** What a verified service token says. */
export interface PeerClaims {
  /** Who signed it: `gateway`, or the calling service's name. */
  issuer: string;
  /** The signed-in user the call is made for; absent for signed-out callers and peer calls. */
  caller?: Caller;
  /** The client's address as the gateway saw it. */
  clientAddress?: string;
  requestId?: string;
}

export interface ServiceTokenClaims {
  caller?: Caller;
  clientAddress?: string;
  requestId?: string;
}

/** Services' paths that answer without a service token (probes and public documents). */
const OPEN_PATHS = new Set(['/healthz', '/readyz', '/openapi.json', '/.well-known/jwks.json']);

const ALG = 'HS256';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const SERVICE_TOKEN_MIN_SECRET_LENGTH = 32;

async function importSecret(secret: string): Promise<CryptoKey> {
  if (secret.length < SERVICE_TOKEN_MIN_SECRET_LENGTH) {
    throw new Error(`a service token secret needs at least ${SERVICE_TOKEN_MIN_SECRET_LENGTH} characters`);
  }
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/**
 * Signs and verifies service tokens with one shared secret (and, while rotating, the previous one,
 * accepted for verification only). The keys are imported once.
 */
export class ServiceTokens {
  private readonly current: Promise<CryptoKey>;
  private readonly previous?: Promise<CryptoKey>;

  constructor(
    secret: string,
    private readonly options: { issuer: string; previousSecret?: string; ttlSeconds?: number },
  ) {
    this.current = importSecret(secret);
    // Reported when used, not as an unhandled rejection.
    this.current.catch(() => {});
    if (options.previousSecret) {
      this.previous = importSecret(options.previousSecret);
      this.previous.catch(() => {});
    }
  }

  /** A token for one call to `audience` (a service name). */
  async sign(audience: string, claims: ServiceTokenClaims = {}): Promise<string> {
    const payload: Record<string, string> = {};
    if (claims.caller) {
      payload.role = claims.caller.role;
      payload.tid = claims.caller.tenantId;
      payload.sid = claims.caller.sessionId;
    }
    if (claims.clientAddress) payload.addr = claims.clientAddress;
    if (claims.requestId) payload.rid = claims.requestId;
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: ALG })
      .setIssuer(this.options.issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${this.options.ttlSeconds ?? 60}s`);
    if (claims.caller) jwt.setSubject(claims.caller.userId);
    return jwt.sign(await this.current);
  }

  /** The headers of one call to `audience`. */
  async headers(audience: string, claims: ServiceTokenClaims = {}): Promise<Record<string, string>> {
    return { [SERVICE_TOKEN_HEADER]: await this.sign(audience, claims) };
  }

  /** The claims of a valid token for `audience`; undefined when invalid, expired or for another service. */
  async verify(token: string, audience: string): Promise<PeerClaims | undefined> {
    const claims = await this.verifyWith(this.current, token, audience);
    if (claims !== undefined || !this.previous) return claims;
    return this.verifyWith(this.previous, token, audience);
  }

  private async verifyWith(key: Promise<CryptoKey>, token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: [ALG],
        audience,
        requiredClaims: ['iss', 'exp', 'iat'],
        clockTolerance: 5,
      });
      // A token living longer than any we sign is not ours.
      if (payload.exp! - payload.iat! > 600) return undefined;
      const claims: PeerClaims = { issuer: payload.iss! };
      if (payload.sub !== undefined) {
        const { sub, role, tid, sid } = payload;
        if (!UUID.test(sub) || typeof tid !== 'string' || !UUID.test(tid)) return undefined;
        if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return undefined;
        claims.caller = {
          userId: sub,
          role: role as Role,
          tenantId: tid,
          sessionId: typeof sid === 'string' ? sid : '',
        };
      }
      if (typeof payload.addr === 'string') claims.clientAddress = payload.addr;
      if (typeof payload.rid === 'string') claims.requestId = payload.rid;
      return claims;
    } catch {
      return undefined;
    }
  }
}

const verified = new WeakMap<Request, PeerClaims>();

/**
 * Refuses, with 401 {code:'unauthenticated_peer'}, every request without a valid service token
 * for `audience`, except the open paths (probes, OpenAPI document, JWKS); keeps the token's claims
 * for readCaller and clientAddress.
 */
export function peerAuthentication(tokens: ServiceTokens, audience: string): RequestHandler {
  return async (req, res, next) => {
    const path = req.path.toLowerCase().replace(/\/+$/, '');
    if ((req.method === 'GET' || req.method === 'HEAD') && OPEN_PATHS.has(path)) return next();
    const token = req.header(SERVICE_TOKEN_HEADER);
    const claims = token ? await tokens.verify(token, audience) : undefined;
    if (!claims) {
      res.status(401).json({
        message: 'Calls to this service must carry a valid service token',
        code: 'unauthenticated_peer',
      });
      return;
    }
    verified.set(req, claims);
    next();
  };
}

/** The claims of the request's verified service token; undefined on open paths. */
export function peerClaims(req: Request): PeerClaims | undefined {
  return verified.get(req);
}

/** The signed-in caller, from the verified service token only; undefined when signed out. */
export function readCaller(req: Request): Caller | undefined {
  return verified.get(req)?.caller;
}

/**
 * The client's address: in a service, the one the gateway signed into the service token (the
 * service's own socket peer when the token has none); never from X-Forwarded-For.
 */
export function clientAddress(req: Request): string {
  return verified.get(req)?.clientAddress ?? req.socket.remoteAddress ?? 'unknown';
}
