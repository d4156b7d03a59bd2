// The generation service's part in privacy operations (docs/adr/009) on real Postgres: a student's
// deletion removes their copies of results and the practice built from them (found through the
// result's id), keeps the classmate's, and is confirmed; retention deletes old ones.
import { randomUUID } from 'node:crypto';
import { fromBinary, SubjectDataErasedSchema, UserDeletedSchema, type BusMessage } from '@checkpoint/events';
import { createLogger, RetentionJob } from '@checkpoint/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generationPrivacy } from '../src/messaging/privacy.consumer.ts';
import { deliver, startGenerationService, type Harness } from './helpers.ts';

let h: Harness;
const answers: BusMessage[] = [];

beforeAll(async () => {
  h = await startGenerationService();
  await h.bus.subscribe({
    groupId: 'test-identity',
    topics: ['checkpoint.privacy.v1'],
    handler: async (m) => void answers.push(m),
  });
});
afterAll(() => h?.stop());

/** Two students' results of one assessment of a new district, each with its practice. */
async function given(daysAgo = 0) {
  const tenant = randomUUID();
  const assessmentId = randomUUID();
  const classId = randomUUID();
  const students = [randomUUID(), randomUUID()] as [string, string];
  const at = new Date(Date.now() - daysAgo * 86_400_000);
  for (const s of students) {
    const resultId = randomUUID();
    await h.sql.query(
      `insert into results (id, assessment_id, tenant_id, class_id, student_id, percentage, level, answers, submitted_at)
       values ($1, $2, $3, $4, $5, 50, 'below', '[]', $6)`,
      [resultId, assessmentId, tenant, classId, s, at],
    );
    await h.sql.query(
      `insert into result_practice (result_id, assessment_id, tenant_id, type, provider, reading, questions, created_at)
       values ($1, $2, $3, 'support', 'offline', 'Read this.', '[]', $4)`,
      [resultId, assessmentId, tenant, at],
    );
  }
  return { tenant, students };
}

const count = async (studentId: string) =>
  (
    await h.sql.query(
      `select (select count(*) from results where student_id = $1)::int as results,
              (select count(*) from result_practice p join results r on r.id = p.result_id where r.student_id = $1)::int as practice`,
      [studentId],
    )
  ).rows[0];

describe('privacy operations in the generation service', () => {
  it('when a student is deleted, then their results and practice go, the classmate’s stay, and it is confirmed', async () => {
    const { tenant, students } = await given();
    const requestId = randomUUID();
    await deliver(h, UserDeletedSchema, { userId: students[0], tenantId: tenant, requestId }, students[0], tenant);
    expect(await count(students[0])).toEqual({ results: 0, practice: 0 });
    expect(await count(students[1])).toEqual({ results: 1, practice: 1 });
    const { rows } = await h.sql.query('select count(*)::int as n from result_practice where tenant_id = $1', [tenant]);
    expect(rows[0].n).toBe(1);
    for (let i = 0; i < 100 && !answers.some((m) => m.headers.ce_type === SubjectDataErasedSchema.typeName); i++)
      await new Promise((r) => setTimeout(r, 50));
    const confirmed = answers
      .filter((m) => m.headers.ce_type === SubjectDataErasedSchema.typeName)
      .map((m) => fromBinary(SubjectDataErasedSchema, m.value))
      .filter((a) => a.requestId === requestId);
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]!.service).toBe('generation');
  });

  it('when the district keeps 30 days, then the job deletes older results and practice only', async () => {
    const old = await given(40);
    const recent = await given(1);
    await h.sql.query('insert into privacy_retention (tenant_id, retention_days) values ($1, 30), ($2, 30)', [
      old.tenant,
      recent.tenant,
    ]);
    const job = new RetentionJob(h.sql, generationPrivacy, {
      intervalMs: 1000,
      logger: createLogger('test', 'silent'),
    });
    expect(await job.runIfDue()).toBe(4);
    expect(await count(old.students[0])).toEqual({ results: 0, practice: 0 });
    expect(await count(recent.students[0])).toEqual({ results: 1, practice: 1 });
  });
});
