// A database that cannot be reached is an outage, not a bug: 503 `unavailable` with Retry-After
// (the client retries; saves are idempotent), logged at warn. Real driver errors: a pg pool aimed
// at a port nothing listens on.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  ApiRouter,
  closeServer,
  createLogger,
  createServiceApp,
  isDatabaseUnavailable,
  listen,
  ServiceTokens,
} from '../src/index.ts';

const tokens = new ServiceTokens('a-test-secret-of-at-least-32-characters', { issuer: 'gateway' });

/** A port that was free a moment ago: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let pool: pg.Pool;
let base = '';
let server: Awaited<ReturnType<typeof listen>>['server'];
const logged: { level: number; msg: string }[] = [];

beforeAll(async () => {
  pool = new pg.Pool({ host: '127.0.0.1', port: await closedPort(), user: 'nobody', connectionTimeoutMillis: 2_000 });
  const router = new ApiRouter()
    .add({ method: 'get', path: '/api/rows', summary: 'Rows', access: 'public' }, async () => {
      const { rows } = await pool.query('select 1 as one');
      return rows;
    })
    .add({ method: 'get', path: '/api/bug', summary: 'A bug', access: 'public' }, () => {
      throw new TypeError('undefined is not a function');
    });
  const destination = {
    write(line: string) {
      logged.push(JSON.parse(line) as { level: number; msg: string });
    },
  };
  const app = createServiceApp({
    name: 'test',
    logger: createLogger('test', 'info', destination),
    routers: [router],
    ready: async () => true,
    tokens,
  });
  ({ server } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeServer(server, 1000);
  await pool.end();
});

const get = async (path: string) => fetch(base + path, { headers: await tokens.headers('test') });

describe('database outage', () => {
  it('when the database refuses connections, then the call answers 503 unavailable with Retry-After, logged below error', async () => {
    logged.length = 0;
    const res = await get('/api/rows');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      message: 'The database is unavailable. Please try again shortly.',
      code: 'unavailable',
    });
    expect(logged.some((l) => l.level === 40)).toBe(true);
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('when a handler has a bug, then it is still 500 internal, logged as an error', async () => {
    logged.length = 0;
    const res = await get('/api/bug');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: string }).code).toBe('internal');
    expect(logged.some((l) => l.level >= 50)).toBe(true);
  });

  it('recognises a restart, a shutdown and a wrapped driver error, and not an ordinary SQL error', () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('x'), { code: '08006' }) })),
    ).toBe(true);
    // Prisma 7, a raw query through the pg driver adapter while the server is unreachable.
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('Raw query failed. Code: `N/A`.'), {
          code: 'P2010',
          meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'DatabaseNotReachable' } } },
        }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('Raw query failed.'), {
          code: 'P2010',
          meta: { driverAdapterError: { cause: { kind: 'UniqueConstraintViolation' } } },
        }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    // A pool too busy to start an interactive transaction in time, and not any other transaction error.
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), {
          code: 'P2028',
        }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('Transaction API error: Transaction already closed'), { code: 'P2028' }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
