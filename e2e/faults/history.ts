// The fault test's history and its checker, Jepsen-style: the driver records every operation it
// attempted (each try with its HTTP status or error), and after the run the checker compares that
// history with what the databases hold. An operation is `acked` when a try answered 2xx, `refused`
// when one answered a 4xx (a definite no), `unknown` when every try failed without an answer that
// says whether it happened (5xx, timeout, connection error): such an operation may or may not be
// stored, and the checker accepts both.
export interface Attempt {
  /** Milliseconds since the run started. */
  at: number;
  status?: number;
  error?: string;
}

export type Outcome = 'acked' | 'refused' | 'unknown';

export interface SaveOp {
  kind: 'save';
  studentId: string;
  assessmentId: string;
  questionId: string;
  clientSeq: number;
  /** Unique per save (except a final correct answer, told apart by its clientSeq). */
  answer: string;
  attempts: Attempt[];
  outcome: Outcome;
}

export interface SubmitOp {
  kind: 'submit';
  studentId: string;
  assessmentId: string;
  attempts: Attempt[];
  /**
   * `acked`: 201, or 409 "already submitted" after an earlier try that got no answer (the result
   * exists: that try committed it).
   */
  outcome: Outcome;
  resultId?: string;
}

/** A row of assessment.responses. */
export interface StoredResponse {
  studentId: string;
  assessmentId: string;
  questionId: string;
  answer: string;
  clientSeq: number | null;
}

/** A row of assessment.results, with the answers it was scored from (null: not answered). */
export interface StoredResult {
  id: string;
  studentId: string;
  assessmentId: string;
  classId: string;
  tenantId: string;
  level: string;
  percentage: number;
  submittedAt: Date;
  answers: Map<string, string | null>;
}

export interface SaveFigures {
  /** Pairs of (student, question) that were saved at least once. */
  pairs: number;
  acked: number;
  refused: number;
  unknown: number;
  /** Saves with no answer on the first try that the stored row shows were committed anyway. */
  unknownButStored: number;
}

const pairKey = (studentId: string, questionId: string) => `${studentId}/${questionId}`;
const takeKey = (studentId: string, assessmentId: string) => `${studentId}/${assessmentId}`;

/**
 * Every acknowledged save is stored exactly once with its latest acknowledged value: per
 * (student, question) one row, holding the save of the highest clientSeq that was acknowledged,
 * or a later one whose outcome is unknown (it committed though its answer was lost); never a
 * value that no save sent, never a refused save, never a row where nothing was saved.
 */
export function checkSaves(saves: SaveOp[], rows: StoredResponse[]): { anomalies: string[]; figures: SaveFigures } {
  const anomalies: string[] = [];
  const opsByPair = new Map<string, SaveOp[]>();
  for (const op of saves) {
    const key = pairKey(op.studentId, op.questionId);
    opsByPair.set(key, [...(opsByPair.get(key) ?? []), op]);
  }
  const rowsByPair = new Map<string, StoredResponse[]>();
  for (const row of rows) {
    const key = pairKey(row.studentId, row.questionId);
    rowsByPair.set(key, [...(rowsByPair.get(key) ?? []), row]);
  }
  let unknownButStored = 0;
  for (const [key, stored] of rowsByPair) {
    if (stored.length > 1) anomalies.push(`duplicate: ${stored.length} rows for ${key}`);
    if (!opsByPair.has(key)) anomalies.push(`phantom row: ${key} holds "${stored[0]?.answer}" but nothing was saved`);
  }
  for (const [key, ops] of opsByPair) {
    const bySeq = new Map<number, SaveOp>();
    for (const op of ops) {
      if (bySeq.has(op.clientSeq)) anomalies.push(`driver bug: clientSeq ${op.clientSeq} used twice for ${key}`);
      bySeq.set(op.clientSeq, op);
    }
    const acked = ops.filter((op) => op.outcome === 'acked');
    const latestAcked = acked.reduce<SaveOp | undefined>(
      (a, op) => (a && a.clientSeq > op.clientSeq ? a : op),
      undefined,
    );
    const row = rowsByPair.get(key)?.[0];
    if (!row) {
      if (latestAcked) anomalies.push(`lost: ${key} acknowledged clientSeq ${latestAcked.clientSeq}, nothing stored`);
      continue;
    }
    const op = row.clientSeq === null ? undefined : bySeq.get(row.clientSeq);
    if (!op || op.answer !== row.answer) {
      anomalies.push(`phantom value: ${key} holds clientSeq ${row.clientSeq} "${row.answer}", never sent`);
      continue;
    }
    if (op.outcome === 'refused') anomalies.push(`refused save stored: ${key} clientSeq ${op.clientSeq}`);
    if (latestAcked && op.clientSeq < latestAcked.clientSeq)
      anomalies.push(
        `lost update: ${key} acknowledged clientSeq ${latestAcked.clientSeq} "${latestAcked.answer}" but holds ${op.clientSeq} "${op.answer}"`,
      );
    if (op.outcome === 'unknown') unknownButStored++;
  }
  return {
    anomalies,
    figures: {
      pairs: opsByPair.size,
      acked: saves.filter((s) => s.outcome === 'acked').length,
      refused: saves.filter((s) => s.outcome === 'refused').length,
      unknown: saves.filter((s) => s.outcome === 'unknown').length,
      unknownButStored,
    },
  };
}

/**
 * Every acknowledged submit is counted once (one result, the one the reply named), a refused or
 * never-sent one not at all, and each result was scored from the answers stored for it.
 */
export function checkSubmits(
  submits: SubmitOp[],
  results: StoredResult[],
  rows: StoredResponse[],
): { anomalies: string[]; unknownButStored: number } {
  const anomalies: string[] = [];
  const resultsByTake = new Map<string, StoredResult[]>();
  for (const r of results) {
    const key = takeKey(r.studentId, r.assessmentId);
    resultsByTake.set(key, [...(resultsByTake.get(key) ?? []), r]);
  }
  const opsByTake = new Map<string, SubmitOp>();
  for (const op of submits) {
    const key = takeKey(op.studentId, op.assessmentId);
    if (opsByTake.has(key)) anomalies.push(`driver bug: two submits of ${key}`);
    opsByTake.set(key, op);
  }
  let unknownButStored = 0;
  for (const [key, found] of resultsByTake) {
    if (found.length > 1) anomalies.push(`duplicate: ${found.length} results for ${key}`);
    if (!opsByTake.has(key)) anomalies.push(`phantom result: ${key} was never submitted`);
  }
  for (const [key, op] of opsByTake) {
    const found = resultsByTake.get(key) ?? [];
    if (op.outcome === 'acked' && found.length === 0)
      anomalies.push(`lost: acknowledged submit of ${key} has no result`);
    if (op.outcome === 'acked' && op.resultId && found[0] && found[0].id !== op.resultId)
      anomalies.push(`wrong result: submit of ${key} answered ${op.resultId}, stored ${found[0].id}`);
    if (op.outcome === 'refused' && found.length > 0) anomalies.push(`refused submit stored: ${key}`);
    if (op.outcome === 'unknown' && found.length > 0) unknownButStored++;
  }
  // Saves never follow a submit, so a result holds exactly the answers stored now.
  const answerOf = new Map(rows.map((r) => [pairKey(r.studentId, r.questionId), r.answer]));
  for (const r of results)
    for (const [questionId, answer] of r.answers) {
      const stored = answerOf.get(pairKey(r.studentId, questionId)) ?? null;
      if (stored !== answer)
        anomalies.push(`result ${r.id} scored answer "${answer}" for ${questionId}, stored "${stored}"`);
    }
  return { anomalies, unknownButStored };
}

/** What the read models hold, read straight from their schemas. */
export interface ReadModels {
  /** class service: the class's below/at/above counts (students by their latest result's level). */
  classCounts: { below: number; at: number; above: number };
  /** class service: result id → level. */
  classResults: Map<string, string>;
  /** analytics: result id → level, percentage, answers. */
  analyticsResults: Map<string, { level: string; percentage: number; answers: Map<string, string> }>;
  /** analytics: the tenant's running figures (undefined: no row yet). */
  tenantFigures: { results: number; below: number; at: number; above: number; percentageSum: number } | undefined;
  /** generation (practice): result id → level, percentage, answers. */
  generationResults: Map<string, { level: string; percentage: number; answers: Map<string, string> }>;
}

/** Students of the class by the level of their latest result, as the class service counts them. */
export function expectedClassCounts(results: StoredResult[]): { below: number; at: number; above: number } {
  const latest = new Map<string, StoredResult>();
  for (const r of results) {
    const current = latest.get(r.studentId);
    const later =
      !current ||
      r.submittedAt.getTime() > current.submittedAt.getTime() ||
      (r.submittedAt.getTime() === current.submittedAt.getTime() && r.id > current.id);
    if (later) latest.set(r.studentId, r);
  }
  const counts = { below: 0, at: 0, above: 0 };
  for (const r of latest.values()) counts[r.level as keyof typeof counts]++;
  return counts;
}

function sameAnswers(expected: Map<string, string | null>, actual: Map<string, string>): boolean {
  if (expected.size !== actual.size) return false;
  for (const [q, a] of expected) if ((a ?? '') !== actual.get(q)) return false;
  return true;
}

/** Where a read model disagrees with the assessment service's results (empty once converged). */
export function readModelDisagreements(results: StoredResult[], models: ReadModels): string[] {
  const out: string[] = [];
  const expected = expectedClassCounts(results);
  const c = models.classCounts;
  if (c.below !== expected.below || c.at !== expected.at || c.above !== expected.above)
    out.push(`class counts ${JSON.stringify(c)}, expected ${JSON.stringify(expected)}`);
  const ids = new Set(results.map((r) => r.id));
  for (const [name, model] of [
    ['class', models.classResults],
    ['analytics', models.analyticsResults],
    ['generation', models.generationResults],
  ] as const) {
    const extra = [...model.keys()].filter((id) => !ids.has(id));
    if (extra.length) out.push(`${name}: ${extra.length} results the assessment service does not have`);
    const missing = results.filter((r) => !model.has(r.id));
    if (missing.length) out.push(`${name}: ${missing.length} of ${results.length} results missing`);
  }
  for (const r of results) {
    const cls = models.classResults.get(r.id);
    if (cls !== undefined && cls !== r.level) out.push(`class: result ${r.id} level ${cls}, expected ${r.level}`);
    for (const [name, model] of [
      ['analytics', models.analyticsResults],
      ['generation', models.generationResults],
    ] as const) {
      const m = model.get(r.id);
      if (!m) continue;
      if (m.level !== r.level || Math.abs(m.percentage - r.percentage) > 1e-6)
        out.push(`${name}: result ${r.id} ${m.level} ${m.percentage}%, expected ${r.level} ${r.percentage}%`);
      if (!sameAnswers(r.answers, m.answers)) out.push(`${name}: result ${r.id} answers differ`);
    }
  }
  const f = models.tenantFigures;
  const want = {
    results: results.length,
    below: results.filter((r) => r.level === 'below').length,
    at: results.filter((r) => r.level === 'at').length,
    above: results.filter((r) => r.level === 'above').length,
    percentageSum: results.reduce((s, r) => s + r.percentage, 0),
  };
  if (results.length > 0 || f) {
    const got = f ?? { results: 0, below: 0, at: 0, above: 0, percentageSum: 0 };
    if (
      got.results !== want.results ||
      got.below !== want.below ||
      got.at !== want.at ||
      got.above !== want.above ||
      Math.abs(got.percentageSum - want.percentageSum) > 1e-6 * Math.max(1, want.results)
    )
      out.push(`analytics tenant_figures ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  return out;
}

/**
 * The tries of these operations made between `from` and `to` (the run's clock): how many were
 * acknowledged (2xx), and every other answer by status (`error`: none, e.g. connection refused).
 */
export function triesBetween(
  ops: (SaveOp | SubmitOp)[],
  from: number,
  to: number,
): { acked: number; failed: Record<string, number> } {
  let acked = 0;
  const failed: Record<string, number> = {};
  for (const op of ops)
    for (const t of op.attempts) {
      if (t.at < from || t.at > to) continue;
      if (t.status !== undefined && t.status >= 200 && t.status < 300) acked++;
      else {
        const key = t.status === undefined ? 'error' : String(t.status);
        failed[key] = (failed[key] ?? 0) + 1;
      }
    }
  return { acked, failed };
}
