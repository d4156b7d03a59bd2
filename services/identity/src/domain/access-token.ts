// Access tokens: RS256 JWTs the gateway verifies with the JWKS this service publishes.
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { UserRole } from './user.ts';

export const ACCESS_TOKEN_ALG = 'RS256';
/** `iss` of every access token. */
export const ACCESS_TOKEN_ISSUER = 'checkpoint-identity';
/** `aud` of every access token. */
export const ACCESS_TOKEN_AUDIENCE = 'checkpoint';

export interface AccessClaims {
  userId: string;
  role: UserRole;
  tenantId: string;
  /** Session family id. */
  sessionId: string;
  csrf: string;
}

export interface KeyMaterial {
  kid: string;
  algorithm: string;
  privateJwk: Record<string, unknown>;
  publicJwk: Record<string, unknown>;
}

export async function generateSigningKey(): Promise<KeyMaterial> {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    algorithm: ACCESS_TOKEN_ALG,
    privateJwk: { ...privateJwk, kid, alg: ACCESS_TOKEN_ALG },
    publicJwk: { ...publicJwk, kid, alg: ACCESS_TOKEN_ALG, use: 'sig' },
  };
}

/** Signs access tokens with one key; verifies with any published key. */
export class AccessTokenSigner {
  private constructor(
    private readonly kid: string,
    private readonly privateKey: CryptoKey,
    readonly ttlSeconds: number,
  ) {}

  static async create(key: KeyMaterial, ttlSeconds: number): Promise<AccessTokenSigner> {
    const privateKey = (await importJWK(key.privateJwk as JWK, ACCESS_TOKEN_ALG)) as CryptoKey;
    return new AccessTokenSigner(key.kid, privateKey, ttlSeconds);
  }

  async sign(claims: AccessClaims, now = new Date()): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ role: claims.role, tid: claims.tenantId, sid: claims.sessionId, csrf: claims.csrf })
      .setProtectedHeader({ alg: ACCESS_TOKEN_ALG, kid: this.kid, typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.ttlSeconds)
      .sign(this.privateKey);
  }
}

/** Verifies an access token against a list of public JWKs; undefined when invalid or expired. */
export async function verifyAccessToken(
  token: string,
  publicJwks: Record<string, unknown>[],
): Promise<AccessClaims | undefined> {
  try {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const jwk = publicJwks.find((k) => k.kid === header.kid);
        if (!jwk) throw new Error('unknown kid');
        return importJWK(jwk as JWK, ACCESS_TOKEN_ALG);
      },
      { issuer: ACCESS_TOKEN_ISSUER, audience: ACCESS_TOKEN_AUDIENCE, algorithms: [ACCESS_TOKEN_ALG] },
    );
    return readClaims(payload);
  } catch {
    return undefined;
  }
}

function readClaims(payload: JWTPayload): AccessClaims | undefined {
  const { sub, role, tid, sid, csrf } = payload as JWTPayload & Record<string, unknown>;
  if (
    typeof sub !== 'string' ||
    typeof role !== 'string' ||
    typeof tid !== 'string' ||
    typeof sid !== 'string' ||
    typeof csrf !== 'string'
  ) {
    return undefined;
  }
  return { userId: sub, role: role as UserRole, tenantId: tid, sessionId: sid, csrf };
}
