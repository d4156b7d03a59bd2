// Stack mode for the fault test: a crashable embedded Postgres, a Kafka broker of its own (topics
// created up front, as bench/kafka.ts does), every service and the gateway as separate processes
// on free 127.0.0.1 ports (../stack/processes.ts: each can be killed with SIGKILL and started again
// on its port; logs in logDir).
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

export { root, SERVICES, type ServiceName };
type ProcessName = ServiceName | 'gateway';

export interface FaultStack {
  baseUrl: string;
  postgres: CrashablePostgres;
  kafka: KafkaHandle;
  /** The SMTP server the services' mail goes to (SMTP_URL): sign-ups read their links there. */
  mail: MailCatcher;
  /** Superuser URL (to read every schema directly). */
  adminUrl: string;
  /** Exits that were not asked for, e.g. `class exited with code 1`. */
  unexpectedExits: string[];
  kill9(name: ProcessName): Promise<void>;
  start(name: ProcessName): Promise<void>;
  waitReady(names: readonly ProcessName[], timeoutMs: number): Promise<void>;
  /** Base URL of a process (its /readyz, /healthz). */
  urlOf(name: ProcessName): string;
  /** Its metrics endpoint (…/metrics). */
  metricsUrlOf(name: ProcessName): string;
  logTail(name: ProcessName, chars?: number): string;
  stop(): Promise<void>;
}

export async function startFaultStack(options: {
  logDir: string;
  env: Record<string, string>;
  readyTimeoutMs: number;
}): Promise<FaultStack> {
  const group = new ProcessGroup<ProcessName>(options.logDir);
  const metricsPorts = new Map<ProcessName, number>();
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
    await kafka.stop();
    await postgres.stop();
    forgetMail();
    await mail.stop();
  };
  try {
    await createTopics(kafka.brokers, 3);
    // One secret for every process, as scripts/stack.ts shares one: the gateway signs each call
    // to a service with it and the services check it.
    const common = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVICE_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      SMTP_URL: mail.url,
      ...options.env,
    };
    const gatewayPort = await freePort();
    const baseUrl = `http://127.0.0.1:${gatewayPort}`;
    // A sign-up (e2e/api/helpers.ts signUp, the driver's seed) reads its link from `mail` by this URL.
    forgetMail = readMailOf(baseUrl, mail);
    const upstreams: Record<string, string> = {};
    for (const service of SERVICES) {
      const port = await freePort();
      metricsPorts.set(service, await freePort());
      group.add(service, {
        entry: path.join(root, 'services', service, 'src/main.ts'),
        port,
        env: {
          ...common,
          PORT: String(port),
          METRICS_PORT: String(metricsPorts.get(service)),
          DATABASE_URL: await provisionServiceDatabase(postgres.url, service),
          KAFKA_BROKERS: kafka.brokers,
          DEMO_SEED: 'false',
          PUBLIC_URL: baseUrl,
        },
      });
      upstreams[urlVariable(service)] = `http://127.0.0.1:${port}`;
    }
    metricsPorts.set('gateway', await freePort());
    group.add('gateway', {
      entry: path.join(root, 'gateway/src/main.ts'),
      port: gatewayPort,
      env: {
        ...common,
        ...upstreams,
        PORT: String(gatewayPort),
        METRICS_PORT: String(metricsPorts.get('gateway')),
        PUBLIC_URL: baseUrl,
      },
    });
    try {
      for (const name of SERVICES) await group.start(name);
      await group.start('gateway');
      await group.waitReady([...SERVICES, 'gateway'], options.readyTimeoutMs);
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
      unexpectedExits: group.unexpectedExits,
      kill9: (name) => group.kill9(name),
      start: (name) => group.start(name),
      waitReady: (names, timeoutMs) => group.waitReady(names, timeoutMs),
      urlOf: (name) => `http://127.0.0.1:${group.portOf(name)}`,
      metricsUrlOf: (name) => `http://127.0.0.1:${metricsPorts.get(name)}/metrics`,
      logTail: (name, chars) => group.logTail(name, chars),
      stop,
    };
  } catch (error) {
    if (!stopped) {
      group.kill();
      await kafka.stop();
      await postgres.stop();
      await mail.stop();
    }
    throw error;
  }
}
