// RS256 signing keys shared by all replicas: the first replica to start creates one.
import type { Prisma } from '../generated/prisma/client.ts';
import type { Db } from './prisma.ts';

export interface StoredKey {
  kid: string;
  algorithm: string;
  privateJwk: Record<string, unknown>;
  publicJwk: Record<string, unknown>;
  createdAt: Date;
  retiredAt: Date | null;
}

export function signingKeysRepository(db: Db) {
  return {
    /**
     * Returns the newest active key, creating one with `generate` when there is none. An advisory
     * lock makes concurrent first starts agree on one key. The key is generated before the
     * transaction: on a busy machine RSA key generation alone can outlast its 5 s timeout.
     */
    async ensureActive(generate: () => Promise<Omit<StoredKey, 'createdAt' | 'retiredAt'>>): Promise<StoredKey> {
      const newest = { where: { retiredAt: null }, orderBy: { createdAt: 'desc' } } as const;
      const current = await db.signingKey.findFirst(newest);
      if (current) return current as StoredKey;
      const key = await generate();
      return db.$transaction(async (tx) => {
        await tx.$queryRaw`select 1 as locked from (select pg_advisory_xact_lock(hashtext('identity:signing-keys'))) as l`;
        const existing = await tx.signingKey.findFirst(newest);
        if (existing) return existing as StoredKey;
        const created = await tx.signingKey.create({
          data: {
            ...key,
            privateJwk: key.privateJwk as Prisma.InputJsonObject,
            publicJwk: key.publicJwk as Prisma.InputJsonObject,
          },
        });
        return created as StoredKey;
      });
    },

    /** Keys whose tokens may still be presented: active ones and ones retired after `since`. */
    async listVerifiable(since: Date): Promise<StoredKey[]> {
      const rows = await db.signingKey.findMany({
        where: { OR: [{ retiredAt: null }, { retiredAt: { gt: since } }] },
        orderBy: { createdAt: 'desc' },
      });
      return rows as StoredKey[];
    },
  };
}
