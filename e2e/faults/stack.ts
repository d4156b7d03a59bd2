// Stack mode for the fault test: a crashable embedded Postgres, a Kafka broker of its own (topics
// created up front, as bench/kafka.ts does), every service and the gateway as separate processes
// (`node --import tsx <main.ts>`, the env scripts/stack.ts passes), on free 127.0.0.1 ports. Each
// process can be killed with SIGKILL and started again on its port. Logs go to files in logDir.
// Every child is killed when the test process exits, even without stop() (exit hook, and a
// watchdog per child for a test process that is itself killed hard).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { dlqTopic, eventRegistry } from '@checkpoint/events';
import { provisionServiceDatabase } from '@checkpoint/service-kit';
import {
  freePort,
  startCrashablePostgres,
  startKafka,
  type CrashablePostgres,
  type KafkaHandle,
} from '@checkpoint/testkit';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVICES = ['identity', 'class', 'assessment', 'generation', 'analytics'] as const;
export type ServiceName = (typeof SERVICES)[number];
type ProcessName = ServiceName | 'gateway';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The test's env minus what would point a process elsewhere (an outside database, broker or model). */
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !['DATABASE_URL', 'KAFKA_BROKERS', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'NODE_OPTIONS'].includes(k),
  ),
);

interface Managed {
  name: ProcessName;
  entry: string;
  env: Record<string, string>;
  port: number;
  /** Its Prometheus metrics port (METRICS_PORT). */
  metricsPort: number;
  child?: ChildProcess;
  watchdog?: ChildProcess;
  /** How many times it was started. */
  starts: number;
}

export interface FaultStack {
  baseUrl: string;
  postgres: CrashablePostgres;
  kafka: KafkaHandle;
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

/** Creates every event topic and its dead-letter topic, so that the services do not race to. */
async function createTopics(brokers: string): Promise<void> {
  const topics = new Set<string>();
  for (const type of eventRegistry) if (type.kind === 'message') topics.add(type.file.proto.package);
  const admin = new Kafka({ clientId: 'faults', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [...topics]
        .flatMap((t) => [t, dlqTopic(t)])
        .map((topic) => ({ topic, numPartitions: 3, replicationFactor: 1 })),
    });
  } finally {
    await admin.disconnect();
  }
}

export async function startFaultStack(options: {
  logDir: string;
  env: Record<string, string>;
  readyTimeoutMs: number;
}): Promise<FaultStack> {
  mkdirSync(options.logDir, { recursive: true });
  const unexpectedExits: string[] = [];
  const managed = new Map<ProcessName, Managed>();
  const started = Date.now();
  let stopping = false;

  const killAll = () => {
    for (const m of managed.values()) {
      m.child?.kill('SIGKILL');
      m.watchdog?.kill('SIGKILL');
    }
  };
  process.once('exit', killAll);

  const [postgres, kafka] = await Promise.all([startCrashablePostgres(), startKafka({ dedicated: true })]);
  try {
    await createTopics(kafka.brokers);
    // One secret for every process, as scripts/stack.ts shares one: the gateway signs each call
    // to a service with it and the services check it.
    const secret = randomBytes(32).toString('base64url');
    const common = {
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVICE_TOKEN_SECRET: secret,
      ...options.env,
    };
    const gatewayPort = await freePort();
    const baseUrl = `http://127.0.0.1:${gatewayPort}`;
    const upstreams: Record<string, string> = {};
    for (const service of SERVICES) {
      const port = await freePort();
      const metricsPort = await freePort();
      managed.set(service, {
        name: service,
        entry: path.join(root, 'services', service, 'src/main.ts'),
        port,
        metricsPort,
        starts: 0,
        env: {
          ...common,
          PORT: String(port),
          METRICS_PORT: String(metricsPort),
          DATABASE_URL: await provisionServiceDatabase(postgres.url, service),
          KAFKA_BROKERS: kafka.brokers,
          DEMO_SEED: 'false',
          PUBLIC_URL: baseUrl,
        },
      });
      upstreams[`${service.toUpperCase()}_URL`] = `http://127.0.0.1:${port}`;
    }
    const gatewayMetricsPort = await freePort();
    managed.set('gateway', {
      name: 'gateway',
      entry: path.join(root, 'gateway/src/main.ts'),
      port: gatewayPort,
      metricsPort: gatewayMetricsPort,
      starts: 0,
      env: {
        ...common,
        ...upstreams,
        PORT: String(gatewayPort),
        METRICS_PORT: String(gatewayMetricsPort),
        PUBLIC_URL: baseUrl,
      },
    });

    const logFile = (name: ProcessName) => path.join(options.logDir, `${name}.log`);

    const start = async (name: ProcessName) => {
      const m = managed.get(name)!;
      if (m.child && m.child.exitCode === null && m.child.signalCode === null) return;
      const out = openSync(logFile(name), 'a');
      const child = spawn(process.execPath, ['--import', 'tsx', m.entry], {
        cwd: root,
        env: { ...inherited, ...m.env },
        stdio: ['ignore', out, out],
      });
      closeSync(out);
      m.child = child;
      m.starts++;
      child.once('exit', (code, signal) => {
        if (m.child === child) m.child = undefined;
        if (!stopping && !(child as ChildProcess & { killedOnPurpose?: boolean }).killedOnPurpose)
          unexpectedExits.push(
            `${name} exited with ${code ?? signal} at ${((Date.now() - started) / 1000).toFixed(1)} s`,
          );
      });
      // If the test process is killed hard (no exit hook), the watchdog takes the child down.
      m.watchdog?.kill('SIGKILL');
      m.watchdog = spawn(
        'sh',
        [
          '-c',
          `while kill -0 ${process.pid} 2>/dev/null; do kill -0 ${child.pid} 2>/dev/null || exit 0; sleep 2; done; kill -9 ${child.pid} 2>/dev/null`,
        ],
        { stdio: 'ignore', detached: true },
      );
      m.watchdog.unref();
    };

    const waitReady = async (names: readonly ProcessName[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      const pending = new Set(names);
      while (pending.size > 0) {
        for (const name of [...pending]) {
          const m = managed.get(name)!;
          if (!m.child) throw new Error(`${name} is not running:\n${tail(logFile(name))}`);
          try {
            const res = await fetch(`http://127.0.0.1:${m.port}/readyz`, { signal: AbortSignal.timeout(2000) });
            if (res.ok) pending.delete(name);
          } catch {
            // not listening yet
          }
        }
        if (pending.size === 0) return;
        if (Date.now() > deadline)
          throw new Error(
            `not ready after ${timeoutMs / 1000} s: ${[...pending].join(', ')}\n` +
              [...pending].map((n) => `--- ${n}\n${tail(logFile(n))}`).join('\n'),
          );
        await sleep(250);
      }
    };

    const kill9 = async (name: ProcessName) => {
      const child = managed.get(name)!.child;
      if (!child) throw new Error(`${name} is not running`);
      (child as ChildProcess & { killedOnPurpose?: boolean }).killedOnPurpose = true;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await Promise.race([exited, sleep(10_000)]);
    };

    const stop = async () => {
      stopping = true;
      const children = [...managed.values()].flatMap((m) => (m.child ? [m.child] : []));
      for (const child of children) child.kill('SIGTERM');
      await Promise.race([
        Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))))),
        sleep(15_000),
      ]);
      killAll();
      process.removeListener('exit', killAll);
      await kafka.stop();
      await postgres.stop();
    };

    try {
      for (const name of SERVICES) await start(name);
      await start('gateway');
      await waitReady([...SERVICES, 'gateway'], options.readyTimeoutMs);
    } catch (error) {
      await stop();
      throw error;
    }
    return {
      baseUrl,
      postgres,
      kafka,
      adminUrl: postgres.url,
      unexpectedExits,
      kill9,
      start,
      waitReady,
      urlOf: (name) => `http://127.0.0.1:${managed.get(name)!.port}`,
      metricsUrlOf: (name) => `http://127.0.0.1:${managed.get(name)!.metricsPort}/metrics`,
      logTail: (name, chars) => tail(logFile(name), chars),
      stop,
    };
  } catch (error) {
    if (!stopping) {
      killAll();
      process.removeListener('exit', killAll);
      await kafka.stop();
      await postgres.stop();
    }
    throw error;
  }
}

function tail(file: string, chars = 3000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}
