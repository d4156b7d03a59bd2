// One way to run a service, used by its own main.ts (one process per service) and by the
// all-in-one runner (every service in one process): config → database → migrations → app →
// listen → relay and consumers; stop in reverse, bounded in time.
import type { Server } from 'node:http';
import type { Express } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import {
  inboxRetentionIndexSql,
  KafkaBus,
  OutboxRelay,
  outboxSchemaSql,
  type Bus,
  type SubscribeOptions,
} from '@checkpoint/events';
import { ServiceTokens } from './caller.ts';
import { baseConfigSchema, ConfigError, kafkaConnection, parseConfig, type BaseConfig } from './config.ts';
import { createPool, databaseReachable, runMigrations, type SharedMigration } from './database.ts';
import { createServiceApp, type ApiRouter, type LargeBody } from './http.ts';
import { closeServer, listen, onShutdownSignal, SERVICE_MAX_HEADER_BYTES, SHUTDOWN_GRACE_MS } from './lifecycle.ts';
import { createLogger, type Logger } from './logger.ts';
import { countDeadLetter, registerService, relayMetrics, startMetricsServer } from './metrics.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
import { RecentReads, type AwaitRecent } from './read-after-create.ts';
import { startTelemetry, stopTelemetry } from './telemetry.ts';

export interface ServiceContext<C> {
  name: string;
  config: C & BaseConfig;
  logger: Logger;
  /** Pool whose connections have search_path = the service's schema. */
  pool: pg.Pool;
  bus: Bus;
  /** Looks up a class or assessment by id, waiting boundedly when it was created a moment ago (read-after-create.ts). */
  awaitRecent: AwaitRecent;
  /** Signs this service's calls to its peers (issuer: the service's name) and verifies its callers'. */
  tokens: ServiceTokens;
}

export interface ServiceParts {
  routers: ApiRouter[];
  /** Routes whose JSON body has a limit of its own, above the general one (http.ts). */
  largeBodies?: LargeBody[];
  /** Routes outside /api, e.g. /.well-known/jwks.json or /internal/*. */
  extra?: (app: Express) => void;
  subscriptions?: SubscribeOptions[];
  /** Runs after listening (seeding, timers). */
  start?: () => Promise<void>;
  /** Runs when shutdown begins, before the server drains: ends long-lived responses (event streams). */
  draining?: () => void;
  /** Runs after the server drained and consumers stopped, before the pool closes. */
  stop?: () => Promise<void>;
}

export interface ServiceDefinition<S extends z.ZodObject = z.ZodObject> {
  /** Service name: also its Postgres schema and its events' source. */
  name: string;
  /** The service's own variables, merged with the base ones. */
  configSchema: S;
  migrationsDir: string;
  /**
   * Tables a package defines for the services that use it, e.g. @checkpoint/mail's outgoing_mail
   * (mailQueueMigration): applied after the service's own migrations.
   */
  packageMigrations?: SharedMigration[];
  create(ctx: ServiceContext<z.infer<S>>): Promise<ServiceParts> | ServiceParts;
}

export interface RunningService {
  name: string;
  url: string;
  server: Server;
  app: Express;
  openapi: OpenApiDocument;
  /** Whether it can serve requests (its /readyz): its database answers. */
  ready(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /**
   * A shared bus (all-in-one); otherwise Kafka from KAFKA_BROKERS. The caller stops a shared bus
   * (before stopping the services, so that consumers stop first).
   */
  bus?: Bus;
  logger?: Logger;
}

export async function startService<S extends z.ZodObject>(
  def: ServiceDefinition<S>,
  options: StartOptions = {},
): Promise<RunningService> {
  const config = parseConfig(
    baseConfigSchema.extend(def.configSchema.shape),
    options.env ?? process.env,
  ) as z.infer<S> & BaseConfig;
  const logger = options.logger ?? createLogger(def.name, config.LOG_LEVEL);
  const tokens = new ServiceTokens(config.SERVICE_TOKEN_SECRET, {
    issuer: def.name,
    previousSecret: config.SERVICE_TOKEN_SECRET_PREVIOUS,
  });
  await startTelemetry(def.name, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const schema = config.DATABASE_SCHEMA ?? def.name;
  const pool = createPool({
    url: config.DATABASE_URL,
    schema,
    max: config.DATABASE_POOL_SIZE,
    idleTimeoutMs: config.DATABASE_POOL_IDLE_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    applicationName: def.name,
  });
  const ownsBus = !options.bus;
  let bus = options.bus;
  if (!bus) {
    if (!config.KAFKA_BROKERS)
      throw new ConfigError(['KAFKA_BROKERS: required when a service runs on its own (got unset)']);
    // TLS and SASL (KAFKA_TLS*, KAFKA_SASL_*): files read now, a half-given setting refused.
    const { warnings, ...security } = kafkaConnection(config);
    for (const warning of warnings) logger.warn(warning);
    const kafka = new KafkaBus({
      brokers: config.KAFKA_BROKERS.split(','),
      clientId: def.name,
      ...security,
      logger,
      onDeadLetter: (groupId, topic) => countDeadLetter(def.name, groupId, topic),
    });
    // Not awaited, and not fatal: requests succeed while Kafka is down (events wait in the outbox),
    // and a broker that takes connections but never answers must not hold up serving for the
    // client's 30 s. Refused credentials are said as such (they will not get better by waiting).
    void kafka
      .connect()
      .catch((err: unknown) =>
        (err as Error)?.name === 'KafkaJSSASLAuthenticationError'
          ? logger.error({ err }, 'Kafka refused the credentials (KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD)')
          : logger.warn({ err }, 'Kafka not reachable yet'),
      );
    bus = kafka;
  }
  try {
    // Off where a job migrates once per release (the image's `migrate` command, a Helm hook).
    if (config.MIGRATE_ON_START) await migrateService(def, pool, schema, logger);
    // Woken by this process's consumers as they commit (the subscriptions below).
    const recent = new RecentReads({
      windowMs: config.READ_AFTER_CREATE_WINDOW_MS,
      maxWaitMs: config.READ_AFTER_CREATE_WAIT_MS,
      maxWaiters: config.READ_AFTER_CREATE_MAX_WAITERS,
    });
    const parts = await def.create({
      name: def.name,
      config,
      logger,
      pool,
      bus,
      tokens,
      awaitRecent: recent.awaitRecent,
    });
    const relay = new OutboxRelay({
      pool,
      bus,
      logger,
      metrics: relayMetrics(def.name),
      inboxRetentionMs: inboxRetention(
        bus,
        (parts.subscriptions ?? []).flatMap((sub) => sub.topics),
        config.INBOX_RETENTION_DAYS * DAY_MS,
        logger,
      ),
    });
    // Ready = can serve requests: Postgres answers. Kafka is not asked: the outbox keeps events
    // while it is away, and its health is a metric and an alert (checkpoint_event_bus_ready).
    const ready = () => databaseReachable(pool);
    const openapi = buildOpenApiDocument(
      `${def.name} service`,
      Object.assign({}, ...parts.routers.map((r) => r.paths)),
    );
    const app = createServiceApp({
      name: def.name,
      logger,
      tokens,
      routers: parts.routers,
      ...(parts.largeBodies ? { largeBodies: parts.largeBodies } : {}),
      extra: (app) => {
        app.get('/openapi.json', (_req, res) => {
          res.json(openapi);
        });
        parts.extra?.(app);
      },
      ready,
    });
    const forgetMetrics = registerService(def.name, {
      pool,
      busReady: () => bus!.isReady(),
      ...(bus instanceof KafkaBus ? { eventBacklog: (ms: number) => (bus as KafkaBus).eventBacklog(ms) } : {}),
    });
    const { server, url } = await listen(app, config.PORT, config.HOST, { maxHeaderSize: SERVICE_MAX_HEADER_BYTES });
    // Serving already: the consumer groups join in the background (a join takes up to Kafka's
    // session timeout after a restart, ~30 s), so that start-up ends now and the process's
    // shutdown is installed while they join. A broker that is away (or goes away now) must not end
    // the process: a group that cannot subscribe is retried; meanwhile events wait in Kafka. (The
    // in-process bus registers a group when subscribe is called, before its first await.)
    let stopping = false;
    for (const sub of parts.subscriptions ?? [])
      void subscribeUntilDone(bus, recent.notifying(sub), logger, () => stopping);
    relay.start();
    await parts.start?.();
    logger.info({ url }, `${def.name} listening`);
    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        stopping = true;
        parts.draining?.();
        await closeServer(server, config.SHUTDOWN_TIMEOUT_MS, { graceMs: SHUTDOWN_GRACE_MS });
        await relay.stop();
        await parts.stop?.();
        if (ownsBus) await bus!.stop();
        forgetMetrics();
        await pool.end();
      })());
    return { name: def.name, url, server, app, openapi, ready, stop };
  } catch (err) {
    if (ownsBus) await bus.stop().catch(() => {});
    await pool.end().catch(() => {});
    throw err;
  }
}

/**
 * Applies a service's migrations to its schema: the shared outbox/inbox tables, then its own, then
 * the tables of the packages it uses (packageMigrations).
 */
export function migrateService(
  def: Pick<ServiceDefinition, 'migrationsDir' | 'packageMigrations'>,
  pool: pg.Pool,
  schema: string,
  logger?: Logger,
): Promise<string[]> {
  return runMigrations(pool, {
    schema,
    dir: def.migrationsDir,
    logger,
    shared: [
      { version: '000_events_outbox_inbox', sql: outboxSchemaSql },
      { version: '000_events_inbox_retention', sql: inboxRetentionIndexSql },
    ],
    sharedAfter: def.packageMigrations,
  });
}

const DAY_MS = 86_400_000;
/** Kept beyond the topics' own window, for clocks and a segment rolled late. */
const INBOX_MARGIN_MS = DAY_MS;

/**
 * INBOX_RETENTION_DAYS as the relay's inbox retention, but never shorter than Kafka may deliver an
 * event of the subscribed topics again (asked at each cleanup): an entry deleted before that would
 * let a redelivered event take effect twice. Topics kept longer make it that window and a day;
 * compacted or unlimited ones keep every entry. A warning says so when the answer changes.
 */
export function inboxRetention(
  bus: Bus,
  topics: string[],
  configuredMs: number,
  logger: Logger,
): () => Promise<number> {
  let lastWindow: number | undefined;
  return async () => {
    if (configuredMs <= 0 || !(bus instanceof KafkaBus)) return configuredMs;
    const window = await bus.redeliveryWindowMs([...new Set(topics)]);
    const kept = window < configuredMs ? configuredMs : Number.isFinite(window) ? window + INBOX_MARGIN_MS : 0;
    if (window !== lastWindow && kept !== configuredMs)
      logger.warn(
        {
          inboxRetentionDays: configuredMs / DAY_MS,
          redeliveryWindowDays: Number.isFinite(window) ? window / DAY_MS : 'for ever',
          keptDays: kept === 0 ? 'for ever' : kept / DAY_MS,
        },
        'Kafka may deliver events again for longer than INBOX_RETENTION_DAYS: inbox entries are kept longer',
      );
    lastWindow = window;
    return kept;
  };
}

/**
 * Subscribes now, and after a failure again with backoff (1 s doubling to 30 s) until it holds or
 * the service stops.
 */
async function subscribeUntilDone(
  bus: Bus,
  subscription: SubscribeOptions,
  logger: Logger,
  stopping: () => boolean,
): Promise<void> {
  for (let attempt = 1; !stopping(); attempt++) {
    if (attempt > 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000 * 2 ** (attempt - 2), 30_000)).unref());
      if (stopping()) return;
    }
    try {
      await bus.subscribe(subscription);
      if (attempt > 1) logger.info({ groupId: subscription.groupId, attempt }, 'subscribed');
      return;
    } catch (err) {
      if (stopping()) return;
      logger.warn({ err, groupId: subscription.groupId, attempt }, 'subscribing failed, retrying');
    }
  }
}

/** Entry point body of a service's main.ts. */
export async function runServiceMain<S extends z.ZodObject>(def: ServiceDefinition<S>): Promise<void> {
  try {
    // First, so that the counters count from the start (a taken port is logged, not fatal).
    const level = baseConfigSchema.shape.LOG_LEVEL.safeParse(process.env.LOG_LEVEL);
    const metrics = await startMetricsServer({ logger: createLogger(def.name, level.data ?? 'info') });
    const running = await startService(def);
    const timeout = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
    onShutdownSignal(
      async () => {
        await running.stop();
        await metrics?.stop();
        await stopTelemetry();
      },
      timeout,
      (msg) => console.error(`[${def.name}] ${msg}`),
    );
  } catch (err) {
    exitOnStartupError(def.name, err);
  }
}

/** What stopped a start, never "undefined": an Error's stack, or a thrown value as text. */
export function startupCause(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  if (err === undefined || err === null) return `an unknown error (${String(err)} was thrown, with no message)`;
  if (typeof err === 'object') {
    try {
      return JSON.stringify(err);
    } catch {
      return Object.prototype.toString.call(err);
    }
  }
  return String(err);
}

export function exitOnStartupError(name: string, err: unknown): never {
  if (err instanceof ConfigError) console.error(`[${name}] ${err.message}`);
  else console.error(`[${name}] failed to start: ${startupCause(err)}`);
  process.exit(1);
}
