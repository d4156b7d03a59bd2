// One service on a fresh database with an in-process bus, called the way the gateway calls it
// (caller headers), for a service's component tests.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { InProcessBus } from '@checkpoint/events';
import {
  CALLER_HEADERS,
  createLogger,
  provisionServiceDatabase,
  startService,
  type Role,
  type RunningService,
  type ServiceDefinition,
} from '@checkpoint/service-kit';
import { startPostgres } from './postgres.ts';

export interface Harness {
  service: RunningService;
  bus: InProcessBus;
  /** Pool on the service's schema, as the service's own role. */
  sql: pg.Pool;
  url: string;
  serviceDbUrl: string;
  stop(): Promise<void>;
}

export async function startServiceForTest(def: ServiceDefinition, env: Record<string, string> = {}): Promise<Harness> {
  const postgres = await startPostgres();
  const serviceDbUrl = await provisionServiceDatabase(postgres.url, def.name);
  const bus = new InProcessBus();
  const service = await startService(def, {
    env: { DATABASE_URL: serviceDbUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    bus,
    logger: createLogger(def.name, 'silent'),
  });
  const sql = new pg.Pool({ connectionString: serviceDbUrl, options: `-c search_path=${def.name}`, max: 4 });
  // pool.end() resolves before its clients' sockets close; Postgres stopping right after must not
  // surface as an unhandled error of the test run.
  sql.on('error', () => {});
  return {
    service,
    bus,
    sql,
    url: service.url,
    serviceDbUrl,
    stop: async () => {
      await bus.stop();
      await service.stop();
      await sql.end();
      await postgres.stop();
    },
  };
}

export interface Actor {
  userId: string;
  tenantId: string;
  role: Role;
}

export const actor = (role: Role, tenantId: string = randomUUID()): Actor => ({ userId: randomUUID(), tenantId, role });

export interface Reply {
  status: number;
  // Arbitrary JSON under test: the assertions check its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

/** Calls the service as the gateway would on behalf of `who` (undefined: signed out). */
export async function call(
  h: { url: string },
  who: Actor | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (who) {
    headers[CALLER_HEADERS.userId] = who.userId;
    headers[CALLER_HEADERS.role] = who.role;
    headers[CALLER_HEADERS.tenantId] = who.tenantId;
  }
  const res = await fetch(h.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
