// The metrics server and the hooks behind it (docs/telemetry.md): /metrics on its own port, HTTP
// requests labelled by route template (never the raw path), probes not counted, readiness
// recorded with its changes, a pool's use read at scrape time, readiness = Postgres answers.
import net, { type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import {
  ApiRouter,
  closeServer,
  createLogger,
  createPool,
  createServiceApp,
  databaseReachable,
  listen,
  registerService,
  ServiceTokens,
  startMetricsServer,
  type MetricsServer,
} from '../src/index.ts';

const tokens = new ServiceTokens('a-test-secret-of-at-least-32-characters', { issuer: 'gateway' });
const logger = createLogger('metrics-test', 'silent');

let postgres: PostgresHandle;
let metrics: MetricsServer;
let pool: pg.Pool;
let base = '';
let server: Awaited<ReturnType<typeof listen>>['server'];
let ready = true;
let forget: () => void;

beforeAll(async () => {
  postgres = await startPostgres();
  metrics = (await startMetricsServer({ env: { METRICS_PORT: '0' }, logger }))!;
  pool = createPool({ url: postgres.url, schema: 'public', max: 3 });
  await pool.query('create table if not exists outbox (created_at timestamptz not null, published_at timestamptz)');
  await pool.query("insert into outbox values (now() - interval '42 seconds', null), (now(), null), (now(), now())");
  forget = registerService('metrics_test', { pool, busReady: () => false });
  const router = new ApiRouter()
    .add({ method: 'get', path: '/api/things/:id', summary: 'A thing', access: 'public' }, ({ params }) => ({
      id: (params as { id: string }).id,
    }))
    .add({ method: 'get', path: '/api/stream', summary: 'An event stream', access: 'public' }, ({ res }) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: {}\n\n');
      setTimeout(() => res.end(), 50);
    });
  const app = createServiceApp({ name: 'metrics_test', logger, routers: [router], ready: async () => ready, tokens });
  ({ server } = await listen(app, 0, '127.0.0.1'));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  forget?.();
  await closeServer(server, 1000);
  await metrics?.stop();
  await pool?.end();
  await postgres?.stop();
});

const scrape = async () => (await fetch(metrics.url)).text();

describe('metrics', () => {
  it('when METRICS_PORT is not a port, then starting fails naming the variable', async () => {
    await expect(startMetricsServer({ env: { METRICS_PORT: 'ninety' }, logger })).rejects.toThrow(/METRICS_PORT/);
  });

  it('when requests are answered, then each is counted once under its route template and status, probes not at all', async () => {
    const headers = await tokens.headers('metrics_test');
    for (const id of ['a1', 'b2', 'c3'])
      expect((await fetch(`${base}/api/things/${id}`, { headers })).status).toBe(200);
    expect((await fetch(`${base}/api/nothing`, { headers })).status).toBe(404);
    await fetch(`${base}/healthz`);
    await fetch(`${base}/readyz`);
    const text = await scrape();
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{service="metrics_test",method="GET",route="\/api\/things\/:id",status_code="200"\} 3\n/,
    );
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{service="metrics_test",method="GET",route="unmatched",status_code="404"\} 1\n/,
    );
    expect(text).not.toMatch(/route="\/api\/things\/a1"/);
    expect(text).not.toMatch(/route="\/(healthz|readyz)"/);
  });

  it('when an event stream ends (its page closed), then it is not observed: its duration is no request time', async () => {
    const headers = await tokens.headers('metrics_test');
    const stream = await fetch(`${base}/api/stream`, { headers });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.text();
    expect(await scrape()).not.toMatch(/route="\/api\/stream"/);
  });

  it('when /readyz changes its answer, then the gauge follows and the changes are counted; a not-ready answer says when to retry', async () => {
    ready = true;
    await fetch(`${base}/readyz`);
    ready = false;
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('retry-after')).toBe('5');
    ready = true;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const text = await scrape();
    expect(text).toMatch(/checkpoint_ready\{service="metrics_test"\} 1\n/);
    expect(text).toMatch(/checkpoint_readiness_changes_total\{service="metrics_test"\} 2\n/);
  });

  it('when scraped, then the pool use, the outbox backlog with its oldest age, and the bus health are read', async () => {
    const text = await scrape();
    expect(text).toMatch(/checkpoint_db_pool_max_connections\{service="metrics_test"\} 3\n/);
    expect(text).toMatch(/checkpoint_db_pool_connections\{service="metrics_test",state="idle"\} \d\n/);
    expect(text).toMatch(/checkpoint_db_pool_waiting_requests\{service="metrics_test"\} 0\n/);
    expect(text).toMatch(/checkpoint_outbox_unpublished_events\{service="metrics_test"\} 2\n/);
    const age = Number(
      /checkpoint_outbox_oldest_unpublished_age_seconds\{service="metrics_test"\} ([\d.]+)/.exec(text)?.[1],
    );
    expect(age).toBeGreaterThanOrEqual(42);
    expect(age).toBeLessThan(120);
    expect(text).toMatch(/checkpoint_event_bus_ready\{service="metrics_test"\} 0\n/);
    expect((await fetch(metrics.url.replace('/metrics', '/other'))).status).toBe(404);
  });
});

describe('databaseReachable (readiness)', () => {
  it('when Postgres answers, then ready; when nothing listens there, then not ready', async () => {
    expect(await databaseReachable(pool)).toBe(true);
    const down = new pg.Pool({ host: '127.0.0.1', port: 1, user: 'x', connectionTimeoutMillis: 1_000 });
    down.on('error', () => {});
    expect(await databaseReachable(down, 500)).toBe(false);
    await down.end();
  });

  it('when every connection is busy and queries wait, then a slow answer still counts as ready (serving, slowly)', async () => {
    const busy = createPool({ url: postgres.url, schema: 'public', max: 1 });
    await busy.query('select 1');
    const holding = busy.query('select pg_sleep(1.5)');
    const queued = busy.query('select pg_sleep(0.1)');
    expect(await databaseReachable(busy, 300)).toBe(true);
    await Promise.all([holding, queued]);
    await busy.end();
  });

  it('when the queries of a saturated pool end in errors of Postgres (a cancelled statement, a constraint), then it still counts as serving', async () => {
    const busy = createPool({ url: postgres.url, schema: 'public', max: 1, statementTimeoutMs: 5_000 });
    await expect(busy.query('select 1/0')).rejects.toMatchObject({ code: '22012' });
    const holding = busy.query('select pg_sleep(1.5)');
    const queued = busy.query('select 1');
    expect(await databaseReachable(busy, 300)).toBe(true);
    await Promise.all([holding, queued]);
    await busy.end();
  });

  it('when the pool is full of connections that never answer (a partition), then not ready, though queries wait', async () => {
    const link = await freezableLink(new URL(postgres.url));
    const url = new URL(postgres.url);
    url.port = String(link.port);
    const pool = createPool({ url: url.toString(), schema: 'public', max: 2 });
    try {
      // Connections set up and serving, then the network stops carrying anything.
      await Promise.all([pool.query('select 1'), pool.query('select 1')]);
      expect(await databaseReachable(pool, 300, 400)).toBe(true);
      link.freeze();
      const stuck = [1, 2, 3].map(() => pool.query('select 1').catch(() => undefined));
      await new Promise((r) => setTimeout(r, 500));
      expect({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount > 0 }).toEqual({
        total: 2,
        idle: 0,
        waiting: true,
      });
      expect(await databaseReachable(pool, 300, 400)).toBe(false);
      link.close();
      await Promise.all(stuck);
    } finally {
      link.close();
      await pool.end().catch(() => {});
    }
  });

  it('when new connections are accepted but never answered (a host that takes them and hangs), then not ready', async () => {
    const sockets: net.Socket[] = [];
    const blackHole = net.createServer((socket) => sockets.push(socket.on('error', () => {})));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const pool = createPool({
      url: `postgres://nobody:nothing@127.0.0.1:${(blackHole.address() as AddressInfo).port}/db`,
      schema: 'public',
      max: 2,
    });
    try {
      const stuck = [1, 2, 3].map(() => pool.query('select 1').catch(() => undefined));
      expect(await databaseReachable(pool, 300)).toBe(false);
      blackHole.close(); // the queued query's new connection is refused, not left hanging
      sockets.forEach((s) => s.destroy());
      await Promise.all(stuck);
    } finally {
      sockets.forEach((s) => s.destroy());
      blackHole.close();
      await pool.end().catch(() => {});
    }
  });
});

/** A TCP link to `target` that can stop carrying bytes both ways (a partition), and be cut. */
async function freezableLink(target: URL): Promise<{ port: number; freeze: () => void; close: () => void }> {
  const sockets: net.Socket[] = [];
  let frozen = false;
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port), target.hostname);
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.push(from);
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
      from.on('data', (chunk: Buffer) => {
        if (!frozen) to.write(chunk);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => (frozen = true),
    close: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}
