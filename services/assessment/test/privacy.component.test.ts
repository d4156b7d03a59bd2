// The assessment service's part in privacy operations (docs/adr/009) on real Postgres: a student's
// export holds their answers and result, not a classmate's; their deletion leaves no row naming
// them (answers, results with the teacher's feedback, regrade audits, people and membership copies,
// outbox copies of their events) and is confirmed; retention deletes a district's old answers,
// regrade audits and results.
import { randomUUID } from 'node:crypto';
import {
  fromBinary,
  StudentDataExportedSchema,
  StudentExportRequestedSchema,
  SubjectDataErasedSchema,
  UserDeletedSchema,
  type BusMessage,
} from '@checkpoint/events';
import { createLogger, RetentionJob } from '@checkpoint/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assessmentPrivacy } from '../src/messaging/privacy.consumer.ts';
import { deliver, startAssessmentService, type Harness } from './helpers.ts';

let h: Harness;
const answers: BusMessage[] = [];

beforeAll(async () => {
  h = await startAssessmentService();
  await h.bus.subscribe({
    groupId: 'test-identity',
    topics: ['checkpoint.privacy.v1'],
    handler: async (m) => void answers.push(m),
  });
});
afterAll(() => h?.stop());

/** An assessment of a new district with one question, answered and submitted by two students. */
async function given(daysAgo = 0) {
  const [tenant, classId, teacher, assessmentId, questionId] = [1, 2, 3, 4, 5].map(() => randomUUID()) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const students = [randomUUID(), randomUUID()];
  const at = new Date(Date.now() - daysAgo * 86_400_000);
  await h.sql.query(
    `insert into assessments (id, tenant_id, class_id, teacher_id, title, topic, standard, content_to_assess,
                              question_type, number_of_questions, generation_status)
     values ($1, $2, $3, $4, 'Fractions', '', '', 'Fractions are parts.', 'true_false', 1, 'ready')`,
    [assessmentId, tenant, classId, teacher],
  );
  await h.sql.query(
    `insert into questions (id, assessment_id, tenant_id, position, question_text, question_type, options, correct_answer)
     values ($1, $2, $3, 0, 'A half is more than a third.', 'true_false', '{}', 'True')`,
    [questionId, assessmentId, tenant],
  );
  for (const s of students) {
    await h.sql.query("insert into people (user_id, tenant_id, first_name, last_name) values ($1, $2, 'Sam', 'Lee')", [
      s,
      tenant,
    ]);
    await h.sql.query(
      `insert into responses (id, assessment_id, question_id, student_id, tenant_id, answer, created_at, updated_at)
       values ($1, $2, $3, $4, $5, 'True', $6, $6)`,
      [randomUUID(), assessmentId, questionId, s, tenant, at],
    );
    const resultId = randomUUID();
    await h.sql.query(
      `insert into results (id, assessment_id, tenant_id, class_id, student_id, total_points, earned_points, percentage,
                            performance_level, correct_answers, incorrect_answers, total_questions, submitted_at, feedback)
       values ($1, $2, $3, $4, $5, 1, 1, 100, 'above', 1, 0, 1, $6, 'Well reasoned.')`,
      [resultId, assessmentId, tenant, classId, s, at],
    );
    // The teacher's regrade of the answer, audited (migrations/020): student data too.
    await h.sql.query(
      `insert into result_regrades (id, result_id, tenant_id, assessment_id, student_id, question_id, graded_by,
                                    old_points, new_points, feedback, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, 0, 1, 'Right in other words.', $8)`,
      [randomUUID(), resultId, tenant, assessmentId, s, questionId, teacher, at],
    );
    // Their accommodations (migrations/026): student data, exported and erased with the rest.
    await h.sql.query(`insert into accommodations (student_id, tenant_id, reduced_choices) values ($1, $2, 1)`, [
      s,
      tenant,
    ]);
  }
  return { tenant, students: students as [string, string] };
}

async function found(id: string): Promise<string[]> {
  const { rows } = await h.sql.query<{ t: string; c: string; type: string }>(
    `select table_name as t, column_name as c, data_type as type from information_schema.columns
      where table_schema = current_schema()`,
  );
  const hits: string[] = [];
  for (const r of rows) {
    const test =
      r.type === 'bytea' ? `position(convert_to($1, 'UTF8') in "${r.c}") > 0` : `strpos("${r.c}"::text, $1) > 0`;
    const { rows: x } = await h.sql.query(`select count(*)::int as n from "${r.t}" where ${test}`, [id]);
    if (x[0].n > 0) hits.push(`${r.t}.${r.c}`);
  }
  return hits;
}

const waitFor = async <T>(get: () => T[], ok: (v: T[]) => boolean): Promise<T[]> => {
  for (let i = 0; i < 100; i++) {
    const v = get();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  return get();
};

describe('privacy operations in the assessment service', () => {
  it('when a student is exported, then the section holds their answer and result only', async () => {
    const { tenant, students } = await given();
    const requestId = randomUUID();
    await deliver(
      h,
      StudentExportRequestedSchema,
      { requestId, tenantId: tenant, userId: students[0] },
      { key: students[0], tenantId: tenant },
    );
    const parts = await waitFor(
      () =>
        answers
          .filter((m) => m.headers.ce_type === StudentDataExportedSchema.typeName)
          .map((m) => fromBinary(StudentDataExportedSchema, m.value))
          .filter((p) => p.requestId === requestId),
      (p) => p.length > 0,
    );
    const doc = JSON.parse(parts.map((p) => p.json).join(''));
    expect(doc.tables.responses).toHaveLength(1);
    expect(doc.tables.results).toHaveLength(1);
    expect(doc.tables.results[0].feedback).toBe('Well reasoned.');
    expect(doc.tables.result_regrades).toHaveLength(1);
    expect(doc.tables.result_regrades[0]).toMatchObject({ feedback: 'Right in other words.', new_points: 1 });
    expect(doc.tables.accommodations).toEqual([expect.objectContaining({ reduced_choices: 1 })]);
    expect(doc.tables.people).toHaveLength(1);
    expect(JSON.stringify(doc)).not.toContain(students[1]);
  });

  it('when a student is deleted, then no row names them, the classmate stays, and it is confirmed', async () => {
    const { tenant, students } = await given();
    const requestId = randomUUID();
    await deliver(
      h,
      UserDeletedSchema,
      { userId: students[0], tenantId: tenant, requestId },
      { key: students[0], tenantId: tenant },
    );
    const confirmed = await waitFor(
      () =>
        answers
          .filter((m) => m.headers.ce_type === SubjectDataErasedSchema.typeName)
          .map((m) => fromBinary(SubjectDataErasedSchema, m.value))
          .filter((a) => a.requestId === requestId),
      (a) => a.length === 1,
    );
    expect(confirmed[0]).toMatchObject({ service: 'assessment', scope: 'user' });
    expect(Number(confirmed[0]!.rows)).toBeGreaterThanOrEqual(3);
    expect(await found(students[0])).toEqual([]);
    expect(await found(students[1])).not.toEqual([]);
  });

  it('when the district keeps 30 days, then the job deletes older answers, regrade audits and results only', async () => {
    const old = await given(40);
    const recent = await given(1);
    await h.sql.query('insert into privacy_retention (tenant_id, retention_days) values ($1, 30), ($2, 30)', [
      old.tenant,
      recent.tenant,
    ]);
    const job = new RetentionJob(h.sql, assessmentPrivacy, {
      intervalMs: 1000,
      logger: createLogger('test', 'silent'),
    });
    // Two answers, two regrade audits, two results of the old district.
    expect(await job.runIfDue()).toBe(6);
    const left = await h.sql.query(
      'select tenant_id::text as t, count(*)::int as n from results where tenant_id = any($1) group by 1',
      [[old.tenant, recent.tenant]],
    );
    expect(left.rows).toEqual([{ t: recent.tenant, n: 2 }]);
    const audits = await h.sql.query(
      'select tenant_id::text as t, count(*)::int as n from result_regrades where tenant_id = any($1) group by 1',
      [[old.tenant, recent.tenant]],
    );
    expect(audits.rows).toEqual([{ t: recent.tenant, n: 2 }]);
  });
});
