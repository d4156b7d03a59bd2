// A platform's public keys (its JWKS URL), fetched under the egress rules and cached per URL by
// jose's remote key set: keys are reused for 10 minutes, and an id_token whose `kid` is unknown
// makes it read the set again (at most every 30 s), which is how a platform's key rotation is
// followed.
import { fetchOutbound } from '@checkpoint/service-kit';
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';

export type PlatformKeys = (jwksUrl: string) => JWTVerifyGetKey;

export function platformKeys(options: { allowLoopback: boolean; timeoutMs: number }): PlatformKeys {
  const sets = new Map<string, JWTVerifyGetKey>();
  return (jwksUrl) => {
    let set = sets.get(jwksUrl);
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUrl), {
        timeoutDuration: options.timeoutMs,
        cooldownDuration: 30_000,
        cacheMaxAge: 600_000,
        [customFetch]: async (url) => {
          const body = await fetchOutbound(url, {
            field: 'jwksUrl',
            allowLoopback: options.allowLoopback,
            maxBytes: 256 * 1024,
            timeoutMs: options.timeoutMs,
            accept: 'application/json',
          });
          return new Response(new Uint8Array(body), { status: 200, headers: { 'content-type': 'application/json' } });
        },
      });
      // A bounded cache: registrations are few; an old URL is dropped first.
      if (sets.size >= 500) sets.delete(sets.keys().next().value!);
      sets.set(jwksUrl, set);
    }
    return set;
  };
}
