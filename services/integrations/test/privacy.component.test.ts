// The integrations service's part in privacy operations (docs/adr/009) on real Postgres: a
// district's deletion removes its registrations and launches (LMS user ids, course titles) and
// answers; retention deletes the district's old launches; a student's deletion is answered (no
// row of this service names a Checkpoint user yet, docs/adr/014-lti.md).
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import {
  buildHeaders,
  create,
  fromBinary,
  SubjectDataErasedSchema,
  TenantDeletedSchema,
  TenantRetentionChangedSchema,
  toBinary,
  topicFor,
  UserDeletedSchema,
  type BusMessage,
} from '@checkpoint/events';
import { createLogger, RetentionJob } from '@checkpoint/service-kit';
import { eventually } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationsPrivacy } from '../src/messaging/privacy.consumer.ts';
import { actor, call, platformRegistration, startIntegrationsService, type Harness } from './helpers.ts';

let h: Harness;
const sent: BusMessage[] = [];

beforeAll(async () => {
  h = await startIntegrationsService();
  await h.bus.subscribe({
    groupId: 'test-identity',
    topics: ['checkpoint.privacy.v1'],
    handler: async (m) => void sent.push(m),
  });
});
afterAll(async () => {
  await h?.stop();
});

async function publish<D extends DescMessage>(schema: D, init: MessageInitShape<D>, key: string, tenant: string) {
  await h.bus.publish([
    {
      topic: topicFor(schema),
      key,
      value: toBinary(schema, create(schema, init)),
      headers: buildHeaders({
        id: randomUUID(),
        type: schema.typeName,
        source: 'test',
        time: new Date(),
        tenantId: tenant,
      }),
    },
  ]);
}

/** A district with a registration and two launches: one 100 days old, one today. */
async function districtWithLaunches() {
  const tenant = randomUUID();
  const reg = (
    await call(h, actor('admin', tenant), 'POST', '/api/integrations/lti/registrations', platformRegistration())
  ).body;
  // A pending dynamic registration link of the district.
  expect((await call(h, actor('admin', tenant), 'POST', '/api/integrations/lti/registration-links')).status).toBe(201);
  for (const days of [100, 0])
    await h.sql.query(
      `insert into lti_launches (id, tenant_id, registration_id, deployment_id, lms_user_id, roles, context_id,
                                 context_title, resource_link_id, target_link_uri, launched_at)
       values ($1, $2, $3, 'deployment-1', $4, '{http://purl.imsglobal.org/vocab/lis/v2/membership#Learner}',
               'course-1', 'Biology 7', 'link-1', 'https://checkpoint.test/', now() - $5 * interval '1 day')`,
      [randomUUID(), tenant, reg.id, `lms-user-${days}`, days],
    );
  const count = async (table: string) =>
    (await h.sql.query<{ n: number }>(`select count(*)::int as n from ${table} where tenant_id = $1`, [tenant]))
      .rows[0]!.n;
  return { tenant, count };
}

/** The SubjectDataErased answers of a request, once the service has sent one. */
const answers = (requestId: string) =>
  eventually(
    async () =>
      sent
        .filter((m) => m.headers.ce_type === 'checkpoint.privacy.v1.SubjectDataErased')
        .map((m) => fromBinary(SubjectDataErasedSchema, m.value))
        .filter((a) => a.requestId === requestId),
    (a) => a.length > 0,
  );

describe('privacy operations in the integrations service', () => {
  it('when a district is deleted, then its registrations, launches and registration links go and the answer counts them', async () => {
    const d = await districtWithLaunches();
    const other = await districtWithLaunches();
    const requestId = randomUUID();
    await publish(TenantDeletedSchema, { tenantId: d.tenant, requestId, userIds: [] }, d.tenant, d.tenant);
    expect(await d.count('lti_registrations')).toBe(0);
    expect(await d.count('lti_launches')).toBe(0);
    expect(await d.count('lti_registration_links')).toBe(0);
    expect(await other.count('lti_launches')).toBe(2);
    expect(await other.count('lti_registration_links')).toBe(1);
    const [answer] = await answers(requestId);
    expect(answer).toMatchObject({ service: 'integrations', scope: 'tenant' });
    // Launches go with their registration (on delete cascade): the sweep may count only the registration.
    expect(Number(answer!.rows)).toBeGreaterThanOrEqual(1);
  });

  it('when a student is deleted, then the launches that signed them in go, and nobody else’s', async () => {
    const d = await districtWithLaunches();
    const userId = randomUUID();
    // One launch signed the student in (ADR 014: lti_launches.user_id).
    await h.sql.query(`update lti_launches set user_id = $1 where tenant_id = $2 and lms_user_id = 'lms-user-0'`, [
      userId,
      d.tenant,
    ]);
    const requestId = randomUUID();
    await publish(UserDeletedSchema, { userId, tenantId: d.tenant, requestId }, userId, d.tenant);
    const [answer] = await answers(requestId);
    expect(answer).toMatchObject({ service: 'integrations', scope: 'user', rows: 1n });
    expect(await d.count('lti_launches')).toBe(1);

    const nobody = randomUUID();
    const again = randomUUID();
    await publish(UserDeletedSchema, { userId: nobody, tenantId: d.tenant, requestId: again }, nobody, d.tenant);
    expect((await answers(again))[0]).toMatchObject({ rows: 0n });
    expect(await d.count('lti_launches')).toBe(1);
  });

  it('when the district keeps 30 days and the job runs, then the old launch goes', async () => {
    const d = await districtWithLaunches();
    await publish(TenantRetentionChangedSchema, { tenantId: d.tenant, retentionDays: 30 }, d.tenant, d.tenant);
    const job = new RetentionJob(h.sql, integrationsPrivacy, {
      intervalMs: 1000,
      logger: createLogger('test', 'silent'),
      now: () => new Date(Date.now() + 60_000),
    });
    expect(await job.runIfDue()).toBe(1);
    expect(await d.count('lti_launches')).toBe(1);
    expect(await d.count('lti_registrations')).toBe(1);
  });
});
