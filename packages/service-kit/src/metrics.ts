// Prometheus metrics of a process, served on a port of their own (METRICS_PORT, default 9464,
// path /metrics) so that the gateway and the Ingress never expose them. prom-client is loaded only
// when that server starts (tests and tools that never serve metrics do not pay its ~13 MB); until
// then every hook below is a no-op. One registry per process: in the all-in-one the five services
// and the gateway share it, and every series carries a `service` label saying whose it is.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type pg from 'pg';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventBacklog } from '@checkpoint/events';
import { z } from 'zod';
import { envPort, parseConfig } from './config.ts';
import type { Logger } from './logger.ts';
import { isEventStream } from './request-log.ts';

export const DEFAULT_METRICS_PORT = 9464;

const metricsConfigSchema = z.object({
  METRICS_PORT: envPort(DEFAULT_METRICS_PORT),
  /** Interface of the metrics server: HOST (0.0.0.0 in containers) unless set. */
  METRICS_HOST: z.string().min(1).optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
});

/** One service's sources of scrape-time figures (see registerService). */
interface ServiceSource {
  pool: pg.Pool;
  poolMax: number;
  busReady: () => boolean;
  eventBacklog?: (timeoutMs: number) => Promise<EventBacklog>;
}

interface Instruments {
  registry: Registry;
  httpDuration: Histogram<'service' | 'method' | 'route' | 'status_code'>;
  published: Counter<'service'>;
  publishFailures: Counter<'service'>;
  deadLettered: Counter<'service' | 'group' | 'topic'>;
  readinessChanges: Counter<'service'>;
  ready: Gauge<'service'>;
}

const sources = new Map<string, ServiceSource>();
let instruments: Instruments | undefined;
let loading: Promise<Instruments> | undefined;

/** A scrape waits this long at most for a figure read from Postgres or Kafka. */
const SCRAPE_QUERY_TIMEOUT_MS = 2_000;
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

async function load(): Promise<Instruments> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], collect: (g: Gauge<L>) => unknown) =>
    new prom.Gauge<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        this.reset();
        await collect(this);
      },
    });

  gauge('checkpoint_db_pool_connections', 'Pooled Postgres connections by state', ['service', 'state'], (g) => {
    for (const [service, s] of sources) {
      g.set({ service, state: 'idle' }, s.pool.idleCount);
      g.set({ service, state: 'busy' }, s.pool.totalCount - s.pool.idleCount);
    }
  });
  gauge('checkpoint_db_pool_max_connections', 'Size limit of the pool (DATABASE_POOL_SIZE)', ['service'], (g) => {
    for (const [service, s] of sources) g.set({ service }, s.poolMax);
  });
  gauge('checkpoint_db_pool_waiting_requests', 'Queries waiting for a pooled connection', ['service'], (g) => {
    for (const [service, s] of sources) g.set({ service }, s.pool.waitingCount);
  });
  gauge(
    'checkpoint_event_bus_ready',
    '1 while the producer works and every consumer group is joined (not part of /readyz)',
    ['service'],
    (g) => {
      for (const [service, s] of sources) g.set({ service }, s.busReady() ? 1 : 0);
    },
  );

  // The outbox figures come from one indexed query per service and scrape (outbox_unpublished_idx),
  // shared by the two gauges (a registry collects its metrics concurrently).
  const readOutbox = once(async () => {
    const outboxRows = new Map<string, { unpublished: number; age: number }>();
    await Promise.all(
      [...sources].map(async ([service, s]) => {
        const row = await bounded(
          s.pool.query<{ n: number; age: number | null }>(
            `select count(*)::int as n, coalesce(extract(epoch from clock_timestamp() - min(created_at)), 0)::float8 as age
               from outbox where published_at is null`,
          ),
        ).catch(() => undefined);
        if (row?.rows[0]) outboxRows.set(service, { unpublished: row.rows[0].n, age: row.rows[0].age ?? 0 });
      }),
    );
    return outboxRows;
  });
  gauge(
    'checkpoint_outbox_unpublished_events',
    'Events written to the outbox and not yet acknowledged by the bus (absent while Postgres is unreachable)',
    ['service'],
    async (g) => {
      for (const [service, o] of await readOutbox()) g.set({ service }, o.unpublished);
    },
  );
  gauge(
    'checkpoint_outbox_oldest_unpublished_age_seconds',
    'Age of the oldest unpublished outbox event (0 when none)',
    ['service'],
    async (g) => {
      for (const [service, o] of await readOutbox()) g.set({ service }, o.age);
    },
  );

  const readBacklogs = once(async () => {
    const backlogs = new Map<string, EventBacklog>();
    await Promise.all(
      [...sources].map(async ([service, s]) => {
        const backlog = await s.eventBacklog?.(SCRAPE_QUERY_TIMEOUT_MS).catch(() => undefined);
        if (backlog) backlogs.set(service, backlog);
      }),
    );
    return backlogs;
  });
  gauge(
    'checkpoint_kafka_consumer_lag',
    'Messages of a partition not yet committed by the consumer group (latest offset - committed offset)',
    ['service', 'group', 'topic', 'partition'],
    async (g) => {
      for (const [service, b] of await readBacklogs())
        for (const l of b.lag)
          g.set({ service, group: l.groupId, topic: l.topic, partition: String(l.partition) }, l.lag);
    },
  );
  gauge(
    'checkpoint_kafka_dead_letter_messages',
    'Messages kept in the dead-letter topic of a topic this service consumes',
    ['service', 'topic'],
    async (g) => {
      for (const [service, b] of await readBacklogs())
        for (const d of b.deadLetters) g.set({ service, topic: d.topic }, d.messages);
    },
  );

  return {
    registry,
    httpDuration: new prom.Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'HTTP requests answered, by route template and status (probes excluded)',
      labelNames: ['service', 'method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
    published: new prom.Counter({
      name: 'checkpoint_outbox_published_events_total',
      help: 'Outbox events the bus acknowledged',
      labelNames: ['service'],
      registers: [registry],
    }),
    publishFailures: new prom.Counter({
      name: 'checkpoint_outbox_publish_failures_total',
      help: 'Outbox batches the bus refused or did not acknowledge in time (retried)',
      labelNames: ['service'],
      registers: [registry],
    }),
    deadLettered: new prom.Counter({
      name: 'checkpoint_events_dead_lettered_total',
      help: 'Events set aside after every handler attempt failed, by consumer group and topic',
      labelNames: ['service', 'group', 'topic'],
      registers: [registry],
    }),
    readinessChanges: new prom.Counter({
      name: 'checkpoint_readiness_changes_total',
      help: 'Times /readyz changed its answer (ready <-> not ready)',
      labelNames: ['service'],
      registers: [registry],
    }),
    ready: new prom.Gauge({
      name: 'checkpoint_ready',
      help: 'The last /readyz answer: 1 ready, 0 not ready',
      labelNames: ['service'],
      registers: [registry],
    }),
  };
}

/**
 * One read shared by every gauge of a scrape: a call while one is running, or within a second of
 * its end, gets its result.
 */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > 1_000) {
      const result = read();
      last = { at: Infinity, result };
      const entry = last;
      void result.finally(() => (entry.at = Date.now())).catch(() => {});
    }
    return last.result;
  };
}

function bounded<T>(promise: Promise<T>, ms = SCRAPE_QUERY_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Loads prom-client and the instruments (once per process); the hooks record from then on. */
export async function enableMetrics(): Promise<Registry> {
  loading ??= load().then((loaded) => (instruments = loaded));
  return (await loading).registry;
}

export interface MetricsServer {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/**
 * Serves GET /metrics on METRICS_PORT (default 9464; 0 = any free port) at METRICS_HOST or HOST.
 * A port already taken (several processes on one machine, e.g. stack mode) is logged and the
 * process goes on without metrics: they are never a reason not to serve requests.
 */
export async function startMetricsServer(options: {
  env?: Record<string, string | undefined>;
  logger: Logger;
}): Promise<MetricsServer | undefined> {
  const config = parseConfig(metricsConfigSchema, options.env ?? process.env);
  const registry = await enableMetrics();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        options.logger.warn({ err }, 'metrics: collecting failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('collecting metrics failed\n');
      },
    );
  });
  const host = config.METRICS_HOST ?? config.HOST;
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      options.logger.warn(
        { err: err.message, port: config.METRICS_PORT },
        `METRICS_PORT ${config.METRICS_PORT} cannot be bound on ${host}: serving no metrics`,
      );
      resolve(false);
    });
    server.listen(config.METRICS_PORT, host, () => resolve(true));
  });
  if (!bound) return undefined;
  // Never keeps the process alive on its own, and never holds up a graceful stop.
  server.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.METRICS_PORT;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`;
  options.logger.info({ url }, 'metrics served');
  return {
    url,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Registers a service's pool and bus, read at each scrape; returns the function that forgets them
 * (at stop). Cheap and safe to call when metrics are not enabled.
 */
export function registerService(
  service: string,
  source: Omit<ServiceSource, 'poolMax'> & { poolMax?: number },
): () => void {
  const entry: ServiceSource = { ...source, poolMax: source.poolMax ?? source.pool.options.max ?? 10 };
  sources.set(service, entry);
  return () => {
    if (sources.get(service) === entry) sources.delete(service);
  };
}

/** Hooks of the outbox relay (OutboxRelayOptions.metrics) counting into this process's registry. */
export function relayMetrics(service: string): { published(count: number): void; failed(): void } {
  return {
    published: (count) => instruments?.published.inc({ service }, count),
    failed: () => instruments?.publishFailures.inc({ service }),
  };
}

/** Counts a dead-lettered event (KafkaBus / InProcessBus `onDeadLetter`). */
export function countDeadLetter(service: string, groupId: string, topic: string): void {
  instruments?.deadLettered.inc({ service, group: groupId, topic });
}

/** Records a /readyz answer: the gauge, and a change counter that the flapping alert watches. */
function recordReadiness(service: string, ready: boolean): void {
  if (!instruments) return;
  const before = lastReadiness.get(service);
  lastReadiness.set(service, ready);
  instruments.ready.set({ service }, ready ? 1 : 0);
  if (before !== undefined && before !== ready) instruments.readinessChanges.inc({ service });
}
const lastReadiness = new Map<string, boolean>();

/**
 * The /readyz handler: `ready()` answered 200, or 503 with Retry-After (an error counts as not
 * ready); every answer recorded (recordReadiness).
 */
export function readinessProbe(service: string, ready: () => Promise<boolean>) {
  return async (_req: Request, res: Response): Promise<void> => {
    const ok = await ready().catch(() => false);
    recordReadiness(service, ok);
    if (!ok) res.setHeader('Retry-After', '5');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready' });
  };
}

// Kept on the response for the 'finish' listener (one shared function, no closure per request).
// A response can pass through two apps of one process (the all-in-one's gateway hands the call to
// the service's app, gateway/src/handoff.ts): each adds its own observation, with its own request.
const OBSERVATIONS = Symbol('metricsObservations');
interface Observation {
  req: IncomingMessage;
  started: number;
  route: (req: IncomingMessage) => string;
  service: string;
}
type Timed = ServerResponse & { [OBSERVATIONS]?: Observation[] };

/** The route label of a service request: the Express route template that answered it. */
export function expressRoute(req: IncomingMessage): string {
  const { route, baseUrl } = req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };
  if (!route || route.path === undefined) return 'unmatched';
  return `${baseUrl ?? ''}${String(route.path)}`;
}

/**
 * Express middleware: one histogram observation per answered request (its count is the request
 * rate, its 5xx share the error ratio), event streams left out. `route` names the request by
 * template, never by its raw path (unbounded label values). Per request: a timestamp and one
 * 'finish' listener, no closure.
 */
export function httpMetrics(service: string, route: (req: IncomingMessage) => string = expressRoute) {
  return (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void => {
    if (instruments) {
      const timed = res as unknown as Timed;
      const observation: Observation = { req, started: performance.now(), route, service };
      const observations = timed[OBSERVATIONS];
      if (observations) observations.push(observation);
      else {
        timed[OBSERVATIONS] = [observation];
        res.once('finish', observe);
      }
    }
    next();
  };
}

function observe(this: Timed): void {
  if (!instruments) return;
  // An event stream (the live dashboard) lasts as long as its page is open: its duration would read
  // as a slow request to the latency alert. It is not observed.
  if (isEventStream(this)) return;
  const now = performance.now();
  for (const { req, started, route, service } of this[OBSERVATIONS] ?? []) {
    const method = req.method && METHODS.has(req.method) ? req.method : 'OTHER';
    instruments.httpDuration.observe(
      { service, method, route: route(req), status_code: this.statusCode },
      (now - started) / 1000,
    );
  }
}
