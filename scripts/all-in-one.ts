// All-in-one mode: embedded Postgres (data in DATA_DIR, kept between runs), every service in this
// one process with its own schema and database role, in-process events, and the gateway serving
// the web app. The composition root: the only code that imports several services.
import path from 'node:path';
import { z } from 'zod';
import { InProcessBus } from '@checkpoint/events';
import { createGateway, gatewayConfigSchema } from '@checkpoint/gateway';
import { identityService } from '@checkpoint/identity';
import {
  closeServer,
  createLogger,
  envBoolean,
  envPort,
  exitOnStartupError,
  listen,
  onShutdownSignal,
  parseConfig,
  provisionServiceDatabase,
  type RunningService,
  type ServiceDefinition,
  startService,
} from '@checkpoint/service-kit';
import { launchEmbeddedPostgres } from '@checkpoint/testkit';

const services: ServiceDefinition[] = [identityService as unknown as ServiceDefinition];

const configSchema = z.object({
  PORT: envPort(8080).describe('Port of the app (gateway)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface to bind'),
  DATA_DIR: z.string().min(1).default('.data').describe('Where the embedded Postgres keeps its data'),
  DEMO_SEED: envBoolean(true).describe('Create the demo district on an empty database'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  DATABASE_URL: z.url().optional().describe('Use this Postgres (superuser URL) instead of the embedded one'),
});

async function main(): Promise<void> {
  const config = parseConfig(configSchema);
  const logger = createLogger('all-in-one', config.LOG_LEVEL);
  const postgres = config.DATABASE_URL
    ? { url: config.DATABASE_URL, stop: async () => {} }
    : await launchEmbeddedPostgres({ dataDir: path.resolve(config.DATA_DIR, 'postgres'), persistent: true });
  const bus = new InProcessBus({ logger });
  const running: RunningService[] = [];
  try {
    for (const def of services) {
      const databaseUrl = await provisionServiceDatabase(postgres.url, def.name);
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: config.LOG_LEVEL,
        DEMO_SEED: String(config.DEMO_SEED),
        PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
      };
      running.push(await startService(def, { env, bus, logger: logger.child({ service: def.name }) }));
    }
    const upstream = (name: string) => running.find((s) => s.name === name)?.url;
    const gatewayConfig = parseConfig(gatewayConfigSchema, {
      ...process.env,
      PORT: String(config.PORT),
      HOST: config.HOST,
      LOG_LEVEL: config.LOG_LEVEL,
      IDENTITY_URL: upstream('identity'),
      CLASS_URL: upstream('class'),
      ASSESSMENT_URL: upstream('assessment'),
      GENERATION_URL: upstream('generation'),
      ANALYTICS_URL: upstream('analytics'),
    });
    const { server, url } = await listen(
      createGateway(gatewayConfig, logger.child({ service: 'gateway' })),
      config.PORT,
      config.HOST,
    );
    console.log(
      `\nCheckpoint is running at ${url.replace('127.0.0.1', 'localhost')} (all-in-one, data in ${config.DATA_DIR})\n`,
    );
    onShutdownSignal(
      async () => {
        await closeServer(server, 5_000);
        await bus.stop();
        for (const s of running.reverse()) await s.stop();
        await postgres.stop();
      },
      15_000,
      (msg) => console.log(msg),
    );
  } catch (err) {
    await bus.stop().catch(() => {});
    for (const s of running) await s.stop().catch(() => {});
    await postgres.stop().catch(() => {});
    throw err;
  }
}

main().catch((err) => exitOnStartupError('all-in-one', err));
