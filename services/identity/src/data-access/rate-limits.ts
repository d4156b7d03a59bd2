// Rate limit counters in this service's own table (rate_limits), shared by all replicas.
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
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (res) {
        if (res instanceof RateLimiterRes)
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
        throw res;
      }
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}

/** Deletes counters whose window ended over an hour ago. */
export async function deleteExpiredRateLimits(pool: pg.Pool): Promise<void> {
  await pool.query('delete from rate_limits where expire < $1', [Date.now() - 3_600_000]);
}
