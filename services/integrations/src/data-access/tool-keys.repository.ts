// The tool's RS256 key pairs, shared by all replicas: the first replica to start creates one (as
// identity's signing_keys). SQL only.
import { inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';

export interface ToolKey {
  kid: string;
  algorithm: string;
  privateJwk: Record<string, unknown>;
  publicJwk: Record<string, unknown>;
}

const COLUMNS = 'kid, algorithm, private_jwk as "privateJwk", public_jwk as "publicJwk"';

export function toolKeysRepository(pool: pg.Pool) {
  return {
    /**
     * The newest active key, created with `generate` when there is none. An advisory lock makes
     * concurrent first starts agree on one key; the key is generated before the transaction.
     */
    async ensureActive(generate: () => Promise<ToolKey>): Promise<ToolKey> {
      const newest = `select ${COLUMNS} from tool_keys where retired_at is null order by created_at desc limit 1`;
      const current = await pool.query<ToolKey>(newest);
      if (current.rows[0]) return current.rows[0];
      const key = await generate();
      return inTransaction(pool, async (client) => {
        await client.query("select pg_advisory_xact_lock(hashtext('integrations:tool-keys'))");
        const existing = await client.query<ToolKey>(newest);
        if (existing.rows[0]) return existing.rows[0];
        await client.query(
          'insert into tool_keys (kid, algorithm, private_jwk, public_jwk) values ($1, $2, $3::jsonb, $4::jsonb)',
          [key.kid, key.algorithm, JSON.stringify(key.privateJwk), JSON.stringify(key.publicJwk)],
        );
        return key;
      });
    },

    /** Public keys that may still be needed: active ones and ones retired after `since`. */
    async publishable(since: Date): Promise<Record<string, unknown>[]> {
      const { rows } = await pool.query<{ publicJwk: Record<string, unknown> }>(
        `select public_jwk as "publicJwk" from tool_keys
          where retired_at is null or retired_at > $1 order by created_at desc`,
        [since],
      );
      return rows.map((r) => r.publicJwk);
    },
  };
}

export type ToolKeysRepository = ReturnType<typeof toolKeysRepository>;
