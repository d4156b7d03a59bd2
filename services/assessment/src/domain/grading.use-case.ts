// Grading by hand (docs/architecture.md, "Grading by hand"). The teacher of the result's class
// marks any answer with points from 0 to the question's (right, wrong, or part points) and
// feedback, reviews the short answers that wait for them, and writes feedback on the whole
// result. The result's totals and level follow by the one rule (scoring.ts: scoreMarks, then
// levelAfterRegrade for a result support practice raised); each change is audited and the new
// state goes out as ResultRegraded, in the transaction that stores it. With countedAttempt 'best' a
// regrade may change which attempt is best: the counted attempt is decided again by the one rule
// (student-attempts.repository.ts: RECOUNT_SQL, as at submission) and CountedResultChanged names
// the result that counts now.
import type { GradingRepository } from '../data-access/grading.repository.ts';
import type { AttemptTx, StudentAttemptsRepository } from '../data-access/student-attempts.repository.ts';
import type { TeacherAssessmentsRepository } from '../data-access/teacher-assessments.repository.ts';
import type { AssessmentEvents } from '../messaging/assessment-events.publisher.ts';
import {
  earnedOf,
  resultDetailView,
  withShownOptions,
  type Owner,
  type ResultDetailView,
  type ResultQuestionRecord,
} from './assessment.ts';
import { AssessmentNotFoundError, QuestionNotFoundError, ResultNotFoundError } from './errors.ts';
import { levelAfterRegrade, numericString, scoreMarks, type Mark } from './scoring.ts';
import { teachesResult } from './result-access.ts';
import { countedFacts } from './assessments.use-case.ts';
import { ConflictError, ValidationError } from '@checkpoint/service-kit';

/** At most this many characters of feedback (an answer's or the result's; migrations/020 checks it too). */
export const FEEDBACK_MAX = 5000;

/** The caller as the house names them on a result: who, in which tenant, with which role. */
export interface GradingCaller {
  userId: string;
  tenantId: string;
  role: string;
}

export interface RegradeInput {
  earnedPoints: number;
  /** Undefined keeps the answer's feedback; null or blank clears it. */
  feedback?: string | null | undefined;
}

/** Only the teacher of the result's class (as GET /api/results/:id decides); anyone else: 404. */

const cleanFeedback = (feedback: string | null | undefined): string | null | undefined => {
  if (feedback === undefined || feedback === null) return feedback;
  const text = feedback.trim();
  if (text.length > FEEDBACK_MAX) {
    const message = `Feedback must be at most ${FEEDBACK_MAX} characters`;
    throw new ValidationError(message, { feedback: message });
  }
  return text === '' ? null : text;
};

const toMark = (q: ResultQuestionRecord): Mark => ({
  questionId: q.questionId,
  answer: q.answer ?? '',
  points: q.points,
  earnedPoints: earnedOf(q),
  pending: q.pending ?? false,
});

class ResultTooOldError extends ConflictError {
  constructor() {
    super('This result was stored before answers could be regraded', 'result_not_regradable');
  }
}

export type GradingUseCases = ReturnType<typeof gradingUseCases>;

export function gradingUseCases({
  grading,
  assessments,
  attempts,
  events,
}: {
  grading: GradingRepository;
  /** The rule of which attempt counts, run again after a regrade. */
  attempts: Pick<StudentAttemptsRepository, 'recount'>;
  assessments: TeacherAssessmentsRepository;
  events: AssessmentEvents;
}) {
  /** The result locked in `tx` when the caller teaches its class; 404 otherwise. */
  async function taught(tx: AttemptTx, caller: GradingCaller, id: string, lock = true) {
    const r = await grading.lockResult(tx, id, lock);
    if (!r || !(await teachesResult(assessments, caller, r))) throw new ResultNotFoundError();
    return r;
  }

  return {
    /**
     * Marks one answer with `earnedPoints` (0 to the question's points, in hundredths) and optional
     * feedback; an answer waiting for review is reviewed by it. Replies with the result as it is now.
     */
    async regrade(
      caller: GradingCaller,
      resultId: string,
      questionId: string,
      input: RegradeInput,
    ): Promise<ResultDetailView> {
      const feedback = cleanFeedback(input.feedback);
      return grading.transaction(async (tx) => {
        const r = await taught(tx, caller, resultId);
        if (!r.questions) throw new ResultTooOldError();
        const at = r.questions.findIndex((q) => q.questionId === questionId);
        const before = r.questions[at];
        if (!before) throw new QuestionNotFoundError();
        const earned = Math.round(input.earnedPoints * 100) / 100;
        if (!(earned >= 0 && earned <= before.points)) {
          const message = `earnedPoints must be from 0 to the question's points (${numericString(before.points)})`;
          throw new ValidationError(message, { earnedPoints: message });
        }
        const after: ResultQuestionRecord = {
          ...before,
          earnedPoints: earned,
          pending: false,
          correct: earned === before.points,
        };
        const kept = feedback === undefined ? before.feedback : (feedback ?? undefined);
        if (kept === undefined) delete after.feedback;
        else after.feedback = kept;
        const questions = r.questions.map((q, i) => (i === at ? after : q));
        // The one rule: the marks give the score and its level; a practice raise stays a floor.
        const score = scoreMarks(questions.map(toMark));
        const level = levelAfterRegrade(score.level, r.raisedBy);
        await grading.saveMarks(tx, r.id, {
          questions,
          score,
          level,
          originalLevel: r.raisedBy ? score.level : null,
        });
        await grading.audit(tx, {
          resultId: r.id,
          tenantId: r.tenantId,
          assessmentId: r.assessmentId,
          studentId: r.studentId,
          questionId,
          gradedBy: caller.userId,
          oldPoints: before.pending ? null : earnedOf(before),
          newPoints: earned,
          feedback: after.feedback ?? null,
        });
        await events.resultRegraded(tx, {
          id: r.id,
          assessmentId: r.assessmentId,
          tenantId: r.tenantId,
          classId: r.classId,
          studentId: r.studentId,
          earnedPoints: score.earnedPoints,
          totalPoints: score.totalPoints,
          percentage: score.percentage,
          level,
          scoreLevel: score.level,
          answers: withShownOptions(score.answers, questions),
          pendingCount: score.pendingReview,
          questionId,
          gradedBy: caller.userId,
        });
        // The new score may make another attempt the best (or this one): the one rule decides again.
        let counted = r.counted;
        for (const c of await attempts.recount(tx, r.assessmentId, r.studentId)) {
          await events.countedResultChanged(tx, countedFacts(c));
          counted = c.id === r.id;
        }
        const now = new Date();
        return resultDetailView(
          {
            ...r,
            earnedPoints: score.earnedPoints,
            totalPoints: score.totalPoints,
            percentage: score.percentage,
            performanceLevel: level,
            originalLevel: r.raisedBy ? score.level : level,
            correctAnswers: score.correctAnswers,
            incorrectAnswers: score.incorrectAnswers,
            pendingReview: score.pendingReview,
            regradedAt: now,
            counted,
          },
          questions,
        );
      });
    },

    /** The teacher's written feedback on the whole result (null or blank clears it); audited. */
    async setFeedback(caller: GradingCaller, resultId: string, text: string | null): Promise<ResultDetailView> {
      const feedback = cleanFeedback(text) ?? null;
      return grading.transaction(async (tx) => {
        const r = await taught(tx, caller, resultId);
        await grading.setFeedback(tx, r.id, feedback);
        await grading.audit(tx, {
          resultId: r.id,
          tenantId: r.tenantId,
          assessmentId: r.assessmentId,
          studentId: r.studentId,
          questionId: null,
          gradedBy: caller.userId,
          oldPoints: null,
          newPoints: null,
          feedback,
        });
        return resultDetailView({ ...r, feedback }, r.questions ?? []);
      });
    },

    /** Every change of the result's marks and feedback, oldest first (the teacher of the class). */
    async history(caller: GradingCaller, resultId: string) {
      const r = await grading.transaction((tx) => taught(tx, caller, resultId, false));
      return (await grading.history(r.id)).map((h) => ({
        questionId: h.questionId,
        gradedBy: h.gradedBy,
        oldPoints: h.oldPoints === null ? null : numericString(h.oldPoints),
        newPoints: h.newPoints === null ? null : numericString(h.newPoints),
        feedback: h.feedback,
        at: h.at.toISOString(),
      }));
    },

    /**
     * The answers of the assessment waiting for the teacher's review: a teacher of its class reads
     * them all, a teacher of a class it is assigned to those of their class; anyone else 404.
     */
    async toReview(owner: Owner, assessmentId: string) {
      const found = await assessments.findReadable(owner, assessmentId);
      if (!found) throw new AssessmentNotFoundError();
      return (await grading.toReview(assessmentId, found.manages ? undefined : owner)).map((item) => ({
        resultId: item.resultId,
        studentId: item.studentId,
        student: { firstName: item.firstName, lastName: item.lastName },
        submittedAt: item.submittedAt.toISOString(),
        questionId: item.question.questionId,
        position: item.question.position,
        questionText: item.question.questionText,
        correctAnswer: item.question.correctAnswer,
        acceptedAnswers: item.question.acceptedAnswers ?? [],
        points: numericString(item.question.points),
        answer: item.question.answer,
      }));
    },
  };
}
