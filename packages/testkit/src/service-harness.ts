// One service on a fresh database with an in-process bus, called the way the gateway calls it
// (a service token signed with this test process's secret), for a service's component tests.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { InProcessBus } from '@checkpoint/events';
import {
  createLogger,
  provisionServiceDatabase,
  ServiceTokens,
  startService,
  type Role,
  type RunningService,
  type ServiceDefinition,
} from '@checkpoint/service-kit';
import { startPostgres } from './postgres.ts';

/** The service token secret of the services this test process starts (random, one per process). */
export const TEST_SERVICE_TOKEN_SECRET = randomBytes(32).toString('base64url');

/** Signs like the gateway, with TEST_SERVICE_TOKEN_SECRET. */
export const testServiceTokens = new ServiceTokens(TEST_SERVICE_TOKEN_SECRET, { issuer: 'gateway' });

/**
 * The headers the gateway sends to `service` on behalf of `who` (undefined: signed out) for a
 * client at `clientAddress`.
 */
export async function gatewayHeaders(
  service: string,
  who: (Actor & { sessionId?: string }) | undefined,
  clientAddress?: string,
): Promise<Record<string, string>> {
  return testServiceTokens.headers(service, {
    caller: who && { userId: who.userId, role: who.role, tenantId: who.tenantId, sessionId: who.sessionId ?? '' },
    clientAddress,
    requestId: randomUUID(),
  });
}

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
    env: {
      DATABASE_URL: serviceDbUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
      ...env,
    },
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

/**
 * Calls the service (a Harness, or a RunningService started with TEST_SERVICE_TOKEN_SECRET) as the
 * gateway would on behalf of `who` (undefined: signed out).
 */
export async function call(
  h: { url: string; service: { name: string } } | { url: string; name: string },
  who: Actor | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const audience = 'service' in h ? h.service.name : h.name;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(await gatewayHeaders(audience, who, '127.0.0.1')),
  };
  const res = await fetch(h.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
