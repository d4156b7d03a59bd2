// `npm start` runs this: embedded Postgres with its data in DATA_DIR (kept between runs), then
// every service, the in-process bus and the gateway in this one process (see compose.ts).
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import v8 from 'node:v8';
import { z } from 'zod';
import {
  baseConfigSchema,
  ConfigError,
  createLogger,
  envBoolean,
  envPort,
  exitOnStartupError,
  onShutdownSignal,
  parseConfig,
  startMetricsServer,
  startTelemetry,
  stopTelemetry,
} from '@checkpoint/service-kit';
import { dataDirSecretsKey } from '@checkpoint/identity';
import { launchEmbeddedPostgres, leaveShutdownSignalsToCaller } from '@checkpoint/testkit';
import { startAllInOne } from './compose.ts';
import { seedDemoData } from './demo-data.ts';

const configSchema = z.object({
  PORT: envPort(8080).describe('Port of the app (the gateway)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface to bind'),
  DATA_DIR: z.string().min(1).default('.data').describe('Where the embedded Postgres keeps its data'),
  DEMO_SEED: envBoolean(true).describe('Create the demo district on an empty database'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  DATABASE_URL: z.url().optional().describe('Use this Postgres (superuser URL) instead of the embedded one'),
});

/**
 * One school's data fits in a small buffer cache (the OS caches the rest of the files); the five
 * small pools and their listeners need far fewer than the tests' 300 connections; JIT compiling
 * only pays off for large analytical queries and loads LLVM into the backend that does it.
 */
const EMBEDDED_POSTGRES_SETTINGS = { shared_buffers: '32MB', max_connections: '100', jit: 'off' };

async function main(): Promise<void> {
  // Prisma's query compiler is WebAssembly. V8's optimising tier recompiles its hot functions in
  // the background: ~60 MB more memory for the four clients (bench/memory.mjs), to speed up the
  // planning of queries whose plans Prisma caches anyway. Read when a module compiles, so it
  // still applies here, before the first query.
  v8.setFlagsFromString('--liftoff-only');
  const config = parseConfig(configSchema);
  // With DATABASE_URL the data outlives this container and is shared with other replicas: a key
  // made and kept in this container's DATA_DIR would differ from theirs (and be lost with it), and
  // the SSO secrets sealed with it would not open elsewhere.
  if (config.DATABASE_URL && !process.env.SECRETS_KEY)
    throw new ConfigError([
      'SECRETS_KEY: required with DATABASE_URL (the key sealing secrets at rest, the same for every process using that database; 32 random bytes in base64, e.g. `openssl rand -base64 32`)',
    ]);
  const logger = createLogger('checkpoint', config.LOG_LEVEL);
  // Traces as one service, `checkpoint` (when OTEL_EXPORTER_OTLP_ENDPOINT is set); metrics of every
  // service on METRICS_PORT, one registry with a `service` label (docs/telemetry.md).
  const otel = baseConfigSchema.pick({ OTEL_EXPORTER_OTLP_ENDPOINT: true });
  await startTelemetry('checkpoint', parseConfig(otel).OTEL_EXPORTER_OTLP_ENDPOINT, { edge: true });
  const metrics = await startMetricsServer({ logger });
  // The demo content is made by signing in as the demo accounts: one password for them, chosen here.
  const demoPassword = process.env.DEMO_PASSWORD || randomBytes(9).toString('base64url');
  const postgres = config.DATABASE_URL
    ? { url: config.DATABASE_URL, stop: async () => {} }
    : await launchEmbeddedPostgres({
        dataDir: path.resolve(config.DATA_DIR, 'postgres'),
        persistent: true,
        settings: EMBEDDED_POSTGRES_SETTINGS,
      });
  try {
    const app = await startAllInOne({
      postgresUrl: postgres.url,
      port: config.PORT,
      host: config.HOST,
      logger,
      env: {
        LOG_LEVEL: config.LOG_LEVEL,
        // Each pooled connection is a Postgres process (2–4 MB): few, and closed soon when idle.
        DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE || '4',
        DATABASE_POOL_IDLE_MS: process.env.DATABASE_POOL_IDLE_MS || '10000',
        DEMO_SEED: String(config.DEMO_SEED),
        DEMO_PASSWORD: demoPassword,
        PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
        // Secrets sealed in one run must open in the next: the key is kept in DATA_DIR unless given.
        SECRETS_KEY: process.env.SECRETS_KEY || (await dataDirSecretsKey(path.resolve(config.DATA_DIR))),
      },
      // Used only while SMTP_URL is unset: the local SMTP server keeps the mail here.
      mailboxDir: path.resolve(config.DATA_DIR, 'mailbox'),
    });
    // From here, as soon as it serves (also while it makes its demo content), SIGTERM and SIGINT are
    // this process's: requests drain and the services stop while Postgres is still there, then
    // Postgres stops (embedded-postgres would stop it at once and exit 143).
    leaveShutdownSignalsToCaller();
    onShutdownSignal(
      async () => {
        await app.stop();
        await postgres.stop();
        await metrics?.stop();
        await stopTelemetry();
      },
      15_000,
      (msg) => console.log(msg),
    );
    if (config.DEMO_SEED) {
      // Not fatal: the app works without its demo content.
      await seedDemoData(app.url, demoPassword).catch((err: unknown) => logger.warn({ err }, 'demo content not made'));
    }
    console.log(
      `\nCheckpoint is running at ${app.url.replace('127.0.0.1', 'localhost')} (all-in-one, data in ${config.DATA_DIR})\n`,
    );
    if (app.mailbox?.key) {
      console.log(
        `Outgoing mail: ${app.url.replace('127.0.0.1', 'localhost')}/_mailbox?key=${app.mailbox.key} (set SMTP_URL to deliver it)\n`,
      );
    }
  } catch (err) {
    await postgres.stop().catch(() => {});
    throw err;
  }
}

main().catch((err) => exitOnStartupError('all-in-one', err));
