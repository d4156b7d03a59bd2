// Read-after-create: an assessment created in a class whose ClassCreated has not reached this
// service yet waits for it (the class id is a UUIDv7 made a moment ago), boundedly; any other
// unknown class answers 404 at once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassCreatedSchema } from '@checkpoint/events';
import { uuidv7 } from '@checkpoint/service-kit';
import { startServiceForTest } from '@checkpoint/testkit';
import { assessmentService } from '../src/index.ts';
import { actor, call, deliver, VALID_CREATE, type Harness } from './helpers.ts';

const WAIT_MS = 1_500;
let h: Harness;
const teacher = actor('teacher');

beforeAll(async () => {
  h = await startServiceForTest(assessmentService, { READ_AFTER_CREATE_WAIT_MS: String(WAIT_MS) });
  // Warm up (first connections, the create transaction's first run) so that the timings below are the waits'.
  expect((await call(h, teacher, 'GET', '/api/assessments')).status).toBe(200);
  const unknown = { ...VALID_CREATE, classId: randomUUID() };
  expect((await call(h, teacher, 'POST', '/api/assessments', unknown)).status).toBe(404);
});
afterAll(async () => {
  await h?.stop();
});

const classCreated = (classId: string, who = teacher) =>
  deliver(
    h,
    ClassCreatedSchema,
    {
      classId,
      tenantId: who.tenantId,
      teacherId: who.userId,
      name: 'Fresh',
      subject: 'Math',
      period: '1',
      joinCode: 'FRESH1',
    },
    { key: classId, tenantId: who.tenantId, source: 'class' },
  );

async function timed<T>(p: Promise<T>): Promise<T & { ms: number }> {
  const start = performance.now();
  const value = await p;
  return { ...value, ms: performance.now() - start };
}

describe('creating an assessment in a class created a moment ago', () => {
  it('when the ClassCreated event arrives 300 ms after the create call, then the call waits for it and answers 201', async () => {
    const classId = uuidv7();
    const created = timed(call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId }));
    await new Promise((r) => setTimeout(r, 300));
    await classCreated(classId);
    const res = await created;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ classId, title: VALID_CREATE.title });
    expect(res.ms).toBeGreaterThanOrEqual(250);
  });

  it('when the class assessments are listed before ClassCreated arrives, then the list waits for it too', async () => {
    const classId = uuidv7();
    const listed = call(h, teacher, 'GET', `/api/classes/${classId}/assessments`);
    await new Promise((r) => setTimeout(r, 200));
    await classCreated(classId);
    const res = await listed;
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('when the class id is random (v4) or an old v7 id, then 404 answers at once', async () => {
    for (const classId of [randomUUID(), uuidv7(Date.now() - 60_000)]) {
      const res = await timed(call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId }));
      expect(res.status, classId).toBe(404);
      expect(res.body.message).toBe('Class not found');
      expect(res.ms, classId).toBeLessThan(WAIT_MS / 2);
    }
  });

  it('when a fresh class id never arrives, then 404 answers after the bound', async () => {
    const res = await timed(call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId: uuidv7() }));
    expect(res.status).toBe(404);
    expect(res.ms).toBeGreaterThanOrEqual(WAIT_MS - 50);
    expect(res.ms).toBeLessThan(WAIT_MS + 2_000);
  });

  it("when the fresh class is another teacher's and already here, then it answers 404 at once", async () => {
    const classId = uuidv7();
    await classCreated(classId, actor('teacher', teacher.tenantId));
    const res = await timed(call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId }));
    expect(res.status).toBe(404);
    expect(res.ms).toBeLessThan(WAIT_MS / 2);
  });

  it("when another teacher's fresh class arrives during the wait, then the wait ends with 404 then, not at the bound", async () => {
    const classId = uuidv7();
    const created = timed(call(h, teacher, 'POST', '/api/assessments', { ...VALID_CREATE, classId }));
    await new Promise((r) => setTimeout(r, 200));
    await classCreated(classId, actor('teacher', teacher.tenantId));
    const res = await created;
    expect(res.status).toBe(404);
    expect(res.ms).toBeLessThan(WAIT_MS - 300);
  });
});
