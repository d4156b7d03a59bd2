// Reads what the fault test checks straight from the services' schemas (superuser connection):
// the assessment service's responses and results, and the read models built from its events.
import pg from 'pg';
import type { ReadModels, StoredResponse, StoredResult } from './history.ts';

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function readResponses(client: pg.Client): Promise<StoredResponse[]> {
  const { rows } = await client.query<{
    student_id: string;
    assessment_id: string;
    question_id: string;
    answer: string;
    client_seq: string | null;
  }>('select student_id, assessment_id, question_id, answer, client_seq from assessment.responses');
  return rows.map((r) => ({
    studentId: r.student_id,
    assessmentId: r.assessment_id,
    questionId: r.question_id,
    answer: r.answer,
    clientSeq: r.client_seq === null ? null : Number(r.client_seq),
  }));
}

export async function readResults(client: pg.Client): Promise<StoredResult[]> {
  const { rows } = await client.query<{
    id: string;
    student_id: string;
    assessment_id: string;
    class_id: string;
    tenant_id: string;
    performance_level: string;
    percentage: number;
    submitted_at: Date;
    questions: { questionId: string; answer: string | null }[] | null;
  }>(
    `select id, student_id, assessment_id, class_id, tenant_id, performance_level, percentage, submitted_at, questions
       from assessment.results`,
  );
  return rows.map((r) => ({
    id: r.id,
    studentId: r.student_id,
    assessmentId: r.assessment_id,
    classId: r.class_id,
    tenantId: r.tenant_id,
    level: r.performance_level,
    percentage: r.percentage,
    submittedAt: r.submitted_at,
    answers: new Map((r.questions ?? []).map((q) => [q.questionId, q.answer])),
  }));
}

type Answers = Map<string, string>;

export async function readModels(client: pg.Client, classId: string, tenantId: string): Promise<ReadModels> {
  const counts = await client.query<{ below: number; at: number; above: number }>(
    'select below_standard as below, at_standard as at, above_standard as above from class.classes where id = $1',
    [classId],
  );
  const classResults = await client.query<{ result_id: string; level: string }>(
    'select result_id, level from class.class_results',
  );
  const analytics = await client.query<{ result_id: string; level: string; percentage: number }>(
    'select result_id, level, percentage from analytics.results',
  );
  const analyticsAnswers = await client.query<{ result_id: string; question_id: string; answer: string }>(
    'select result_id, question_id, answer from analytics.result_answers',
  );
  const figures = await client.query<{
    results: number;
    below: number;
    at: number;
    above: number;
    percentage_sum: number;
  }>('select results, below, at, above, percentage_sum from analytics.tenant_figures where tenant_id = $1', [tenantId]);
  const generation = await client.query<{
    id: string;
    level: string;
    percentage: number;
    answers: { questionId: string; answer: string }[];
  }>('select id, level, percentage, answers from generation.results');

  const answersOf = new Map<string, Answers>();
  for (const a of analyticsAnswers.rows) {
    const m = answersOf.get(a.result_id) ?? new Map<string, string>();
    m.set(a.question_id, a.answer);
    answersOf.set(a.result_id, m);
  }
  const f = figures.rows[0];
  return {
    classCounts: counts.rows[0] ?? { below: -1, at: -1, above: -1 },
    classResults: new Map(classResults.rows.map((r) => [r.result_id, r.level])),
    analyticsResults: new Map(
      analytics.rows.map((r) => [
        r.result_id,
        { level: r.level, percentage: r.percentage, answers: answersOf.get(r.result_id) ?? new Map() },
      ]),
    ),
    tenantFigures: f && {
      results: f.results,
      below: f.below,
      at: f.at,
      above: f.above,
      percentageSum: f.percentage_sum,
    },
    generationResults: new Map(
      generation.rows.map((r) => [
        r.id,
        {
          level: r.level,
          percentage: r.percentage,
          answers: new Map(r.answers.map((a) => [a.questionId, a.answer])),
        },
      ]),
    ),
  };
}

/** Events written but not yet published, per service outbox. */
export async function unpublishedEvents(client: pg.Client): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const schema of ['identity', 'class', 'assessment', 'generation']) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from ${schema}.outbox where published_at is null`,
    );
    out[schema] = rows[0]?.n ?? 0;
  }
  return out;
}
