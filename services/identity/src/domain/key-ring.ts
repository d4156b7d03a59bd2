// The signing key in use and the public keys to publish, backed by the signing_keys table.
import type { signingKeysRepository } from '../data-access/signing-keys.repository.ts';
import { AccessTokenSigner, generateSigningKey } from './access-token.ts';

type KeysRepository = ReturnType<typeof signingKeysRepository>;

export interface KeyRing {
  signer: AccessTokenSigner;
  /** Public keys as a JWK Set; cached for a minute. */
  jwks(): Promise<{ keys: Record<string, unknown>[] }>;
}

export async function loadKeyRing(keys: KeysRepository, ttlSeconds: number): Promise<KeyRing> {
  const active = await keys.ensureActive(generateSigningKey);
  const signer = await AccessTokenSigner.create(active, ttlSeconds);
  let cached: { at: number; value: { keys: Record<string, unknown>[] } } | undefined;
  return {
    signer,
    async jwks() {
      const now = Date.now();
      if (!cached || now - cached.at > 60_000) {
        // A retired key stays published until the last token it signed has expired.
        const rows = await keys.listVerifiable(new Date(now - ttlSeconds * 1000 - 60_000));
        cached = { at: now, value: { keys: rows.map((r) => r.publicJwk) } };
      }
      return cached.value;
    },
  };
}
