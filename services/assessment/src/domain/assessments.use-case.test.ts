// The use cases with a stand-in repository, for what the database cannot be made to do on cue.
import { describe, expect, it, vi } from 'vitest';
import type { SaveOutcome, StudentAttemptsRepository } from '../data-access/student-attempts.repository.ts';
import type { TeacherAssessmentsRepository } from '../data-access/teacher-assessments.repository.ts';
import type { AssessmentEvents } from '../messaging/assessment-events.publisher.ts';
import type { StudentAccess } from './assessment.ts';
import { assessmentUseCases } from './assessments.use-case.ts';

const OPEN: StudentAccess = {
  assessmentId: 'a1',
  tenantId: 't1',
  classId: 'c1',
  isActive: true,
  assigned: true,
  classArchived: false,
  member: true,
  resultId: null,
  reviewShortAnswers: false,
  opensAt: null,
  closesAt: null,
  notYetOpen: false,
  windowClosed: false,
  timeLimitSeconds: null,
  reducedChoices: 0,
  startedAt: null,
  secondsLeft: null,
  timeUp: false,
};
const question = {
  id: 'q1',
  assessmentId: 'a1',
  position: 1,
  questionText: 'Capital of France?',
  questionType: 'short_answer',
  options: [],
  correctAnswer: 'Paris',
  acceptedAnswers: [],
  points: 1,
};
const SAVED = {
  id: 'r1',
  assessmentId: 'a1',
  questionId: 'q1',
  studentId: 's1',
  answer: 'B',
  clientSeq: null,
  updatedAt: '2026-11-23T00:00:00.000Z',
};

function withSaves(...outcomes: SaveOutcome[]) {
  const saveResponse = vi.fn();
  for (const o of outcomes) saveResponse.mockResolvedValueOnce(o);
  const uc = assessmentUseCases({
    assessments: {} as TeacherAssessmentsRepository,
    attempts: { saveResponse } as unknown as StudentAttemptsRepository,
    events: { attemptProgressed: vi.fn(), resultSubmitted: vi.fn() } as unknown as AssessmentEvents,
  });
  return { uc, saveResponse };
}

const student = { studentId: 's1' };
const input = { assessmentId: 'a1', questionId: 'q1', answer: 'B' };

describe('saving an answer', () => {
  it('when the student joined between the refused upsert and its checks, then the save is tried again and stored', async () => {
    const { uc, saveResponse } = withSaves({ refused: OPEN, questionOk: true }, {
      saved: SAVED,
    } as unknown as SaveOutcome);
    await expect(uc.saveResponse(student, input)).resolves.toEqual(SAVED);
    expect(saveResponse).toHaveBeenCalledTimes(2);
  });

  it('when the question is not the assessment’s, then 404 without a second try', async () => {
    const { uc, saveResponse } = withSaves({ refused: OPEN, questionOk: false });
    await expect(uc.saveResponse(student, input)).rejects.toThrow('Question not found');
    expect(saveResponse).toHaveBeenCalledTimes(1);
  });

  it('when the student is not a member, then 404 without a second try', async () => {
    const { uc, saveResponse } = withSaves({ refused: { ...OPEN, member: false }, questionOk: true });
    await expect(uc.saveResponse(student, input)).rejects.toThrow('Assessment not found');
    expect(saveResponse).toHaveBeenCalledTimes(1);
  });
});

describe('submitting', () => {
  function withAttempt(questions: (typeof question)[], stored: object | undefined) {
    const tx = {};
    const attempts = {
      transaction: (fn: (t: object) => Promise<unknown>) => fn(tx),
      lockForSubmission: vi.fn().mockResolvedValue(OPEN),
      questionsAndAnswers: vi.fn().mockResolvedValue({ questions, answers: new Map([['q1', 'paris']]) }),
      insertResult: vi.fn().mockResolvedValue(stored),
    };
    const events = { attemptProgressed: vi.fn(), resultSubmitted: vi.fn() };
    const uc = assessmentUseCases({
      assessments: {} as TeacherAssessmentsRepository,
      attempts: attempts as unknown as StudentAttemptsRepository,
      events: events as unknown as AssessmentEvents,
    });
    return { uc, attempts, events, tx };
  }

  it('when another submission stored the result first, then 409 and no ResultSubmitted', async () => {
    const { uc, events } = withAttempt([question], undefined);
    await expect(uc.submit(student, 'a1')).rejects.toThrow('You have already submitted this assessment');
    expect(events.resultSubmitted).not.toHaveBeenCalled();
  });

  it('when the assessment has no questions, then 409 and nothing is stored', async () => {
    const { uc, attempts } = withAttempt([], undefined);
    await expect(uc.submit(student, 'a1')).rejects.toThrow('This assessment has no questions yet');
    expect(attempts.insertResult).not.toHaveBeenCalled();
  });

  it('when the result is stored, then ResultSubmitted goes in the same transaction with the score and its level', async () => {
    const { uc, attempts, events, tx } = withAttempt([question], { id: 'res1', submittedAt: new Date() });
    await uc.submit(student, 'a1');
    const [inTx, stored] = attempts.insertResult.mock.calls[0]!;
    expect(inTx).toBe(tx);
    expect(stored).toMatchObject({ score: { earnedPoints: 1, totalPoints: 1, percentage: 100, level: 'above' } });
    expect(events.resultSubmitted).toHaveBeenCalledWith(
      tx,
      expect.objectContaining({ id: 'res1', tenantId: 't1', classId: 'c1', studentId: 's1', level: 'above' }),
    );
  });
});

describe('the close sweep', () => {
  const CLOSED = { ...OPEN, closesAt: new Date('2026-11-29T09:00:00Z'), windowClosed: true };
  const stored = { id: 'res1', submittedAt: new Date(), totalPoints: 1, earnedPoints: 1, percentage: 100 };

  function sweep(due: { assessmentId: string; studentId: string }[], access: (studentId: string) => unknown) {
    const attempts = {
      transaction: (fn: (t: object) => Promise<unknown>) => fn({}),
      dueForClosing: vi.fn().mockResolvedValue(due),
      lockForSubmission: vi.fn((_tx: object, _a: string, studentId: string) => Promise.resolve(access(studentId))),
      questionsAndAnswers: vi.fn().mockResolvedValue({ questions: [question], answers: new Map([['q1', 'Paris']]) }),
      insertResult: vi.fn().mockResolvedValue(stored),
    };
    const events = { resultSubmitted: vi.fn() };
    const uc = assessmentUseCases({
      assessments: {} as TeacherAssessmentsRepository,
      attempts: attempts as unknown as StudentAttemptsRepository,
      events: events as unknown as AssessmentEvents,
    });
    return { uc, attempts, events };
  }
  const due = (...students: string[]) => students.map((studentId) => ({ assessmentId: 'a1', studentId }));

  it('when the teacher moved the close time later since the look-up, then the attempt is left open', async () => {
    const { uc, attempts } = sweep(due('s1'), () => OPEN);
    await expect(uc.submitClosedAttempts(10)).resolves.toBe(false);
    expect(attempts.insertResult).not.toHaveBeenCalled();
  });

  it('when one attempt fails, then it is reported and the others are still submitted; refusals are skipped quietly', async () => {
    const failed = vi.fn();
    const { uc, events } = sweep(due('broken', 'inactive', 's3'), (studentId) => {
      if (studentId === 'broken') return Promise.reject(new Error('connection reset'));
      return studentId === 'inactive' ? { ...CLOSED, isActive: false } : CLOSED;
    });
    await expect(uc.submitClosedAttempts(3, { failed })).resolves.toBe(true);
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed.mock.calls[0]![1]).toEqual({ assessmentId: 'a1', studentId: 'broken' });
    expect(events.resultSubmitted).toHaveBeenCalledTimes(1);
    expect(events.resultSubmitted.mock.calls[0]![1]).toMatchObject({ studentId: 's3' });
  });

  it('when a full batch submits nothing (every one failing), then the pass does not ask to run again at once', async () => {
    const { uc } = sweep(due('s1', 's2'), () => Promise.reject(new Error('down')));
    await expect(uc.submitClosedAttempts(2, { failed: () => {} })).resolves.toBe(false);
  });

  it('when the service stops during a pass, then the pass ends before the next attempt', async () => {
    let running = true;
    const { uc, attempts } = sweep(due('s1', 's2', 's3'), () => {
      running = false;
      return CLOSED;
    });
    await uc.submitClosedAttempts(3, { running: () => running });
    expect(attempts.insertResult).toHaveBeenCalledTimes(1);
  });
});
