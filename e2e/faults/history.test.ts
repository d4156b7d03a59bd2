// The fault test's checker: each anomaly it exists to find is found, and what the issue calls
// harmless (a save answered 503 yet committed, then retried with the same clientSeq) is not one.
import { describe, expect, it } from 'vitest';
import {
  checkSaves,
  checkSubmits,
  readModelDisagreements,
  type ReadModels,
  type SaveOp,
  type StoredResponse,
  type StoredResult,
  type SubmitOp,
} from './history.ts';

const S = 'student-1';
const A = 'assessment-1';
const Q1 = 'question-1';
const Q2 = 'question-2';

function save(questionId: string, clientSeq: number, answer: string, outcome: SaveOp['outcome']): SaveOp {
  return { kind: 'save', studentId: S, assessmentId: A, questionId, clientSeq, answer, attempts: [], outcome };
}

function row(questionId: string, clientSeq: number | null, answer: string): StoredResponse {
  return { studentId: S, assessmentId: A, questionId, clientSeq, answer };
}

function result(id: string, level: string, percentage: number, answers: [string, string | null][]): StoredResult {
  return {
    id,
    studentId: S,
    assessmentId: A,
    classId: 'class-1',
    tenantId: 'tenant-1',
    level,
    percentage,
    submittedAt: new Date('2026-01-01T00:00:00Z'),
    answers: new Map(answers),
  };
}

describe('checkSaves', () => {
  const history = [save(Q1, 1, 'a', 'acked'), save(Q1, 2, 'b', 'acked'), save(Q2, 3, 'c', 'acked')];

  it('when each pair holds its latest acknowledged save, then there is no anomaly', () => {
    const { anomalies, figures } = checkSaves(history, [row(Q1, 2, 'b'), row(Q2, 3, 'c')]);
    expect(anomalies).toEqual([]);
    expect(figures).toMatchObject({ pairs: 2, acked: 3, unknown: 0 });
  });

  it('when an acknowledged save is missing, then it is reported lost', () => {
    expect(checkSaves(history, [row(Q1, 2, 'b')]).anomalies).toEqual([
      expect.stringMatching(/^lost: .*question-2 acknowledged clientSeq 3/),
    ]);
  });

  it('when an older acknowledged value is stored, then it is a lost update', () => {
    expect(checkSaves(history, [row(Q1, 1, 'a'), row(Q2, 3, 'c')]).anomalies).toEqual([
      expect.stringMatching(/^lost update: .*acknowledged clientSeq 2 "b" but holds 1 "a"/),
    ]);
  });

  it('when a pair is stored twice, then it is a duplicate', () => {
    expect(checkSaves(history, [row(Q1, 2, 'b'), row(Q1, 2, 'b'), row(Q2, 3, 'c')]).anomalies).toEqual([
      expect.stringMatching(/^duplicate: 2 rows/),
    ]);
  });

  it('when a stored value was never sent with that clientSeq, then it is a phantom', () => {
    expect(checkSaves(history, [row(Q1, 2, 'x'), row(Q2, 3, 'c')]).anomalies).toEqual([
      expect.stringMatching(/^phantom value: .*clientSeq 2 "x"/),
    ]);
    expect(checkSaves(history, [row(Q1, 2, 'b'), row(Q2, 3, 'c'), row('question-3', 9, 'z')]).anomalies).toEqual([
      expect.stringMatching(/^phantom row: .*question-3/),
    ]);
  });

  it('when a save without an answer (503) was committed after all, then it is accepted and counted', () => {
    const withUnknown = [...history, save(Q2, 4, 'd', 'unknown')];
    const { anomalies, figures } = checkSaves(withUnknown, [row(Q1, 2, 'b'), row(Q2, 4, 'd')]);
    expect(anomalies).toEqual([]);
    expect(figures.unknownButStored).toBe(1);
    // …and when it was not committed, the acknowledged one before it must be there.
    expect(checkSaves(withUnknown, [row(Q1, 2, 'b'), row(Q2, 3, 'c')]).anomalies).toEqual([]);
  });

  it('when a refused save (4xx) is stored, then it is reported', () => {
    const refused = [...history, save(Q2, 4, 'd', 'refused')];
    expect(checkSaves(refused, [row(Q1, 2, 'b'), row(Q2, 4, 'd')]).anomalies).toEqual([
      expect.stringMatching(/^refused save stored/),
    ]);
  });
});

describe('checkSubmits', () => {
  const rows = [row(Q1, 2, 'b')];
  const submit = (outcome: SubmitOp['outcome'], resultId?: string): SubmitOp => ({
    kind: 'submit',
    studentId: S,
    assessmentId: A,
    attempts: [],
    outcome,
    ...(resultId ? { resultId } : {}),
  });
  const scored = result('r1', 'below', 50, [
    [Q1, 'b'],
    [Q2, null],
  ]);

  it('when the acknowledged submit has its result, scored from the stored answers, then there is no anomaly', () => {
    expect(checkSubmits([submit('acked', 'r1')], [scored], rows).anomalies).toEqual([]);
  });

  it('when an acknowledged submit has no result, then it is lost; when a result was never submitted, a phantom', () => {
    expect(checkSubmits([submit('acked', 'r1')], [], rows).anomalies).toEqual([expect.stringMatching(/^lost: /)]);
    expect(checkSubmits([], [scored], rows).anomalies).toEqual([expect.stringMatching(/^phantom result: /)]);
  });

  it('when a submit is counted twice, then it is a duplicate', () => {
    const twice = [scored, { ...scored, id: 'r2' }];
    expect(checkSubmits([submit('acked', 'r1')], twice, rows).anomalies).toContainEqual(
      expect.stringMatching(/^duplicate: 2 results/),
    );
  });

  it('when a result was scored from other answers than those stored, then it is reported', () => {
    const other = result('r1', 'below', 50, [
      [Q1, 'a'],
      [Q2, null],
    ]);
    expect(checkSubmits([submit('acked', 'r1')], [other], rows).anomalies).toEqual([
      expect.stringMatching(/scored answer "a" .* stored "b"/),
    ]);
  });
});

describe('readModelDisagreements', () => {
  const results = [
    result('r1', 'below', 50, [[Q1, 'b']]),
    { ...result('r2', 'above', 100, [[Q1, 'ok']]), studentId: 'student-2' },
  ];
  const agreeing = (): ReadModels => ({
    classCounts: { below: 1, at: 0, above: 1 },
    classResults: new Map([
      ['r1', 'below'],
      ['r2', 'above'],
    ]),
    analyticsResults: new Map([
      ['r1', { level: 'below', percentage: 50, answers: new Map([[Q1, 'b']]) }],
      ['r2', { level: 'above', percentage: 100, answers: new Map([[Q1, 'ok']]) }],
    ]),
    tenantFigures: { results: 2, below: 1, at: 0, above: 1, percentageSum: 150 },
    generationResults: new Map([
      ['r1', { level: 'below', percentage: 50, answers: new Map([[Q1, 'b']]) }],
      ['r2', { level: 'above', percentage: 100, answers: new Map([[Q1, 'ok']]) }],
    ]),
  });

  it('when every read model holds every result as the assessment service does, then they agree', () => {
    expect(readModelDisagreements(results, agreeing())).toEqual([]);
  });

  it('when a read model misses a result, counts wrongly or holds other answers, then each is reported', () => {
    const lagging = agreeing();
    lagging.generationResults.delete('r2');
    lagging.classCounts = { below: 1, at: 0, above: 0 };
    lagging.tenantFigures = { results: 1, below: 1, at: 0, above: 0, percentageSum: 50 };
    lagging.analyticsResults.set('r1', { level: 'below', percentage: 50, answers: new Map([[Q1, 'x']]) });
    expect(readModelDisagreements(results, lagging)).toEqual([
      expect.stringMatching(/^class counts/),
      'generation: 1 of 2 results missing',
      'analytics: result r1 answers differ',
      expect.stringMatching(/^analytics tenant_figures/),
    ]);
  });
});
