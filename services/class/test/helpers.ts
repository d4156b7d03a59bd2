// Test helpers: the class service on a fresh database with an in-process bus, calls with gateway
// caller headers, identity events delivered through the bus, and direct SQL for assertions.
import { randomUUID } from 'node:crypto';
import {
  buildHeaders,
  create,
  fromBinary,
  InProcessBus,
  toBinary,
  UserRegisteredSchema,
  UserUpdatedSchema,
  eventRegistry,
} from '@checkpoint/events';
import {
  CALLER_HEADERS,
  createLogger,
  provisionServiceDatabase,
  startService,
  type Role,
  type RunningService,
} from '@checkpoint/service-kit';
import { startPostgres } from '@checkpoint/testkit';
import pg from 'pg';
import { classService } from '../src/index.ts';

export interface Harness {
  service: RunningService;
  bus: InProcessBus;
  /** Pool on the service's schema, as the service's own role. */
  sql: pg.Pool;
  url: string;
  serviceDbUrl: string;
  stop(): Promise<void>;
}

export async function startClassService(env: Record<string, string> = {}): Promise<Harness> {
  const postgres = await startPostgres();
  const serviceDbUrl = await provisionServiceDatabase(postgres.url, 'class');
  const bus = new InProcessBus();
  const service = await startService(classService, {
    env: { DATABASE_URL: serviceDbUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    bus,
    logger: createLogger('class', 'silent'),
  });
  const sql = new pg.Pool({ connectionString: serviceDbUrl, options: '-c search_path=class', max: 4 });
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

/** Calls the service as the gateway would on behalf of `who` (undefined: signed out). */
export async function call(
  h: Harness,
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

export interface Reply {
  status: number;
  // Arbitrary JSON under test: the assertions check its shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

export interface UserFacts {
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email?: string;
  role: Role;
}

/** Delivers an identity user event through the bus as identity's relay would; returns its id. */
export async function deliverUserEvent(
  h: Harness,
  kind: 'registered' | 'updated',
  user: UserFacts,
  eventId: string = randomUUID(),
): Promise<string> {
  const schema = kind === 'registered' ? UserRegisteredSchema : UserUpdatedSchema;
  const message = create(schema, { ...user, email: user.email ?? `${user.userId}@example.test` });
  await h.bus.publish([
    {
      topic: 'checkpoint.identity.v1',
      key: user.userId,
      value: toBinary(schema, message),
      headers: buildHeaders({
        id: eventId,
        type: schema.typeName,
        source: 'identity',
        time: new Date(),
        tenantId: user.tenantId,
      }),
    },
  ]);
  return eventId;
}

/** The outbox rows (decoded) for one class id, oldest first. */
export async function outboxFor(
  h: Harness,
  classId: string,
): Promise<{ type: string; tenantId: string; message: Record<string, unknown> }[]> {
  const { rows } = await h.sql.query<{ type: string; tenant_id: string; payload: Buffer }>(
    'select type, tenant_id, payload from outbox where key = $1 order by created_at, id',
    [classId],
  );
  return rows.map((r) => {
    const schema = eventRegistry.getMessage(r.type);
    if (!schema) throw new Error(`unknown type ${r.type}`);
    return { type: r.type, tenantId: r.tenant_id, message: fromBinary(schema, r.payload) };
  });
}

export const VALID_CLASS = { name: 'Algebra I', subject: 'Math', period: '2' };
