// This service's own facts (proto/assessment/v1), written to the outbox in the caller's
// transaction; the relay publishes them after commit. Key = assessment id, so one assessment's
// events stay in order.
import { timestampFromDate, timestampNow } from '@bufbuild/protobuf/wkt';
import {
  AssessmentActivationChangedSchema,
  AssessmentAssignedSchema,
  AssessmentCreatedSchema,
  AssessmentDeletedSchema,
  AssessmentUpdatedSchema,
  AccommodationsChangedSchema,
  AttemptProgressedSchema,
  CountedResultChangedSchema,
  create,
  enqueueEvent,
  QuestionsChangedSchema,
  ResultLevelRaisedSchema,
  ResultRegradedSchema,
  ResultSubmittedSchema,
  ResultWithdrawnSchema,
  RetakeGrantedSchema,
  type SqlExecutor,
} from '@checkpoint/events';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import type { StandardRef } from '../domain/standards.ts';

export const SOURCE = 'assessment';

export interface AssessmentFacts {
  id: string;
  tenantId: string;
  classId: string;
  teacherId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  isActive: boolean;
  /** Published as due_at (the analytics digest's reminders); absent or null: no due date. */
  dueDate?: Date | null;
  /** The standards chosen at creation (AssessmentCreated only). */
  standards?: readonly StandardRef[];
  /** The district's common assessment this one is a copy of; absent: the teacher's own. */
  commonAssessmentId?: string | null;
}

export interface GenerationFacts {
  contentToAssess: string;
  questionType: string;
  numberOfQuestions: number;
  /** Sent with their statements: the generator writes for them. */
  standards?: readonly StandardRef[];
}

export interface QuestionFacts {
  id: string;
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  points: number;
  standards?: readonly StandardRef[];
}

export interface ResultFacts {
  id: string;
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  earnedPoints: number;
  totalPoints: number;
  percentage: number;
  level: string;
  submittedAt: Date;
  answers: {
    questionId: string;
    answer: string;
    correct: boolean;
    pending?: boolean;
    earnedPoints?: number;
    /** The options the student was shown when fewer than all; empty or absent: all. */
    shownOptions?: string[];
  }[];
  /** The attempt (from 1) it closed, and whether it is now the attempt that counts. */
  attempt: number;
  counted: boolean;
}

/** A result after a teacher's regrade: its whole new state (docs/architecture.md, "Grading by hand"). */
export interface RegradeFacts extends Omit<ResultFacts, 'submittedAt' | 'attempt' | 'counted'> {
  scoreLevel: string;
  pendingCount: number;
  questionId: string;
  gradedBy: string;
}

/** One result of one student (the retake and reopen events). */
export type ResultRef = Pick<ResultFacts, 'id' | 'assessmentId' | 'tenantId' | 'classId' | 'studentId'>;

/** Counts only: how far an attempt is, never what was answered. */
export interface ProgressFacts {
  assessmentId: string;
  tenantId: string;
  classId: string;
  studentId: string;
  answeredCount: number;
  questionCount: number;
  startedAt: Date;
}

type Ref = Pick<AssessmentFacts, 'id' | 'tenantId' | 'classId'>;

/** Whom in one class an assessment is given to. */
export interface AssignmentFacts {
  classId: string;
  wholeClass: boolean;
  studentIds: readonly string[];
}

/** A standard as an event carries it; the statement only where the reader needs the words. */
const standardRef = (s: StandardRef, withStatement = false) => ({
  identifier: s.identifier,
  code: s.code,
  uri: s.uri,
  frameworkId: s.frameworkId ?? '',
  statement: withStatement ? s.statement : '',
});

function enqueue<D extends DescMessage>(
  tx: SqlExecutor,
  schema: D,
  key: string,
  tenantId: string,
  init: MessageInitShape<D>,
) {
  return enqueueEvent(tx, { source: SOURCE, schema, message: create(schema, init), key, tenantId });
}

/** A scored result as ResultSubmitted says it (CountedResultChanged carries the same). */
const resultMessage = (r: ResultFacts) => ({
  resultId: r.id,
  assessmentId: r.assessmentId,
  tenantId: r.tenantId,
  classId: r.classId,
  studentId: r.studentId,
  earnedPoints: r.earnedPoints,
  totalPoints: r.totalPoints,
  percentage: r.percentage,
  level: r.level,
  answers: r.answers,
  submittedAt: timestampFromDate(r.submittedAt),
  attempt: r.attempt,
  counted: r.counted,
});

export type AssessmentEvents = ReturnType<typeof assessmentEventsPublisher>;

export function assessmentEventsPublisher() {
  const ref = (a: Ref) => ({
    assessmentId: a.id,
    tenantId: a.tenantId,
    classId: a.classId,
    occurredAt: timestampNow(),
  });
  return {
    created: (tx: SqlExecutor, a: AssessmentFacts, generation: GenerationFacts | undefined) =>
      enqueue(tx, AssessmentCreatedSchema, a.id, a.tenantId, {
        ...ref(a),
        teacherId: a.teacherId,
        title: a.title,
        description: a.description,
        topic: a.topic,
        standard: a.standard,
        isActive: a.isActive,
        ...(generation
          ? {
              generation: {
                contentToAssess: generation.contentToAssess,
                questionType: generation.questionType,
                numberOfQuestions: generation.numberOfQuestions,
                standards: (generation.standards ?? []).map((s) => standardRef(s, true)),
              },
            }
          : {}),
        ...(a.dueDate ? { dueAt: timestampFromDate(a.dueDate) } : {}),
        standards: (a.standards ?? []).map((s) => standardRef(s)),
        ...(a.commonAssessmentId ? { commonAssessmentId: a.commonAssessmentId } : {}),
      }),
    updated: (tx: SqlExecutor, a: AssessmentFacts) =>
      enqueue(tx, AssessmentUpdatedSchema, a.id, a.tenantId, {
        ...ref(a),
        title: a.title,
        description: a.description,
        topic: a.topic,
        standard: a.standard,
        ...(a.dueDate ? { dueAt: timestampFromDate(a.dueDate) } : {}),
      }),
    activationChanged: (tx: SqlExecutor, a: Ref, isActive: boolean) =>
      enqueue(tx, AssessmentActivationChangedSchema, a.id, a.tenantId, { ...ref(a), isActive }),
    /** Given to `to.classId`: wholly, or to the students chosen there so far. */
    assigned: (
      tx: SqlExecutor,
      a: Ref,
      to: AssignmentFacts = { classId: a.classId, wholeClass: true, studentIds: [] },
    ) =>
      enqueue(tx, AssessmentAssignedSchema, a.id, a.tenantId, {
        ...ref(a),
        classId: to.classId,
        onlyChosen: !to.wholeClass,
        studentIds: to.wholeClass ? [] : [...to.studentIds],
      }),
    deleted: (tx: SqlExecutor, a: Ref) => enqueue(tx, AssessmentDeletedSchema, a.id, a.tenantId, ref(a)),
    questionsChanged: (tx: SqlExecutor, a: Ref, questions: QuestionFacts[]) =>
      enqueue(tx, QuestionsChangedSchema, a.id, a.tenantId, {
        ...ref(a),
        questions: questions.map((q) => ({
          questionId: q.id,
          questionText: q.questionText,
          questionType: q.questionType,
          options: q.options,
          correctAnswer: q.correctAnswer,
          points: q.points,
          standards: (q.standards ?? []).map((s) => standardRef(s)),
        })),
      }),
    resultSubmitted: (tx: SqlExecutor, r: ResultFacts) =>
      enqueue(tx, ResultSubmittedSchema, r.assessmentId, r.tenantId, resultMessage(r)),
    countedResultChanged: (tx: SqlExecutor, r: Omit<ResultFacts, 'counted'>) =>
      enqueue(tx, CountedResultChangedSchema, r.assessmentId, r.tenantId, {
        result: resultMessage({ ...r, counted: true }),
        occurredAt: timestampNow(),
      }),
    resultWithdrawn: (tx: SqlExecutor, r: ResultRef) =>
      enqueue(tx, ResultWithdrawnSchema, r.assessmentId, r.tenantId, {
        resultId: r.id,
        assessmentId: r.assessmentId,
        tenantId: r.tenantId,
        classId: r.classId,
        studentId: r.studentId,
        occurredAt: timestampNow(),
      }),
    retakeGranted: (tx: SqlExecutor, r: ResultRef, attempt: number) =>
      enqueue(tx, RetakeGrantedSchema, r.assessmentId, r.tenantId, {
        resultId: r.id,
        assessmentId: r.assessmentId,
        tenantId: r.tenantId,
        classId: r.classId,
        studentId: r.studentId,
        attempt,
        occurredAt: timestampNow(),
      }),
    resultRegraded: (tx: SqlExecutor, r: RegradeFacts) =>
      enqueue(tx, ResultRegradedSchema, r.assessmentId, r.tenantId, {
        resultId: r.id,
        assessmentId: r.assessmentId,
        tenantId: r.tenantId,
        classId: r.classId,
        studentId: r.studentId,
        earnedPoints: r.earnedPoints,
        totalPoints: r.totalPoints,
        percentage: r.percentage,
        level: r.level,
        scoreLevel: r.scoreLevel,
        answers: r.answers,
        pendingCount: r.pendingCount,
        questionId: r.questionId,
        gradedBy: r.gradedBy,
        occurredAt: timestampNow(),
      }),
    accommodationsChanged: (tx: SqlExecutor, a: { tenantId: string; studentId: string; reducedChoices: number }) =>
      enqueue(tx, AccommodationsChangedSchema, a.studentId, a.tenantId, {
        tenantId: a.tenantId,
        studentId: a.studentId,
        reducedChoices: a.reducedChoices,
        occurredAt: timestampNow(),
      }),
    attemptProgressed: (tx: SqlExecutor, p: ProgressFacts) =>
      enqueue(tx, AttemptProgressedSchema, p.assessmentId, p.tenantId, {
        assessmentId: p.assessmentId,
        tenantId: p.tenantId,
        classId: p.classId,
        studentId: p.studentId,
        answeredCount: p.answeredCount,
        questionCount: p.questionCount,
        startedAt: timestampFromDate(p.startedAt),
        occurredAt: timestampNow(),
      }),
    levelRaised: (
      tx: SqlExecutor,
      r: Pick<ResultFacts, 'id' | 'assessmentId' | 'tenantId' | 'classId' | 'studentId'>,
      fromLevel: string,
      toLevel: string,
      practiceAttempt = 0,
    ) =>
      enqueue(tx, ResultLevelRaisedSchema, r.assessmentId, r.tenantId, {
        resultId: r.id,
        assessmentId: r.assessmentId,
        tenantId: r.tenantId,
        classId: r.classId,
        studentId: r.studentId,
        fromLevel,
        toLevel,
        occurredAt: timestampNow(),
        practiceAttempt,
      }),
  };
}
