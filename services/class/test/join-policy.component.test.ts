// A district's join policy (docs/security.md, finding 10): identity's TenantJoinPolicyChanged is kept per
// tenant; a district that allows its own classes only has its students' joins by code to another
// tenant's class refused (403 join_restricted), while its own classes stay open to them.
import { randomUUID } from 'node:crypto';
import { buildHeaders, create, TenantJoinPolicyChangedSchema, timestampFromDate, toBinary } from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_RESTRICTED } from '../src/domain/errors.ts';
import { actor, call, deliverUserEvent, startClassService, VALID_CLASS, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startClassService();
});
afterAll(async () => {
  await h?.stop();
});

async function deliverPolicy(
  tenantId: string,
  ownClassesOnly: boolean,
  at = new Date(),
  eventId: string = randomUUID(),
): Promise<string> {
  const message = create(TenantJoinPolicyChangedSchema, {
    tenantId,
    ownClassesOnly,
    occurredAt: timestampFromDate(at),
  });
  await h.bus.publish([
    {
      topic: 'checkpoint.identity.v1',
      key: tenantId,
      value: toBinary(TenantJoinPolicyChangedSchema, message),
      headers: buildHeaders({
        id: eventId,
        type: TenantJoinPolicyChangedSchema.typeName,
        source: 'identity',
        time: at,
        tenantId,
      }),
    },
  ]);
  return eventId;
}

async function classOfAnotherTenant(): Promise<{ joinCode: string; id: string }> {
  const teacher = actor('teacher');
  return (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body;
}

async function districtStudent(): Promise<ReturnType<typeof actor>> {
  const s = actor('student', randomUUID());
  await deliverUserEvent(h, 'registered', { ...s, firstName: 'Ada', lastName: 'Lovelace', tenantKind: 'district' });
  return s;
}

const policyOf = async (tenantId: string) =>
  (await h.sql.query('select own_classes_only from tenant_join_policies where tenant_id = $1', [tenantId])).rows.map(
    (r) => r.own_classes_only,
  );

describe('a district join policy', () => {
  it('when the district allows its own classes only, then a join by code to another tenant is refused with 403 join_restricted', async () => {
    const s = await districtStudent();
    await deliverPolicy(s.tenantId, true);
    const cls = await classOfAnotherTenant();
    const r = await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'join_restricted', message: JOIN_RESTRICTED });
    expect((await call(h, s, 'GET', '/api/student/classes')).body).toEqual([]);
  });

  it("when the district allows its own classes only, then a class of the student's own district still joins", async () => {
    const s = await districtStudent();
    await deliverPolicy(s.tenantId, true);
    const ownTeacher = actor('teacher', s.tenantId);
    const cls = (await call(h, ownTeacher, 'POST', '/api/classes', VALID_CLASS)).body;
    expect((await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
  });

  it('when no policy is known or the district allows joins, then a class of another tenant joins', async () => {
    const s = await districtStudent();
    expect(
      (await call(h, s, 'POST', '/api/classes/join', { joinCode: (await classOfAnotherTenant()).joinCode })).status,
    ).toBe(200);
    await deliverPolicy(s.tenantId, true);
    await deliverPolicy(s.tenantId, false);
    expect(
      (await call(h, s, 'POST', '/api/classes/join', { joinCode: (await classOfAnotherTenant()).joinCode })).status,
    ).toBe(200);
  });

  it('when the district restricts joins later, then memberships made before stay', async () => {
    const s = await districtStudent();
    const cls = await classOfAnotherTenant();
    expect((await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode })).status).toBe(200);
    await deliverPolicy(s.tenantId, true);
    const mine = (await call(h, s, 'GET', '/api/student/classes')).body;
    expect(mine.map((e: { classId: string }) => e.classId)).toEqual([cls.id]);
  });

  it('when the same event arrives again or an older one arrives late, then the newest policy holds', async () => {
    const tenant = randomUUID();
    const t0 = new Date(Date.now() - 60_000);
    const first = await deliverPolicy(tenant, true, t0);
    await deliverPolicy(tenant, false, new Date());
    // Redelivery of the first (same event id), then an older event with another id: neither undoes it.
    await deliverPolicy(tenant, true, t0, first);
    await deliverPolicy(tenant, true, new Date(t0.getTime() - 1000));
    expect(await policyOf(tenant)).toEqual([false]);
  });

  it('when the event has no valid tenant id or no time, then it is acknowledged and nothing is kept', async () => {
    const before = (await h.sql.query('select count(*)::int as n from tenant_join_policies')).rows[0].n;
    await deliverPolicy('not-a-uuid', true);
    const id = randomUUID();
    await h.bus.publish([
      {
        topic: 'checkpoint.identity.v1',
        key: id,
        value: toBinary(
          TenantJoinPolicyChangedSchema,
          create(TenantJoinPolicyChangedSchema, { tenantId: id, ownClassesOnly: true }),
        ),
        headers: buildHeaders({
          id: randomUUID(),
          type: TenantJoinPolicyChangedSchema.typeName,
          source: 'identity',
          time: new Date(),
          tenantId: id,
        }),
      },
    ]);
    expect((await h.sql.query('select count(*)::int as n from tenant_join_policies')).rows[0].n).toBe(before);
  });
});
