// Stack mode with several replicas of every service (docs/scale-out.md): a throw-away Postgres,
// a Kafka broker of its own (topics created up front, 3 partitions each), N processes per service
// on free 127.0.0.1 ports (../stack/processes.ts: any replica can be killed with SIGKILL and
// started again on its port; one log file per process in logDir), a round-robin balancer per
// service (./balancer.ts, the Kubernetes Service), and the gateway with one URL per service: the
// balancer's.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { provisionServiceDatabase } from '@checkpoint/service-kit';
import { urlVariable } from '@checkpoint/service-registry';
import {
  freePort,
  startCrashablePostgres,
  startKafka,
  startMailCatcher,
  type CrashablePostgres,
  type KafkaHandle,
  type MailCatcher,
} from '@checkpoint/testkit';
import { readMailOf } from '../api/helpers.ts';
import { createTopics, ProcessGroup, root, SERVICES, type ServiceName } from '../stack/processes.ts';
import { startBalancer, type Balancer } from '@checkpoint/testkit';

export { root, SERVICES, type ServiceName };
/** `gateway`, or a replica: `assessment#0`, `assessment#1`… */
export type ProcessName = 'gateway' | `${ServiceName}#${number}`;
export const PARTITIONS = 3;

export interface ScaleStack {
  baseUrl: string;
  postgres: CrashablePostgres;
  kafka: KafkaHandle;
  /** The SMTP server the services' mail goes to (SMTP_URL): sign-ups read their links there. */
  mail: MailCatcher;
  /** Superuser URL (to read every schema directly). */
  adminUrl: string;
  balancers: Record<ServiceName, Balancer>;
  replicas: number;
  /** The secret the gateway signs service tokens with (to call one replica directly). */
  serviceTokenSecret: string;
  portOf(name: ProcessName): number;
  /** Exits that were not asked for, e.g. `class#1 exited with code 1 at 12.0 s`. */
  unexpectedExits: string[];
  kill9(name: ProcessName): Promise<void>;
  start(name: ProcessName): Promise<void>;
  waitReady(names: readonly ProcessName[], timeoutMs: number): Promise<void>;
  logOf(name: ProcessName): string;
  stop(): Promise<void>;
}

export const replicaNames = (service: ServiceName, replicas: number): ProcessName[] =>
  Array.from({ length: replicas }, (_, i) => `${service}#${i}` as const);

export async function startScaleStack(options: {
  logDir: string;
  replicas: number;
  env: Record<string, string>;
  readyTimeoutMs: number;
}): Promise<ScaleStack> {
  if (!Number.isInteger(options.replicas) || options.replicas < 1)
    throw new Error(`replicas: a whole number ≥ 1 (got ${options.replicas})`);
  const group = new ProcessGroup<ProcessName>(options.logDir);
  const balancers = {} as Record<ServiceName, Balancer>;
  const closeBalancers = () => Promise.all(Object.values(balancers).map((b) => b.close()));
  const [postgres, kafka, mail] = await Promise.all([
    startCrashablePostgres(),
    startKafka({ dedicated: true }),
    startMailCatcher(),
  ]);
  let stopped = false;
  let forgetMail = () => {};
  const stop = async () => {
    stopped = true;
    await group.stop();
    await closeBalancers();
    await kafka.stop();
    await postgres.stop();
    forgetMail();
    await mail.stop();
  };
  try {
    await createTopics(kafka.brokers, PARTITIONS);
    // One secret for every process, as scripts/stack.ts shares one.
    const secret = randomBytes(32).toString('base64url');
    const common = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVICE_TOKEN_SECRET: secret,
      SMTP_URL: mail.url,
      // Many processes on one machine: each serves its metrics on a free port of its own.
      METRICS_PORT: '0',
      ...options.env,
    };
    const gatewayPort = await freePort();
    const baseUrl = `http://127.0.0.1:${gatewayPort}`;
    // A sign-up (e2e/api/helpers.ts signUp, the driver's seed) reads its link from `mail` by this URL.
    forgetMail = readMailOf(baseUrl, mail);
    const upstreams: Record<string, string> = {};
    for (const service of SERVICES) {
      const databaseUrl = await provisionServiceDatabase(postgres.url, service);
      const ports: number[] = [];
      for (const name of replicaNames(service, options.replicas)) {
        const port = await freePort();
        ports.push(port);
        group.add(name, {
          entry: path.join(root, 'services', service, 'src/main.ts'),
          port,
          env: {
            ...common,
            PORT: String(port),
            DATABASE_URL: databaseUrl,
            KAFKA_BROKERS: kafka.brokers,
            DEMO_SEED: 'false',
            PUBLIC_URL: baseUrl,
          },
        });
      }
      balancers[service] = await startBalancer(service, ports);
      upstreams[urlVariable(service)] = balancers[service].url;
    }
    group.add('gateway', {
      entry: path.join(root, 'gateway/src/main.ts'),
      port: gatewayPort,
      env: { ...common, ...upstreams, PORT: String(gatewayPort), PUBLIC_URL: baseUrl },
    });

    const all = group.names();
    try {
      // All at once: the replicas of a service migrate its schema under an advisory lock.
      for (const name of all) await group.start(name);
      await group.waitReady(all, options.readyTimeoutMs);
    } catch (error) {
      await stop();
      throw error;
    }
    return {
      baseUrl,
      postgres,
      kafka,
      mail,
      adminUrl: postgres.url,
      balancers,
      replicas: options.replicas,
      serviceTokenSecret: secret,
      portOf: (name) => group.portOf(name),
      unexpectedExits: group.unexpectedExits,
      kill9: (name) => group.kill9(name),
      start: (name) => group.start(name),
      waitReady: (names, timeoutMs) => group.waitReady(names, timeoutMs),
      logOf: (name) => group.logTail(name, Number.MAX_SAFE_INTEGER),
      stop,
    };
  } catch (error) {
    if (!stopped) {
      group.kill();
      await closeBalancers();
      await kafka.stop();
      await postgres.stop();
      await mail.stop();
    }
    throw error;
  }
}
