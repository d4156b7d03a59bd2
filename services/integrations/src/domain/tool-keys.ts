// The tool's key pair (LTI 1.3: the platform verifies the tool's signed messages with the tool's
// JWKS, GET /api/lti/jwks). Kept as identity keeps its session signing keys: in the service's
// schema, the newest active key signs, a retired one stays published for a day so that what it
// signed can still be verified (rotation: insert a new key, set retired_at on the old one).
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import type { ToolKey, ToolKeysRepository } from '../data-access/tool-keys.repository.ts';

export const TOOL_KEY_ALG = 'RS256';
/** How long a retired key stays in the JWKS. */
const RETIRED_PUBLISHED_MS = 24 * 3_600_000;

export async function generateToolKey(): Promise<ToolKey> {
  const { privateKey, publicKey } = await generateKeyPair(TOOL_KEY_ALG, { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    algorithm: TOOL_KEY_ALG,
    privateJwk: { ...privateJwk, kid, alg: TOOL_KEY_ALG },
    publicJwk: { ...publicJwk, kid, alg: TOOL_KEY_ALG, use: 'sig' },
  };
}

export interface ToolKeyRing {
  /** The public keys as a JWK Set; cached for a minute. */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
  /** The key the tool signs with (the newest active one), created when there is none. */
  signingKey(): Promise<ToolKey>;
}

export function toolKeyRing(keys: ToolKeysRepository, now: () => number = Date.now): ToolKeyRing {
  let cached: { at: number; value: { keys: Record<string, unknown>[] } } | undefined;
  let ensured: Promise<unknown> | undefined;
  return {
    async jwks() {
      ensured ??= keys.ensureActive(generateToolKey).catch((err: unknown) => {
        ensured = undefined;
        throw err;
      });
      await ensured;
      const t = now();
      if (!cached || t - cached.at > 60_000) {
        cached = { at: t, value: { keys: await keys.publishable(new Date(t - RETIRED_PUBLISHED_MS)) } };
      }
      return cached.value;
    },
    // Read each time (one indexed row): a rotation is followed at once by every replica.
    async signingKey() {
      const current = await keys.ensureActive(generateToolKey);
      // This replica's JWKS must publish what the tool signs with: a cached set without it is read again.
      if (cached && !cached.value.keys.some((k) => k.kid === current.kid)) cached = undefined;
      return current;
    },
  };
}
