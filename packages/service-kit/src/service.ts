// One way to run a service, used by its own main.ts (one process per service) and by the
// all-in-one runner (every service in one process): config → database → migrations → app →
// listen → relay and consumers; stop in reverse, bounded in time.
import type { Server } from 'node:http';
import type { Express } from 'express';
import type pg from 'pg';
import { z } from 'zod';
import { KafkaBus, OutboxRelay, outboxSchemaSql, type Bus, type SubscribeOptions } from '@checkpoint/events';
import { ServiceTokens } from './caller.ts';
import { baseConfigSchema, ConfigError, parseConfig, type BaseConfig } from './config.ts';
import { createPool, runMigrations } from './database.ts';
import { createServiceApp, type ApiRouter } from './http.ts';
import { closeServer, listen, onShutdownSignal } from './lifecycle.ts';
import { createLogger, type Logger } from './logger.ts';
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
  create(ctx: ServiceContext<z.infer<S>>): Promise<ServiceParts> | ServiceParts;
}

export interface RunningService {
  name: string;
  url: string;
  server: Server;
  app: Express;
  openapi: OpenApiDocument;
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
    applicationName: def.name,
  });
  const ownsBus = !options.bus;
  let bus = options.bus;
  if (!bus) {
    if (!config.KAFKA_BROKERS)
      throw new ConfigError(['KAFKA_BROKERS: required when a service runs on its own (got unset)']);
    const kafka = new KafkaBus({ brokers: config.KAFKA_BROKERS.split(','), clientId: def.name, logger });
    // Not fatal: requests still succeed while Kafka is down; events wait in the outbox.
    await kafka.connect().catch((err: unknown) => logger.warn({ err }, 'Kafka not reachable yet'));
    bus = kafka;
  }
  try {
    await runMigrations(pool, {
      schema,
      dir: def.migrationsDir,
      logger,
      shared: [{ version: '000_events_outbox_inbox', sql: outboxSchemaSql }],
    });
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
    const relay = new OutboxRelay({ pool, bus, logger });
    const openapi = buildOpenApiDocument(
      `${def.name} service`,
      Object.assign({}, ...parts.routers.map((r) => r.paths)),
    );
    const app = createServiceApp({
      name: def.name,
      logger,
      tokens,
      routers: parts.routers,
      extra: (app) => {
        app.get('/openapi.json', (_req, res) => {
          res.json(openapi);
        });
        parts.extra?.(app);
      },
      ready: async () => {
        await pool.query('select 1');
        return bus!.isReady();
      },
    });
    const { server, url } = await listen(app, config.PORT, config.HOST);
    for (const sub of parts.subscriptions ?? []) await bus.subscribe(recent.notifying(sub));
    relay.start();
    await parts.start?.();
    logger.info({ url }, `${def.name} listening`);
    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        parts.draining?.();
        await closeServer(server, config.SHUTDOWN_TIMEOUT_MS);
        await relay.stop();
        await parts.stop?.();
        if (ownsBus) await bus!.stop();
        await pool.end();
      })());
    return { name: def.name, url, server, app, openapi, stop };
  } catch (err) {
    if (ownsBus) await bus.stop().catch(() => {});
    await pool.end().catch(() => {});
    throw err;
  }
}

/** Entry point body of a service's main.ts. */
export async function runServiceMain<S extends z.ZodObject>(def: ServiceDefinition<S>): Promise<void> {
  try {
    const running = await startService(def);
    const timeout = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
    onShutdownSignal(
      async () => {
        await running.stop();
        await stopTelemetry();
      },
      timeout,
      (msg) => console.error(`[${def.name}] ${msg}`),
    );
  } catch (err) {
    exitOnStartupError(def.name, err);
  }
}

export function exitOnStartupError(name: string, err: unknown): never {
  if (err instanceof ConfigError) console.error(`[${name}] ${err.message}`);
  else console.error(`[${name}] failed to start:`, err);
  process.exit(1);
}
