// Rate limit counters in this service's own table (rate_limits), shared by all replicas.
import { createHash } from 'node:crypto';
import { deleteInBatches, sqlExecutor } from '@checkpoint/events';
import type pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Limiter } from '../domain/ports.ts';

export function postgresLimiter(
  pool: pg.Pool,
  options: { schema: string; keyPrefix: string; points: number; durationSeconds: number },
): Limiter {
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    schemaName: options.schema,
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
  });
  // The key column is varchar(255): a long key (an email may have 254 characters) is hashed.
  const stored = (key: string) =>
    key.length <= 128 ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
  return {
    async consume(key) {
      try {
        const res = await limiter.consume(stored(key));
        return { allowed: true, consumed: res.consumedPoints };
      } catch (res) {
        if (res instanceof RateLimiterRes)
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
        throw res;
      }
    },
    async refund(key) {
      await limiter.reward(stored(key), 1);
    },
  };
}

/** Deletes counters whose window ended over an hour ago. */
export async function deleteExpiredRateLimits(pool: pg.Pool, options: { running?: () => boolean } = {}): Promise<void> {
  await deleteInBatches(sqlExecutor(pool), 'rate_limits', 'expire < $1', [Date.now() - 3_600_000], options);
}
