// The class service's part in privacy operations (docs/adr/009) on real Postgres: a deleted
// student's results leave the class's level counts (recounted from what remains) and their id is
// in no table; retention deletes a district's old results and recounts too.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentCreatedSchema,
  buildHeaders,
  create,
  ResultSubmittedSchema,
  TenantRetentionChangedSchema,
  toBinary,
  topicFor,
  UserDeletedSchema,
} from '@checkpoint/events';
import { createLogger, RetentionJob } from '@checkpoint/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classPrivacy } from '../src/messaging/privacy.consumer.ts';
import { actor, call, startClassService, VALID_CLASS, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startClassService();
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

/** A class of a new district with two students' results: s1 below (old), s2 above (recent). */
async function classWithResults() {
  const tenant = randomUUID();
  const teacher = actor('teacher', tenant);
  const classId = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body.id as string;
  const assessmentId = randomUUID();
  await publish(AssessmentCreatedSchema, { assessmentId, tenantId: tenant, classId }, assessmentId, tenant);
  const [s1, s2] = [randomUUID(), randomUUID()];
  const submit = (studentId: string, level: string, at: Date) =>
    publish(
      ResultSubmittedSchema,
      {
        resultId: randomUUID(),
        assessmentId,
        tenantId: tenant,
        classId,
        studentId,
        level,
        submittedAt: timestampFromDate(at),
      },
      assessmentId,
      tenant,
    );
  await submit(s1, 'below', new Date(Date.now() - 100 * 86_400_000));
  await submit(s2, 'above', new Date());
  const counts = async () => {
    const c = (await call(h, teacher, 'GET', `/api/classes/${classId}`)).body;
    return { below: c.belowStandard, at: c.atStandard, above: c.aboveStandard };
  };
  expect(await counts()).toEqual({ below: 1, at: 0, above: 1 });
  return { tenant, classId, s1, s2, counts };
}

async function found(id: string): Promise<number> {
  const { rows } = await h.sql.query<{ t: string; c: string }>(
    `select table_name as t, column_name as c from information_schema.columns
      where table_schema = current_schema() and data_type <> 'bytea'`,
  );
  let n = 0;
  for (const r of rows) {
    const { rows: x } = await h.sql.query(
      `select count(*)::int as n from "${r.t}" where strpos("${r.c}"::text, $1) > 0`,
      [id],
    );
    n += x[0].n;
  }
  return n;
}

describe('privacy operations in the class service', () => {
  it('when a student is deleted, then their results leave the counts and their id is in no table', async () => {
    const c = await classWithResults();
    await publish(UserDeletedSchema, { userId: c.s1, tenantId: c.tenant, requestId: randomUUID() }, c.s1, c.tenant);
    expect(await c.counts()).toEqual({ below: 0, at: 0, above: 1 });
    expect(await found(c.s1)).toBe(0);
    expect(await found(c.s2)).toBeGreaterThan(0);
  });

  it('when the district keeps 30 days and the job runs, then the old result goes and the counts follow', async () => {
    const c = await classWithResults();
    await publish(TenantRetentionChangedSchema, { tenantId: c.tenant, retentionDays: 30 }, c.tenant, c.tenant);
    const job = new RetentionJob(h.sql, classPrivacy, {
      intervalMs: 1000,
      logger: createLogger('test', 'silent'),
      now: () => new Date(Date.now() + 60_000),
    });
    expect(await job.runIfDue()).toBe(1);
    expect(await c.counts()).toEqual({ below: 0, at: 0, above: 1 });
  });
});
