// One request followed across three processes (docs/telemetry.md): the gateway, identity and
// class run as processes of their own (as in stack mode: real Postgres, real Kafka), exporting
// OTLP/HTTP to a receiver in this test. A sign-up's mailed link, opened through the gateway,
// reaches identity, which creates the account and writes UserRegistered to its outbox; the relay publishes it to Kafka and the class service
// consumes it. Every span of that chain must share the request's trace id: the gateway's server
// span, identity's server span, the Kafka `send` span (child of the request, whose traceparent the
// outbox row kept) and class's `process` span (child of the send span). The same processes then
// serve Prometheus metrics on their METRICS_PORT.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  startKafka,
  startMailCatcher,
  startPostgres,
  type KafkaHandle,
  type MailCatcher,
  type PostgresHandle,
} from '@checkpoint/testkit';
import { provisionServiceDatabase } from '../src/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  /** The span as received, attributes included. */
  raw: string;
}
// OTLP SpanKind: 2 server, 3 client, 4 producer, 5 consumer.
const KIND = { server: 2, producer: 4, consumer: 5 } as const;
const IDENTITY_TOPIC = 'checkpoint.identity.v1';

/** OTLP/JSON ids are hex (the spec), older exporters sent base64: both read as hex. */
const hexId = (id: unknown) =>
  typeof id !== 'string' || id === ''
    ? ''
    : /^[0-9a-f]+$/i.test(id)
      ? id.toLowerCase()
      : Buffer.from(id, 'base64').toString('hex');

/** An in-memory OTLP/HTTP (JSON) trace receiver. */
function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans?: {
            resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
            scopeSpans?: { spans?: Record<string, unknown>[] }[];
          }[];
        };
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                service,
                traceId: hexId(s.traceId),
                spanId: hexId(s.spanId),
                parentSpanId: hexId(s.parentSpanId),
                name: String(s.name),
                kind: Number(s.kind),
                raw: JSON.stringify(s),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}`, spans });
    }),
  );
}

type Name = 'identity' | 'class' | 'gateway';
const children = new Map<Name, ChildProcess>();
const output = new Map<Name, string>();
const ports = new Map<Name, { http: number; metrics: number }>();
let postgres: PostgresHandle;
let kafka: KafkaHandle;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let mail: MailCatcher;

function launch(name: Name, entry: string, env: Record<string, string>): void {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  output.set(name, '');
  const keep = (chunk: Buffer) => output.set(name, (output.get(name)! + chunk.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  children.set(name, child);
}

async function waitReady(name: Name, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const child = children.get(name)!;
    if (child.exitCode !== null) throw new Error(`${name} exited:\n${output.get(name)}`);
    const ok = await fetch(`http://127.0.0.1:${ports.get(name)!.http}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > end) throw new Error(`${name} not ready in ${timeoutMs} ms:\n${output.get(name)}`);
    await sleep(200);
  }
}

beforeAll(async () => {
  [postgres, kafka, receiver, mail] = await Promise.all([
    startPostgres(),
    startKafka(),
    startReceiver(),
    startMailCatcher(),
  ]);
  for (const name of ['identity', 'class', 'gateway'] as const)
    ports.set(name, { http: await freePort(), metrics: await freePort() });
  const secret = randomBytes(32).toString('base64url');
  const gatewayUrl = `http://127.0.0.1:${ports.get('gateway')!.http}`;
  const common = (name: Name) => ({
    HOST: '127.0.0.1',
    PORT: String(ports.get(name)!.http),
    METRICS_PORT: String(ports.get(name)!.metrics),
    LOG_LEVEL: 'info',
    SERVICE_TOKEN_SECRET: secret,
    PUBLIC_URL: gatewayUrl,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    // Export every 100 ms instead of every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  for (const service of ['identity', 'class'] as const)
    launch(service, `services/${service}/src/main.ts`, {
      ...common(service),
      DATABASE_URL: await provisionServiceDatabase(postgres.url, service),
      KAFKA_BROKERS: kafka.brokers,
      DEMO_SEED: 'false',
      SMTP_URL: mail.url,
    });
  launch('gateway', 'gateway/src/main.ts', {
    ...common('gateway'),
    IDENTITY_URL: `http://127.0.0.1:${ports.get('identity')!.http}`,
    CLASS_URL: `http://127.0.0.1:${ports.get('class')!.http}`,
  });
  await Promise.all((['identity', 'class', 'gateway'] as const).map((n) => waitReady(n, 90_000)));
}, 180_000);

afterAll(async () => {
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }),
    ),
  );
  await new Promise((r) => receiver?.server.close(r));
  await kafka?.stop();
  await postgres?.stop();
  await mail?.stop();
}, 60_000);

/** A POST through the gateway as a signed-out browser sends it (CSRF double submit). */
async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const csrf = randomBytes(16).toString('hex');
  const res = await fetch(`http://127.0.0.1:${ports.get('gateway')!.http}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `cp_csrf=${csrf}`, 'x-csrf-token': csrf },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A password sign-up (202, a link mailed) and its link opened (201: the account is made): both statuses. */
async function signUp(email: string): Promise<{ signUpStatus: number; openedStatus: number }> {
  const signUpStatus = (
    await post('/api/auth/simple-signup', {
      firstName: 'Tracy',
      lastName: 'Trace',
      email,
      password: 'correct horse battery staple',
      role: 'teacher',
    })
  ).status;
  const sent = await mail.waitFor((m) => m.to.includes(email), 30_000);
  const link = new URL(mail.links(sent).find((l) => new URL(l).pathname === '/verify-email')!);
  const opened = await post('/api/auth/email/verify', { token: link.searchParams.get('token') });
  return { signUpStatus, openedStatus: opened.status };
}

describe('telemetry across processes', () => {
  it('when a sign-up link opened goes gateway → identity → outbox → Kafka → class, then one trace holds the spans of all three processes, producer and consumer included', async () => {
    const statuses = await signUp(`tracy.${randomBytes(4).toString('hex')}@example.com`);
    expect(statuses).toEqual({ signUpStatus: 202, openedStatus: 201 });

    // The gateway's server span of the opened link (which makes the account) roots the trace.
    const deadline = Date.now() + 45_000;
    let trace: ReceivedSpan[];
    for (;;) {
      const root = receiver.spans.find(
        (s) =>
          s.service === 'gateway' &&
          s.kind === KIND.server &&
          s.parentSpanId === '' &&
          s.raw.includes('/api/auth/email/verify'),
      );
      trace = root ? receiver.spans.filter((s) => s.traceId === root.traceId) : [];
      const done = trace.some(
        (s) => s.service === 'class' && s.kind === KIND.consumer && s.name === `process ${IDENTITY_TOPIC}`,
      );
      if (done || Date.now() > deadline) break;
      await sleep(250);
    }
    const summary = trace.map((s) => `${s.service}:${s.kind}:${s.name}`);
    expect(new Set(trace.map((s) => s.service))).toEqual(new Set(['gateway', 'identity', 'class']));
    const identityServer = trace.find((s) => s.service === 'identity' && s.kind === KIND.server);
    const send = trace.find((s) => s.service === 'identity' && s.kind === KIND.producer);
    const consumed = trace.find((s) => s.service === 'class' && s.kind === KIND.consumer);
    expect(identityServer, summary.join('\n')).toBeDefined();
    expect(send?.name, summary.join('\n')).toBe(`send ${IDENTITY_TOPIC}`);
    expect(consumed?.name, summary.join('\n')).toBe(`process ${IDENTITY_TOPIC}`);
    // The consumer's span is the child of the producer's: the Kafka header carried the send span.
    expect(consumed!.parentSpanId).toBe(send!.spanId);
    // And the producer's span descends from the request (through the outbox row's traceparent).
    const ids = new Set(trace.map((s) => s.spanId));
    expect(ids.has(send!.parentSpanId)).toBe(true);

    // The logs of the request carry its trace id (pino mixin): identity logs the link's 201 at debug
    // only, so look for any identity line of that trace.
    const traceId = send!.traceId;
    const lines = (output.get('gateway') ?? '')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { trace_id?: string; span_id?: string; req?: { path?: string } });
    const accessLine = lines.find((l) => l.req?.path === '/api/auth/email/verify');
    expect(accessLine?.trace_id).toBe(traceId);
    expect(accessLine?.span_id).toMatch(/^[0-9a-f]{16}$/);
  }, 120_000);

  it('when an internet client names a trace in traceparent, then the gateway starts its own trace, and identity continues the gateway one', async () => {
    const clientTrace = randomBytes(16).toString('hex');
    const res = await fetch(`http://127.0.0.1:${ports.get('gateway')!.http}/api/auth/user?probe=edge`, {
      headers: { traceparent: `00-${clientTrace}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(res.status).toBe(401);
    const deadline = Date.now() + 30_000;
    const gatewaySpan = () =>
      receiver.spans.find((s) => s.service === 'gateway' && s.kind === KIND.server && s.raw.includes('probe=edge'));
    while (!gatewaySpan() && Date.now() < deadline) await sleep(250);
    const span = gatewaySpan();
    expect(span).toBeDefined();
    expect(span!.traceId).not.toBe(clientTrace);
    expect(span!.parentSpanId).toBe('');
    expect(receiver.spans.some((s) => s.traceId === clientTrace)).toBe(false);
    // Behind the gateway the trace goes on: identity's span of the call is in the gateway's trace.
    while (
      !receiver.spans.some((s) => s.service === 'identity' && s.traceId === span!.traceId) &&
      Date.now() < deadline
    )
      await sleep(250);
    expect(receiver.spans.some((s) => s.service === 'identity' && s.traceId === span!.traceId)).toBe(true);
  });

  it('when a request carries a secret in its path or query, then no span of any process and no log line holds it', async () => {
    const pathSecret = `path${randomBytes(16).toString('hex')}`;
    const querySecret = `query${randomBytes(16).toString('hex')}`;
    const gatewayUrl = `http://127.0.0.1:${ports.get('gateway')!.http}`;
    // An invitation's token in the path; a mailed link's token and a sign-in callback's code in the query.
    const invitation = await fetch(
      `${gatewayUrl}/api/auth/invitations/${pathSecret}?token=${querySecret}&key=${querySecret}`,
    );
    expect(invitation.status).toBe(404);
    const callback = await fetch(`${gatewayUrl}/api/auth/google/callback?code=${querySecret}&state=${querySecret}`, {
      redirect: 'manual',
    });
    expect(callback.status).toBeLessThan(500);

    // Both requests' spans are exported: the gateway's and identity's server spans of each.
    const deadline = Date.now() + 30_000;
    const spansOf = (path: string) => receiver.spans.filter((s) => s.kind === KIND.server && s.raw.includes(path));
    while (
      (spansOf('/api/auth/invitations/').length < 2 || spansOf('/api/auth/google/callback').length < 2) &&
      Date.now() < deadline
    )
      await sleep(250);
    expect(
      spansOf('/api/auth/invitations/{token}')
        .map((s) => s.service)
        .sort(),
    ).toEqual(['gateway', 'identity']);
    expect(
      spansOf('/api/auth/google/callback')
        .map((s) => s.service)
        .sort(),
    ).toEqual(['gateway', 'identity']);
    for (const span of receiver.spans) {
      expect(span.raw).not.toContain(pathSecret);
      expect(span.raw).not.toContain(querySecret);
    }
    for (const name of ['gateway', 'identity'] as const) {
      expect(output.get(name)).toContain('/api/auth/invitations/{token}');
      expect(output.get(name)).not.toContain(pathSecret);
      expect(output.get(name)).not.toContain(querySecret);
    }
  });

  it('when the processes have served requests, then each serves Prometheus metrics on METRICS_PORT: request durations by route template, pool use, outbox backlog, consumer lag', async () => {
    const scrape = async (name: Name) => {
      const res = await fetch(`http://127.0.0.1:${ports.get(name)!.metrics}/metrics`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const identity = await scrape('identity');
    expect(identity).toMatch(
      /http_server_request_duration_seconds_count\{service="identity",method="POST",route="\/api\/auth\/simple-signup",status_code="202"\} [1-9]/,
    );
    expect(identity).toMatch(
      /http_server_request_duration_seconds_count\{service="identity",method="POST",route="\/api\/auth\/email\/verify",status_code="201"\} [1-9]/,
    );
    expect(identity).toMatch(/checkpoint_db_pool_connections\{service="identity",state="idle"\} \d+/);
    expect(identity).toMatch(/checkpoint_db_pool_max_connections\{service="identity"\} 10/);
    expect(identity).toMatch(/checkpoint_outbox_unpublished_events\{service="identity"\} \d+/);
    expect(identity).toMatch(/checkpoint_outbox_oldest_unpublished_age_seconds\{service="identity"\} [\d.e+-]+/);
    expect(identity).toMatch(/checkpoint_outbox_published_events_total\{service="identity"\} [1-9]/);
    expect(identity).toMatch(/process_cpu_seconds_total \d/);

    // class consumed identity's topic: its group's lag is known per partition, and 0 once caught up.
    const end = Date.now() + 30_000;
    let classText: string;
    for (;;) {
      classText = await scrape('class');
      const lags = [
        ...classText.matchAll(/checkpoint_kafka_consumer_lag\{[^}]*topic="checkpoint\.identity\.v1"[^}]*\} (\d+)/g),
      ];
      if ((lags.length > 0 && lags.every((m) => m[1] === '0')) || Date.now() > end) break;
      await sleep(500);
    }
    expect(classText).toMatch(
      /checkpoint_kafka_consumer_lag\{service="class",group="class",topic="checkpoint\.identity\.v1",partition="\d"\} 0/,
    );
    expect(classText).toMatch(
      /checkpoint_kafka_dead_letter_messages\{service="class",topic="checkpoint\.identity\.v1"\} 0/,
    );
    expect(classText).toMatch(/checkpoint_event_bus_ready\{service="class"\} 1/);

    // The gateway labels API calls by the service they went to, never by raw path.
    const gateway = await scrape('gateway');
    expect(gateway).toMatch(
      /http_server_request_duration_seconds_count\{service="gateway",method="POST",route="\/api \(identity\)",status_code="201"\} [1-9]/,
    );
    expect(gateway).not.toMatch(/route="\/api\/auth\/simple-signup"/);
  });
});
