// Who is calling a service, proven by a service token: a short-lived compact JWS (HS256, one
// secret shared by the gateway and the services) that the gateway signs for every request it
// passes on, carrying the signed-in caller (if any), the client's address, the request id and the
// target service as audience. Peers sign one without a caller for their internal calls. Services
// verify it before any route (peerAuthentication) and read the caller and the client address only
// from it: headers a local process makes up are worth nothing without the secret.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Request, RequestHandler } from 'express';

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
/** Seconds of clock difference between processes that a token's expiry allows. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** The protected header of every token we sign: `{"alg":"HS256"}`, encoded once. */
const OUR_HEADER: Record<string, unknown> = { alg: ALG };
const HEADER_SEGMENT = Buffer.from(JSON.stringify(OUR_HEADER)).toString('base64url');

function importSecret(secret: string): KeyObject {
  if (secret.length < SERVICE_TOKEN_MIN_SECRET_LENGTH) {
    throw new Error(`a service token secret needs at least ${SERVICE_TOKEN_MIN_SECRET_LENGTH} characters`);
  }
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

const mac = (key: KeyObject, signingInput: string) =>
  createHmac('sha256', key).update(signingInput).digest('base64url');

/** A base64url segment's JSON object; undefined when it is anything else. */
function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Signs and verifies service tokens with one shared secret (and, while rotating, the previous one,
 * accepted for verification only). The keys are imported once.
 *
 * Compact JWS with HS256 (RFC 7515/7519), made and checked with node:crypto's HMAC directly: every
 * call through the gateway is signed once and verified once, and a synchronous HMAC of a few hundred
 * bytes costs a few µs where WebCrypto's asynchronous one (jose) cost tens of µs of both processes'
 * CPU per call (bench/README.md, "Cost per answer"). The checks are jose's jwtVerify's for these
 * options: alg HS256 only (no `none`, no `crit`), the audience, iss/iat/exp present, exp and nbf
 * with 5 s of tolerance, and tokens signed by anyone else still interoperate both ways.
 */
export class ServiceTokens {
  private readonly current: KeyObject | Error;
  private readonly previous?: KeyObject | Error;

  constructor(
    secret: string,
    private readonly options: { issuer: string; previousSecret?: string; ttlSeconds?: number },
  ) {
    // A bad secret is reported when the tokens are used (as the services' config check reports it first).
    this.current = keyOrError(secret);
    if (options.previousSecret) this.previous = keyOrError(options.previousSecret);
  }

  /** A token for one call to `audience` (a service name). */
  async sign(audience: string, claims: ServiceTokenClaims = {}): Promise<string> {
    return this.signNow(audience, claims);
  }

  /** sign() without the promise, for a caller on a hot path. */
  signNow(audience: string, claims: ServiceTokenClaims = {}): string {
    const key = usable(this.current);
    const iat = Math.floor(Date.now() / 1000);
    const payload: Record<string, string | number> = {};
    if (claims.caller) {
      payload.role = claims.caller.role;
      payload.tid = claims.caller.tenantId;
      payload.sid = claims.caller.sessionId;
    }
    if (claims.clientAddress) payload.addr = claims.clientAddress;
    if (claims.requestId) payload.rid = claims.requestId;
    payload.iss = this.options.issuer;
    payload.aud = audience;
    payload.iat = iat;
    payload.exp = iat + (this.options.ttlSeconds ?? 60);
    if (claims.caller) payload.sub = claims.caller.userId;
    const signingInput = `${HEADER_SEGMENT}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${signingInput}.${mac(key, signingInput)}`;
  }

  /** The headers of one call to `audience`. */
  async headers(audience: string, claims: ServiceTokenClaims = {}): Promise<Record<string, string>> {
    return { [SERVICE_TOKEN_HEADER]: this.signNow(audience, claims) };
  }

  /** The claims of a valid token for `audience`; undefined when invalid, expired or for another service. */
  async verify(token: string, audience: string): Promise<PeerClaims | undefined> {
    return this.verifyNow(token, audience);
  }

  /** verify() without the promise. */
  verifyNow(token: string, audience: string): PeerClaims | undefined {
    const claims = verifyWith(usable(this.current), token, audience);
    if (claims !== undefined || !this.previous) return claims;
    return verifyWith(usable(this.previous), token, audience);
  }
}

function keyOrError(secret: string): KeyObject | Error {
  try {
    return importSecret(secret);
  } catch (err) {
    return err as Error;
  }
}

function usable(key: KeyObject | Error): KeyObject {
  if (key instanceof Error) throw key;
  return key;
}

function verifyWith(key: KeyObject, token: string, audience: string): PeerClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerSegment, payloadSegment, signature] = parts as [string, string, string];
  // Ours (every token the gateway and the services sign) is one constant segment: not decoded again per call.
  const header = headerSegment === HEADER_SEGMENT ? OUR_HEADER : decodeSegment(headerSegment);
  // Only HS256; a `crit` extension is not one we understand, so the token is refused (RFC 7515 §4.1.11).
  if (!header || header.alg !== ALG || 'crit' in header) return undefined;
  const expected = Buffer.from(mac(key, `${headerSegment}.${payloadSegment}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const payload = decodeSegment(payloadSegment);
  if (!payload) return undefined;
  const { iss, aud, iat, exp, nbf } = payload;
  if (typeof iss !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  if (!(aud === audience || (Array.isArray(aud) && aud.includes(audience)))) return undefined;
  const now = Math.floor(Date.now() / 1000);
  if (exp <= now - CLOCK_TOLERANCE_SECONDS) return undefined;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + CLOCK_TOLERANCE_SECONDS)) return undefined;
  // A token living longer than any we sign is not ours.
  if (exp - iat > 600) return undefined;
  const claims: PeerClaims = { issuer: iss };
  if (payload.sub !== undefined) {
    const { sub, role, tid, sid } = payload;
    if (typeof sub !== 'string' || !UUID.test(sub) || typeof tid !== 'string' || !UUID.test(tid)) return undefined;
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
}

const verified = new WeakMap<Request, PeerClaims>();

/**
 * Refuses, with 401 {code:'unauthenticated_peer'}, every request without a valid service token
 * for `audience`, except the open paths (probes, OpenAPI document, JWKS); keeps the token's claims
 * for readCaller and clientAddress.
 */
export function peerAuthentication(tokens: ServiceTokens, audience: string): RequestHandler {
  return (req, res, next) => {
    const path = req.path.toLowerCase().replace(/\/+$/, '');
    if ((req.method === 'GET' || req.method === 'HEAD') && OPEN_PATHS.has(path)) return next();
    const token = req.header(SERVICE_TOKEN_HEADER);
    const claims = token ? tokens.verifyNow(token, audience) : undefined;
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
