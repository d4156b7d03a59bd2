// A Postgres outage is an outage, not a bug: while the database cannot be
// reached, every route of every service answers 503 `unavailable` with Retry-After (or a 4xx that
// needs no database), never 500 `internal`; each service's /readyz says 503 and /healthz stays 200;
// once the database is back, they are ready again and serve. The backend reaches Postgres through a
// TCP relay in this test, which is cut (open connections reset, new ones refused) and restored.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@checkpoint/service-kit';
import { startMailCatcher, startPostgres, type MailCatcher, type PostgresHandle } from '@checkpoint/testkit';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import { runMakeAdmin } from '../../services/identity/src/cli/make-admin.command.ts';
import { Client, eventually, signUp, type ClassJson } from './helpers.ts';

/** A TCP relay to Postgres that can be cut and restored on the same port. */
class CuttableRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Resets every open connection and refuses new ones (ECONNREFUSED). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = new Promise((resolve) => server?.close(resolve));
    for (const s of this.sockets) s.resetAndDestroy();
    await closed;
  }
}

let backend: AllInOne;
let postgres: PostgresHandle;
let mail: MailCatcher;
let relay: CuttableRelay;
let teacher: Client;
let student: Client;
let admin: Client;
let cls: ClassJson;

beforeAll(async () => {
  [postgres, mail] = await Promise.all([startPostgres(), startMailCatcher()]);
  const target = new URL(postgres.url);
  relay = new CuttableRelay(target.hostname, Number(target.port || 5432));
  await relay.open();
  const viaRelay = new URL(postgres.url);
  viaRelay.hostname = '127.0.0.1';
  viaRelay.port = String(relay.port);
  backend = await startAllInOne({
    postgresUrl: viaRelay.toString(),
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('e2e', 'silent'),
    env: {
      LOG_LEVEL: 'silent',
      SMTP_URL: mail.url,
    },
  });
  [teacher, student] = await Promise.all([
    signUp({ url: backend.url, mail }, 'teacher'),
    signUp({ url: backend.url, mail }, 'student'),
  ]);
  // A district's admin too: the district routes answer teachers and students 403 before any query.
  const domain = `outage-${randomUUID().slice(0, 8)}.example.org`;
  const db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
  await db.query(
    `insert into identity.tenants (id, name, kind, email_domains) values (gen_random_uuid(), 'Outage District', 'district', $1)`,
    [[domain]],
  );
  await db.end();
  const adminEmail = (await signUp({ url: backend.url, mail }, 'teacher', { domain })).user!.email;
  const lines: string[] = [];
  const made = await runMakeAdmin(
    [adminEmail],
    { DATABASE_URL: postgres.url },
    { log: (l) => lines.push(l), error: (l) => lines.push(l) },
  );
  if (made !== 0) throw new Error(`make-admin: ${lines.join('\n')}`);
  admin = new Client(backend.url);
  const signedIn = await admin.post('/api/auth/simple-login', { email: adminEmail, password: 'correct horse battery' });
  expect(signedIn.status).toBe(200);
  admin.user = signedIn.body.user;
  cls = (await teacher.post('/api/classes', { name: 'Outage', subject: 'Science', period: '1' })).body;
  expect((await student.post('/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await backend?.stop();
  await relay?.cut();
  await Promise.all([postgres?.stop(), mail?.stop()]);
});

interface Operation {
  method: string;
  path: string;
}

/** Every operation of the merged OpenAPI document, its path parameters filled. */
async function operations(): Promise<Operation[]> {
  const doc = (await teacher.get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      // Signing out ends the session at the gateway whatever identity answers: the calls after it
      // would be 401 for that reason alone.
      if (template === '/api/auth/logout') continue;
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) =>
        name === 'classId' || name === 'id'
          ? template.startsWith('/api/classes')
            ? cls.id
            : randomUUID()
          : randomUUID(),
      );
      ops.push({ method: method.toUpperCase(), path });
    }
  }
  return ops;
}

const readyz = (url: string) => fetch(new URL('/readyz', url)).then((r) => r.status);
const healthz = (url: string) => fetch(new URL('/healthz', url)).then((r) => r.status);

describe('Postgres outage', () => {
  it('when Postgres cannot be reached, then every route of every service answers 503 with Retry-After or a 4xx, never 500; /readyz is 503 and /healthz 200; then all recover', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(50);
    await relay.cut();

    for (const s of backend.services) {
      expect(await healthz(s.url), `${s.name} /healthz`).toBe(200);
      expect(await readyz(s.url), `${s.name} /readyz`).toBe(503);
    }
    // The all-in-one's process cannot serve an /api call either: its /readyz (the gateway's, which
    // Kubernetes probes) says so, as a service's does. A gateway on its own stays ready (gateway tests).
    expect(await readyz(backend.url)).toBe(503);

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let unavailable = 0;
    for (const who of [teacher, student, admin]) {
      for (const op of ops) {
        // A copy of the session: an answer's Set-Cookie (cleared cookies) does not carry over to the next call.
        const caller = new Client(who.baseUrl);
        for (const [name, value] of who.cookies) caller.cookies.set(name, value);
        const reply = await caller.request(op.method, op.path, op.method === 'GET' ? undefined : {});
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        const line = `${who.user!.role} ${op.method} ${op.path}: ${reply.status} ${JSON.stringify(reply.body)}`;
        if (reply.status >= 500 && reply.status !== 503) failures.push(line);
        if (reply.status === 503) {
          unavailable++;
          if (!(Number(reply.headers.get('retry-after')) > 0)) failures.push(`${line} without Retry-After`);
          if ((reply.body as { code?: string })?.code !== 'unavailable') failures.push(`${line}: code not unavailable`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Most routes need the database: the outage was met, not dodged by validation errors.
    expect(unavailable, JSON.stringify([...statuses])).toBeGreaterThan(ops.length / 2);

    await relay.open();
    for (const url of [...backend.services.map((s) => s.url), backend.url])
      await eventually(
        () => readyz(url),
        (status) => status === 200,
        30_000,
      );
    const after = await eventually(
      () => teacher.get(`/api/classes/${cls.id}`),
      (r) => r.status === 200,
      30_000,
    );
    expect(after.body.id).toBe(cls.id);
  }, 240_000);
});
