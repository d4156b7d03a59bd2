// Creating assessments (each starts a generation job) is limited per teacher
// (RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE) and per client address
// (RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE), counted in Postgres.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentConfigSchema } from '../src/config.ts';
import { actor, call, givenClass, startAssessmentService, VALID_CREATE, type Actor, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAssessmentService({
    RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '2',
    RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: '5',
  });
});
afterAll(async () => {
  await h?.stop();
});

const create = (who: Actor, classId: string) => call(h, who, 'POST', '/api/assessments', { ...VALID_CREATE, classId });

function expectLimited(res: Awaited<ReturnType<typeof create>>) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body.code).toBe('rate_limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const assessmentCount = async (teacherId: string) =>
  (
    await h.sql.query<{ n: number }>(
      'select count(*)::int as n from assessments a join classes c on c.class_id = a.class_id where c.teacher_id = $1',
      [teacherId],
    )
  ).rows[0]!.n;

// The tests share one address (this process) and so its budget of 5: they run in order.
describe('assessment creation limit', () => {
  it('when a teacher creates a third assessment within a minute, then it answers 429 with Retry-After and nothing is created', async () => {
    const teacher = actor('teacher', randomUUID());
    const classId = await givenClass(h, teacher);
    for (let i = 0; i < 2; i++) expect((await create(teacher, classId)).status).toBe(201);
    expectLimited(await create(teacher, classId));
    expect(await assessmentCount(teacher.userId)).toBe(2);
  });

  it('when creations fail (a class not found), then they do not use up the budget', async () => {
    const teacher = actor('teacher', randomUUID());
    for (let i = 0; i < 3; i++) expect((await create(teacher, randomUUID())).status).toBe(404);
    const classId = await givenClass(h, teacher);
    for (let i = 0; i < 2; i++) expect((await create(teacher, classId)).status).toBe(201);
  });

  it('when teachers of one address create more than its budget, then the next teacher is limited too', async () => {
    // 4 of the address's 5 are used above (the refused third and the 404s gave theirs back).
    const third = actor('teacher', randomUUID());
    expect((await create(third, await givenClass(h, third))).status).toBe(201);
    const fourth = actor('teacher', randomUUID());
    expectLimited(await create(fourth, await givenClass(h, fourth)));
    expect(await assessmentCount(fourth.userId)).toBe(0);
  });
});

describe('assessment creation limit settings', () => {
  it('when a limit is not a positive whole number, then the configuration is refused naming it', () => {
    for (const bad of ['0', '-1', 'ten', '1.5']) {
      for (const name of [
        'RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE',
        'RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE',
      ]) {
        const parsed = assessmentConfigSchema.safeParse({ [name]: bad });
        expect(parsed.success, `${name}=${bad}`).toBe(false);
        expect(parsed.error?.issues[0]?.path).toEqual([name]);
      }
    }
    for (const bad of ['0', '99', 'soon', '3600001']) {
      const parsed = assessmentConfigSchema.safeParse({ ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS: bad });
      expect(parsed.error?.issues[0]?.path, `ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS=${bad}`).toEqual([
        'ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS',
      ]);
    }
    expect(assessmentConfigSchema.parse({})).toEqual({
      ASSESSMENT_CLOSE_SWEEP_INTERVAL_MS: 30_000,
      RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: 10,
      RATE_LIMIT_ASSESSMENT_CREATE_PER_ADDRESS_PER_MINUTE: 60,
      STANDARDS_FETCH_ALLOW_LOOPBACK: false,
      STANDARDS_FETCH_TIMEOUT_MS: 30_000,
      STANDARDS_PACKAGE_LIMIT_BYTES: 20 * 1024 * 1024,
      QTI_PACKAGE_LIMIT_BYTES: 20 * 1024 * 1024,
    });
  });
});
