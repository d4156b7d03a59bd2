// Starts a real Apache Kafka 4.x broker (KRaft, combined broker + controller) as a local Java
// process for tests: jars come from Maven Central through packages/testkit/kafka/pom.xml.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, closeSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const pomPath = join(repoRoot, 'packages', 'testkit', 'kafka', 'pom.xml');
const classpathFile = join(repoRoot, '.cache', 'kafka-classpath.txt');

/**
 * A KRaft cluster id: 16 random bytes, base64url. Like Kafka's own `Uuid.randomUuid()` it never
 * starts with '-', which the storage tool's argument parser would take for an option (1 id in 64).
 */
export function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

export interface KafkaHandle {
  /** Bootstrap servers, e.g. `127.0.0.1:40123`. */
  brokers: string;
  /** With `secured.tls`: the PEM of the CA that signed the broker's certificate (for `127.0.0.1`). */
  caPem?: string;
  /** True when `KAFKA_BROKERS` named an existing cluster; stopBroker/startBroker then throw. */
  external: boolean;
  /** Kills the broker (if this process started it) and removes its data dir. */
  stop(): Promise<void>;
  /** Stops the broker process but keeps its port and data dir, to simulate an outage. */
  stopBroker(): Promise<void>;
  /** Starts the broker again on the same port and data dir; resolves once it accepts clients. */
  startBroker(): Promise<void>;
}

export interface StartKafkaOptions {
  /** How long to wait for the broker to come up. Default 60 s. */
  startTimeoutMs?: number;
  /** Start a broker of our own even when `KAFKA_BROKERS` is set (for tests that stop it). */
  dedicated?: boolean;
  /**
   * A broker whose client listener wants SASL SCRAM (always one of our own): SASL_PLAINTEXT, or
   * SASL_SSL with `tls` (a CA and a certificate for 127.0.0.1 made with openssl; `caPem` gives
   * the CA). The users are added when the storage is formatted (KRaft keeps SCRAM credentials in
   * its metadata); the broker's own traffic uses a plain listener clients are not told about.
   */
  secured?: {
    mechanism?: 'SCRAM-SHA-512' | 'SCRAM-SHA-256';
    users: { name: string; password: string }[];
    tls?: boolean;
    /**
     * ACLs enforced (KRaft's StandardAuthorizer), as Strimzi's `authorization: simple`: these users
     * (and the broker's own plain listener) may do anything, the others only what ACLs allow.
     */
    superUsers?: string[];
  };
}

/**
 * Starts a single-node Kafka broker on free 127.0.0.1 ports in a temp dir, or returns
 * `KAFKA_BROKERS` when that is set (unless `dedicated`). `stop()` kills the broker and deletes the temp dir; an exit
 * hook and a watchdog do the same if the test process ends without calling it.
 */
export async function startKafka(options: StartKafkaOptions = {}): Promise<KafkaHandle> {
  const external = process.env.KAFKA_BROKERS;
  const secured = options.secured;
  if (external && !options.dedicated && !secured) {
    const unsupported = async () => {
      throw new Error('stopBroker/startBroker are not available with KAFKA_BROKERS');
    };
    return {
      brokers: external,
      external: true,
      stop: async () => {},
      stopBroker: unsupported,
      startBroker: unsupported,
    };
  }

  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const classpath = await kafkaClasspath();
  const dir = await mkdtemp(join(tmpdir(), 'checkpoint-kafka-'));
  const [port, controllerPort, internalPort] = (await freePorts(3)) as [number, number, number];
  const logFile = join(dir, 'server.log');
  const propertiesFile = join(dir, 'server.properties');
  const log4jFile = join(dir, 'log4j2.properties');
  const mechanism = secured?.mechanism ?? 'SCRAM-SHA-512';
  const caPem = secured?.tls ? await makeCertificates(dir) : undefined;
  const clientProtocol = secured ? (secured.tls ? 'SASL_SSL' : 'SASL_PLAINTEXT') : 'PLAINTEXT';

  await writeFile(
    propertiesFile,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      ...(secured
        ? [
            // CLIENT: the tests' clients, authenticated; INTERNAL: the broker's own, plain (a
            // client is only told about the listener it came in on).
            `listeners=CLIENT://127.0.0.1:${port},INTERNAL://127.0.0.1:${internalPort},CONTROLLER://127.0.0.1:${controllerPort}`,
            `advertised.listeners=CLIENT://127.0.0.1:${port},INTERNAL://127.0.0.1:${internalPort}`,
            'inter.broker.listener.name=INTERNAL',
            `listener.security.protocol.map=CLIENT:${clientProtocol},INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT`,
            `sasl.enabled.mechanisms=${mechanism}`,
            ...(secured.superUsers
              ? [
                  'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
                  `super.users=${['ANONYMOUS', ...secured.superUsers].map((u) => `User:${u}`).join(';')}`,
                ]
              : []),
            `listener.name.client.${mechanism.toLowerCase()}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
            ...(secured.tls
              ? [
                  'listener.name.client.ssl.keystore.type=PEM',
                  `listener.name.client.ssl.keystore.location=${join(dir, 'broker.pem')}`,
                ]
              : []),
          ]
        : [
            `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
            `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
            'inter.broker.listener.name=PLAINTEXT',
            'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
          ]),
      'controller.listener.names=CONTROLLER',
      `log.dirs=${join(dir, 'data')}`,
      'auto.create.topics.enable=true',
      'num.partitions=1',
      'default.replication.factor=1',
      'min.insync.replicas=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'group.initial.rebalance.delay.ms=0',
      'share.coordinator.state.topic.replication.factor=1',
      '',
    ].join('\n'),
  );
  await writeFile(
    log4jFile,
    [
      'status=warn',
      'appender.file.type=File',
      'appender.file.name=file',
      `appender.file.fileName=${logFile}`,
      'appender.file.layout.type=PatternLayout',
      'appender.file.layout.pattern=[%d] %p %m (%c)%n',
      'rootLogger.level=WARN',
      'rootLogger.appenderRef.file.ref=file',
      'logger.raft.name=kafka.server.KafkaRaftServer',
      'logger.raft.level=INFO',
      '',
    ].join('\n'),
  );

  const javaArgs = [
    '-Xmx512m',
    '-Xms128m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    `-Dlog4j2.configurationFile=${log4jFile}`,
    '-cp',
    classpath,
  ];
  const clusterId = newClusterId();
  await execFileAsync(
    'java',
    [
      ...javaArgs,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      clusterId,
      '-c',
      propertiesFile,
      '--ignore-formatted',
      ...(secured?.users ?? []).flatMap((user) => [
        '--add-scram',
        `${mechanism}=[name=${user.name},password=${user.password}]`,
      ]),
    ],
    {
      timeout: startTimeoutMs,
    },
  );

  let child: ChildProcess | undefined;
  let watchdog: ChildProcess | undefined;
  let removed = false;

  const killNow = () => {
    child?.kill('SIGKILL');
    watchdog?.kill('SIGKILL');
    if (!removed) {
      removed = true;
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once('exit', killNow);

  const startBroker = async () => {
    if (child) return;
    const out = openSync(join(dir, 'stdout.log'), 'a');
    const proc = spawn('java', [...javaArgs, 'kafka.Kafka', propertiesFile], { stdio: ['ignore', out, out] });
    closeSync(out);
    child = proc;
    proc.once('exit', () => {
      if (child === proc) child = undefined;
    });
    // If this test process is killed hard (no exit hook), the watchdog takes the broker down.
    watchdog?.kill('SIGKILL');
    watchdog = spawn(
      'sh',
      [
        '-c',
        `while kill -0 ${process.pid} 2>/dev/null; do kill -0 ${proc.pid} 2>/dev/null || exit 0; sleep 2; done; kill -9 ${proc.pid} 2>/dev/null; rm -rf '${dir}'`,
      ],
      { stdio: 'ignore', detached: true },
    );
    watchdog.unref();
    // The plain listener answers as soon as the broker serves requests (the client one may need a TLS handshake).
    await waitUntilReady(proc, secured ? internalPort : port, logFile, startTimeoutMs);
  };

  const stopBroker = async () => {
    const proc = child;
    if (!proc) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    watchdog?.kill('SIGKILL');
    watchdog = undefined;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    child = undefined;
  };

  try {
    await startBroker();
  } catch (error) {
    killNow();
    throw error;
  }

  return {
    brokers: `127.0.0.1:${port}`,
    ...(caPem ? { caPem } : {}),
    external: false,
    startBroker,
    stopBroker,
    stop: async () => {
      await stopBroker().catch(() => {});
      process.removeListener('exit', killNow);
      killNow();
    },
  };
}

/**
 * A CA and, signed by it, a certificate for 127.0.0.1 with its unencrypted PKCS#8 key, written
 * together to `broker.pem` (Kafka's PEM key store); returns the CA's PEM.
 */
async function makeCertificates(dir: string): Promise<string> {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileAsync('openssl', args, { timeout: 30_000 });
  await openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=checkpoint-test-ca',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
  );
  await writeFile(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  await openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    file('broker.key'),
    '-out',
    file('broker.csr'),
  );
  await openssl(
    'x509',
    '-req',
    '-in',
    file('broker.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('san.ext'),
    '-out',
    file('broker.crt'),
  );
  await openssl('pkcs8', '-topk8', '-nocrypt', '-in', file('broker.key'), '-out', file('broker.pk8'));
  const [key, cert, ca] = await Promise.all(
    ['broker.pk8', 'broker.crt', 'ca.crt'].map((n) => readFile(file(n), 'utf8')),
  );
  await writeFile(file('broker.pem'), `${key}${cert}${ca}`);
  return ca!;
}

/** Resolves the broker's classpath with Maven once and caches it under `.cache/`. */
async function kafkaClasspath(): Promise<string> {
  const cacheIsFresh = existsSync(classpathFile) && statSync(classpathFile).mtimeMs >= statSync(pomPath).mtimeMs;
  if (!cacheIsFresh) {
    mkdirSync(join(repoRoot, '.cache'), { recursive: true });
    // Several test workers may race here: each writes its own file and renames it into place.
    const tmp = `${classpathFile}.${process.pid}.tmp`;
    await execFileAsync('mvn', ['-q', '-B', '-f', pomPath, 'dependency:build-classpath', `-Dmdep.outputFile=${tmp}`], {
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    await rename(tmp, classpathFile);
  }
  const classpath = (await readFile(classpathFile, 'utf8')).trim();
  if (!classpath) throw new Error(`empty Kafka classpath in ${classpathFile}`);
  return classpath;
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve(server));
      });
    }),
  );
  const ports = servers.map((server) => {
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

async function waitUntilReady(proc: ChildProcess, port: number, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(
        `Kafka broker exited during start (code ${proc.exitCode}); see ${logFile}:\n${await tail(logFile)}`,
      );
    }
    // The port opens a little before the broker serves requests; the log line marks the end of startup.
    const started = (await tail(logFile)).includes('Kafka Server started');
    if (started && (await canConnect(port))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  proc.kill('SIGKILL');
  throw new Error(`Kafka broker did not start within ${timeoutMs} ms:\n${await tail(logFile)}`);
}

async function tail(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).slice(-4000);
  } catch {
    return '';
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
