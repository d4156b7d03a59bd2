// assessment's events → the class counts (assessmentCount, below/at/above by each student's
// latest level), idempotent under redelivery.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentCreatedSchema,
  AssessmentDeletedSchema,
  buildHeaders,
  CountedResultChangedSchema,
  create,
  ResultLevelRaisedSchema,
  ResultRegradedSchema,
  ResultSubmittedSchema,
  ResultWithdrawnSchema,
  toBinary,
} from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, startClassService, VALID_CLASS, type Harness } from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);

beforeAll(async () => {
  h = await startClassService();
});
afterAll(async () => {
  await h?.stop();
});

async function publish<D extends DescMessage>(schema: D, init: MessageInitShape<D>, key: string, id = randomUUID()) {
  await h.bus.publish([
    {
      topic: 'checkpoint.assessment.v1',
      key,
      value: toBinary(schema, create(schema, init)),
      headers: buildHeaders({ id, type: schema.typeName, source: 'assessment', time: new Date(), tenantId: tenant }),
    },
  ]);
  return id;
}

const counts = async (classId: string) => {
  const c = (await call(h, teacher, 'GET', `/api/classes/${classId}`)).body;
  return { assessments: c.assessmentCount, below: c.belowStandard, at: c.atStandard, above: c.aboveStandard };
};

describe('class counts from assessment events', () => {
  it('when assessments are created and deleted and results come in, then the counts follow the latest level per student', async () => {
    const classId = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body.id;
    const [a1, a2] = [randomUUID(), randomUUID()];
    const created = await publish(AssessmentCreatedSchema, { assessmentId: a1, tenantId: tenant, classId }, a1);
    // Redelivery of the same event changes nothing.
    await publish(AssessmentCreatedSchema, { assessmentId: a1, tenantId: tenant, classId }, a1, created);
    await publish(AssessmentCreatedSchema, { assessmentId: a2, tenantId: tenant, classId }, a2);
    expect(await counts(classId)).toEqual({ assessments: 2, below: 0, at: 0, above: 0 });

    const [s1, s2] = [randomUUID(), randomUUID()];
    const submit = (assessmentId: string, studentId: string, level: string, at: Date, resultId = randomUUID()) =>
      publish(
        ResultSubmittedSchema,
        { resultId, assessmentId, tenantId: tenant, classId, studentId, level, submittedAt: timestampFromDate(at) },
        assessmentId,
      ).then(() => resultId);
    const r1 = await submit(a1, s1, 'below', new Date(Date.now() - 60_000));
    await submit(a1, s2, 'above', new Date(Date.now() - 60_000));
    expect(await counts(classId)).toMatchObject({ below: 1, at: 0, above: 1 });
    // s1's later result on a2 decides s1's level.
    await submit(a2, s1, 'above', new Date());
    expect(await counts(classId)).toMatchObject({ below: 0, at: 0, above: 2 });
    // Deleting a2 makes s1's a1 result the latest again; raising it moves s1 to at.
    await publish(AssessmentDeletedSchema, { assessmentId: a2, tenantId: tenant, classId }, a2);
    expect(await counts(classId)).toEqual({ assessments: 1, below: 1, at: 0, above: 1 });
    await publish(
      ResultLevelRaisedSchema,
      { resultId: r1, assessmentId: a1, tenantId: tenant, classId, studentId: s1, fromLevel: 'below', toLevel: 'at' },
      a1,
    );
    expect(await counts(classId)).toEqual({ assessments: 1, below: 0, at: 1, above: 1 });
    // The teacher regrades r1 to above: s1 moves to above.
    await publish(
      ResultRegradedSchema,
      {
        resultId: r1,
        assessmentId: a1,
        tenantId: tenant,
        classId,
        studentId: s1,
        earnedPoints: 2,
        totalPoints: 2,
        percentage: 100,
        level: 'above',
        scoreLevel: 'above',
      },
      a1,
    );
    expect(await counts(classId)).toEqual({ assessments: 1, below: 0, at: 0, above: 2 });
  });

  it('when a student retakes, then the level counted is that of the attempt that counts, and a withdrawn result leaves', async () => {
    const classId = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body.id;
    const a = randomUUID();
    await publish(AssessmentCreatedSchema, { assessmentId: a, tenantId: tenant, classId }, a);
    const s1 = randomUUID();
    const result = (resultId: string, level: string, attempt: number, counted: boolean) => ({
      resultId,
      assessmentId: a,
      tenantId: tenant,
      classId,
      studentId: s1,
      level,
      attempt,
      counted,
      submittedAt: timestampFromDate(new Date()),
    });
    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    await publish(ResultSubmittedSchema, result(first, 'below', 1, true), a);
    expect(await counts(classId)).toMatchObject({ below: 1, above: 0 });
    // A counted retake replaces the first; one that does not count (best) changes nothing.
    await publish(ResultSubmittedSchema, result(second, 'above', 2, true), a);
    expect(await counts(classId)).toMatchObject({ below: 0, above: 1 });
    await publish(ResultSubmittedSchema, result(third, 'below', 3, false), a);
    expect(await counts(classId)).toMatchObject({ below: 0, above: 1 });
    // The count moves to the third attempt, then that result is withdrawn (reopened).
    await publish(CountedResultChangedSchema, { result: result(third, 'below', 3, true) }, a);
    expect(await counts(classId)).toMatchObject({ below: 1, above: 0 });
    await publish(
      ResultWithdrawnSchema,
      { resultId: third, assessmentId: a, tenantId: tenant, classId, studentId: s1 },
      a,
    );
    expect(await counts(classId)).toMatchObject({ below: 0, at: 0, above: 0 });
  });

  it('when events name a class that does not exist, then nothing fails', async () => {
    const classId = randomUUID();
    const a = randomUUID();
    await publish(AssessmentCreatedSchema, { assessmentId: a, tenantId: tenant, classId }, a);
    await publish(
      ResultSubmittedSchema,
      { resultId: randomUUID(), assessmentId: a, tenantId: tenant, classId, studentId: randomUUID(), level: 'at' },
      a,
    );
    const { rows } = await h.sql.query('select count(*)::int as n from class_results where class_id = $1', [classId]);
    expect(rows[0].n).toBe(0);
  });
});
