// Test helpers: the class service on a fresh database with an in-process bus, calls with gateway
// caller headers, identity events delivered through the bus, and direct SQL for assertions.
import { randomUUID } from 'node:crypto';
import {
  buildHeaders,
  create,
  fromBinary,
  toBinary,
  UserRegisteredSchema,
  UserUpdatedSchema,
  eventRegistry,
} from '@checkpoint/events';
import { type Role } from '@checkpoint/service-kit';
import { startServiceForTest, type Harness } from '@checkpoint/testkit';

export { actor, call, type Actor, type Harness, type Reply } from '@checkpoint/testkit';
import { classService } from '../src/index.ts';

export const startClassService = (env: Record<string, string> = {}): Promise<Harness> =>
  startServiceForTest(classService, env);

export interface UserFacts {
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email?: string;
  role: Role;
  /** Kind of the user's tenant as identity publishes it; unset: an event without the field. */
  tenantKind?: 'district' | 'school' | 'individual';
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

/**
 * Makes `who` known as a teacher of a district (School / Enterprise plan: no Free Trial limits),
 * as identity's UserRegistered would.
 */
export async function registerDistrictTeacher(
  h: Harness,
  who: { userId: string; tenantId: string },
  name: { firstName: string; lastName: string } = { firstName: 'Dee', lastName: 'Strict' },
): Promise<void> {
  await deliverUserEvent(h, 'registered', { ...who, ...name, role: 'teacher', tenantKind: 'district' });
}

export const VALID_CLASS = { name: 'Algebra I', subject: 'Math', period: '2' };
