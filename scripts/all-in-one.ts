// `npm start` runs this: embedded Postgres with its data in DATA_DIR (kept between runs), then
// every service, the in-process bus and the gateway in this one process (see compose.ts).
import path from 'node:path';
import { z } from 'zod';
import {
  createLogger,
  envBoolean,
  envPort,
  exitOnStartupError,
  onShutdownSignal,
  parseConfig,
} from '@checkpoint/service-kit';
import { dataDirSecretsKey } from '@checkpoint/identity';
import { launchEmbeddedPostgres } from '@checkpoint/testkit';
import { startAllInOne } from './compose.ts';

const configSchema = z.object({
  PORT: envPort(8080).describe('Port of the app (the gateway)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('Interface to bind'),
  DATA_DIR: z.string().min(1).default('.data').describe('Where the embedded Postgres keeps its data'),
  DEMO_SEED: envBoolean(true).describe('Create the demo district on an empty database'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  DATABASE_URL: z.url().optional().describe('Use this Postgres (superuser URL) instead of the embedded one'),
});

async function main(): Promise<void> {
  const config = parseConfig(configSchema);
  const logger = createLogger('checkpoint', config.LOG_LEVEL);
  const postgres = config.DATABASE_URL
    ? { url: config.DATABASE_URL, stop: async () => {} }
    : await launchEmbeddedPostgres({ dataDir: path.resolve(config.DATA_DIR, 'postgres'), persistent: true });
  try {
    const app = await startAllInOne({
      postgresUrl: postgres.url,
      port: config.PORT,
      host: config.HOST,
      logger,
      env: {
        LOG_LEVEL: config.LOG_LEVEL,
        DEMO_SEED: String(config.DEMO_SEED),
        PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
        // Secrets sealed in one run must open in the next: the key is kept in DATA_DIR unless given.
        SECRETS_KEY: process.env.SECRETS_KEY || (await dataDirSecretsKey(path.resolve(config.DATA_DIR))),
      },
      // Used only while SMTP_URL is unset: the local SMTP server keeps the mail here.
      mailboxDir: path.resolve(config.DATA_DIR, 'mailbox'),
    });
    console.log(
      `\nCheckpoint is running at ${app.url.replace('127.0.0.1', 'localhost')} (all-in-one, data in ${config.DATA_DIR})\n`,
    );
    if (app.mailbox?.key) {
      console.log(
        `Outgoing mail: ${app.url.replace('127.0.0.1', 'localhost')}/_mailbox?key=${app.mailbox.key} (set SMTP_URL to deliver it)\n`,
      );
    }
    onShutdownSignal(
      async () => {
        await app.stop();
        await postgres.stop();
      },
      15_000,
      (msg) => console.log(msg),
    );
  } catch (err) {
    await postgres.stop().catch(() => {});
    throw err;
  }
}

main().catch((err) => exitOnStartupError('all-in-one', err));
