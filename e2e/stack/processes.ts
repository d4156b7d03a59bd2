// What the stack-mode suites share (e2e/faults, e2e/scale): the event topics made up front, and a
// group of service and gateway processes (`node --import tsx <main.ts>`, the env scripts/stack.ts
// passes) on 127.0.0.1 ports, each of which can be killed with SIGKILL and started again on its
// port. Logs go to one file per process. Every child is killed when the test process exits, even
// without stop() (exit hook, and a watchdog per child for a test process that is itself killed hard).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { dlqTopic, eventRegistry } from '@checkpoint/events';
import { SERVICE_NAMES, type ServiceName } from '@checkpoint/service-registry';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The services of packages/service-registry/services.js. */
export const SERVICES = SERVICE_NAMES;
export type { ServiceName };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The test's env minus what would point a process elsewhere (an outside database, broker or model). */
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !['DATABASE_URL', 'KAFKA_BROKERS', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'NODE_OPTIONS'].includes(k),
  ),
);

/** Creates every event topic and its dead-letter topic, so that the services do not race to; returns the topics. */
export async function createTopics(brokers: string, partitions: number): Promise<string[]> {
  const topics = new Set<string>();
  for (const type of eventRegistry) if (type.kind === 'message') topics.add(type.file.proto.package);
  const admin = new Kafka({ clientId: 'e2e-stack', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [...topics]
        .flatMap((t) => [t, dlqTopic(t)])
        .map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
    });
  } finally {
    await admin.disconnect();
  }
  return [...topics];
}

export function tail(file: string, chars = 3000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

/** One process of the group: its entry file, port and environment. */
export interface ProcessSpec {
  entry: string;
  port: number;
  env: Record<string, string>;
}

interface Managed extends ProcessSpec {
  child?: ChildProcess;
  watchdog?: ChildProcess;
}

type Killable = ChildProcess & { killedOnPurpose?: boolean };

export class ProcessGroup<Name extends string> {
  /** Exits that were not asked for, e.g. `class exited with code 1 at 12.0 s`. */
  readonly unexpectedExits: string[] = [];
  private readonly managed = new Map<Name, Managed>();
  private readonly started = Date.now();
  private stopping = false;
  private readonly killAll = () => {
    for (const m of this.managed.values()) {
      m.child?.kill('SIGKILL');
      m.watchdog?.kill('SIGKILL');
    }
  };

  constructor(private readonly logDir: string) {
    mkdirSync(logDir, { recursive: true });
    process.once('exit', this.killAll);
  }

  add(name: Name, spec: ProcessSpec): void {
    this.managed.set(name, { ...spec });
  }

  names(): Name[] {
    return [...this.managed.keys()];
  }

  portOf(name: Name): number {
    return this.get(name).port;
  }

  logFile(name: Name): string {
    return path.join(this.logDir, `${name.replace(/[^\w.-]/g, '-')}.log`);
  }

  logTail(name: Name, chars?: number): string {
    return tail(this.logFile(name), chars);
  }

  /** Starts the process unless it runs already. */
  async start(name: Name): Promise<void> {
    const m = this.get(name);
    if (m.child && m.child.exitCode === null && m.child.signalCode === null) return;
    const out = openSync(this.logFile(name), 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', m.entry], {
      cwd: root,
      env: { ...inherited, ...m.env },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    m.child = child;
    child.once('exit', (code, signal) => {
      if (m.child === child) m.child = undefined;
      if (!this.stopping && !(child as Killable).killedOnPurpose)
        this.unexpectedExits.push(
          `${name} exited with ${code ?? signal} at ${((Date.now() - this.started) / 1000).toFixed(1)} s`,
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
  }

  /** Until every named process answers /readyz 200; fails naming those that do not, with their logs. */
  async waitReady(names: readonly Name[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(names);
    while (pending.size > 0) {
      for (const name of [...pending]) {
        const m = this.get(name);
        if (!m.child) throw new Error(`${name} is not running:\n${this.logTail(name)}`);
        try {
          const res = await fetch(`http://127.0.0.1:${m.port}/readyz`, { signal: AbortSignal.timeout(2000) });
          await res.body?.cancel();
          if (res.ok) pending.delete(name);
        } catch {
          // not listening yet
        }
      }
      if (pending.size === 0) return;
      if (Date.now() > deadline)
        throw new Error(
          `not ready after ${timeoutMs / 1000} s: ${[...pending].join(', ')}\n` +
            [...pending].map((n) => `--- ${n}\n${this.logTail(n)}`).join('\n'),
        );
      await sleep(250);
    }
  }

  async kill9(name: Name): Promise<void> {
    const child = this.get(name).child;
    if (!child) throw new Error(`${name} is not running`);
    (child as Killable).killedOnPurpose = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await Promise.race([exited, sleep(10_000)]);
  }

  /** SIGTERM to every process, SIGKILL to what is left after 15 s. */
  async stop(): Promise<void> {
    this.stopping = true;
    const children = [...this.managed.values()].flatMap((m) => (m.child ? [m.child] : []));
    for (const child of children) child.kill('SIGTERM');
    await Promise.race([
      Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))))),
      sleep(15_000),
    ]);
    this.kill();
  }

  /** SIGKILL to every process at once (a start-up that failed). */
  kill(): void {
    this.stopping = true;
    this.killAll();
    process.removeListener('exit', this.killAll);
  }

  private get(name: Name): Managed {
    const m = this.managed.get(name);
    if (!m) throw new Error(`no process ${name}`);
    return m;
  }
}
