// What the assessment calls answer (the fields of each view), and who may see what: a student sees an assessment
// only while it is available to them (active, assigned, their class) or once they submitted it,
// and never the answer key before their result exists.
import type { QuestionType } from './questions.ts';
import { assessmentStandardView, questionStandardView, type StandardRef } from './standards.ts';
import { markAnswer, numericString, type PerformanceLevel, type RaisedBy } from './scoring.ts';
import { reducedOptions } from './accommodations.ts';

export type GenerationStatus = 'generating' | 'ready' | 'failed';

/**
 * Where an assessment is in its life: draft until assigned to its class, then
 * assigned while active, closed when deactivated after that (students can no longer start or
 * submit it). The Active/Inactive toggle of the assessments page moves between assigned and closed.
 */
export type LifecycleStatus = 'draft' | 'assigned' | 'closed';

export function lifecycleStatus(a: { assignedAt: Date | null; isActive: boolean }): LifecycleStatus {
  if (!a.assignedAt) return 'draft';
  return a.isActive ? 'assigned' : 'closed';
}

/** The caller as a teacher (or admin): their own classes only. */
export interface Owner {
  tenantId: string;
  teacherId: string;
}

export interface AssessmentRow {
  id: string;
  tenantId: string;
  classId: string;
  teacherId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  dueDate: Date | null;
  isActive: boolean;
  assignedAt: Date | null;
  contentToAssess: string;
  questionType: string;
  numberOfQuestions: number;
  generationStatus: GenerationStatus;
  generationProvider: string | null;
  generationError: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The district's common assessment this is a class's copy of (its questions locked); null: the teacher's own. */
  commonAssessmentId: string | null;
  /** Each student's own order of the questions / of each multiple-choice question's options (domain/shuffle.ts). */
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  /** Its window (null: no bound): students may open and answer it from opensAt and until closesAt. */
  opensAt: Date | null;
  closesAt: Date | null;
  /** Each attempt takes answers for this long from its start (null: no time limit). */
  timeLimitSeconds: number | null;
  /** Attempts allowed per student (1: no retake) and which of them counts. */
  maxAttempts: number;
  countedAttempt: CountedAttempt;
  /** A short answer off the key waits for the teacher's review instead of being marked (migrations/020). */
  reviewShortAnswers: boolean;
  className: string;
  subject: string;
  questionCount: number;
  responseCount: number;
  memberCount: number;
  /** The standards chosen at creation, in order (teacher reads only). */
  standards?: StandardRef[];
  /** The classes it is assigned to, its own first (teacher reads only). */
  assignments?: AssignmentRef[];
  /** The caller teaches its own class, so may change it (teacher reads only). */
  canEdit?: boolean;
}

/** One class an assessment is assigned to: all its members (later joiners too), or the students listed. */
export interface AssignmentRef {
  classId: string;
  className: string;
  wholeClass: boolean;
  studentIds: string[];
}

export interface TeacherAssessmentView {
  id: string;
  classId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  dueDate: string | null;
  isActive: boolean;
  isAssigned: boolean;
  assignedAt: string | null;
  status: LifecycleStatus;
  /** The classes it is assigned to (its one class once assigned; empty for a draft). */
  assignedTo: { classId: string; className: string; wholeClass: boolean; studentIds: string[] }[];
  createdAt: string;
  updatedAt: string;
  commonAssessmentId: string | null;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  opensAt: string | null;
  closesAt: string | null;
  timeLimitSeconds: number | null;
  maxAttempts: number;
  countedAttempt: CountedAttempt;
  reviewShortAnswers: boolean;
  className: string;
  subject: string;
  questionCount: number;
  responseCount: number;
  assignedCount: number;
  contentToAssess: string;
  questionType: string;
  numberOfQuestions: number;
  generationStatus: GenerationStatus;
  generationProvider: string | null;
  generationError: string | null;
  standards: ReturnType<typeof assessmentStandardView>[];
  canEdit: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function teacherView(a: AssessmentRow): TeacherAssessmentView {
  return {
    id: a.id,
    classId: a.classId,
    title: a.title,
    description: a.description,
    topic: a.topic,
    standard: a.standard,
    dueDate: iso(a.dueDate),
    isActive: a.isActive,
    isAssigned: a.assignedAt !== null,
    assignedAt: iso(a.assignedAt),
    status: lifecycleStatus(a),
    assignedTo: (a.assignments ?? []).map(({ classId, className, wholeClass, studentIds }) => ({
      classId,
      className,
      wholeClass,
      studentIds: wholeClass ? [] : studentIds,
    })),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    commonAssessmentId: a.commonAssessmentId,
    shuffleQuestions: a.shuffleQuestions,
    shuffleOptions: a.shuffleOptions,
    opensAt: iso(a.opensAt),
    closesAt: iso(a.closesAt),
    timeLimitSeconds: a.timeLimitSeconds,
    maxAttempts: a.maxAttempts,
    countedAttempt: a.countedAttempt,
    reviewShortAnswers: a.reviewShortAnswers,
    className: a.className,
    subject: a.subject,
    questionCount: a.questionCount,
    responseCount: a.responseCount,
    // Whole classes count every current member (later joiners too): the count follows the roster.
    assignedCount: a.assignedAt ? a.memberCount : 0,
    contentToAssess: a.contentToAssess,
    questionType: a.questionType,
    numberOfQuestions: a.numberOfQuestions,
    generationStatus: a.generationStatus,
    generationProvider: a.generationProvider,
    generationError: a.generationError,
    standards: (a.standards ?? []).map(assessmentStandardView),
    // A teacher of a class it is only assigned to reads it; changing it is its own class's teachers'.
    canEdit: a.canEdit === true,
  };
}

/** A student's relation to one assessment, read in one query. */
export interface StudentAccess {
  assessmentId: string;
  tenantId: string;
  classId: string;
  isActive: boolean;
  assigned: boolean;
  classArchived: boolean;
  member: boolean;
  resultId: string | null;
  /** A short answer off the key waits for the teacher's review instead of being marked (migrations/020). */
  reviewShortAnswers: boolean;
  /** Its window, and where the database's clock is in it (the client's clock is never asked). */
  opensAt: Date | null;
  closesAt: Date | null;
  notYetOpen: boolean;
  windowClosed: boolean;
  /**
   * The time limit as it applies to this student (their extra time counted; null: none), and their
   * attempt against it (started: the first read of the questions).
   */
  timeLimitSeconds: number | null;
  /** Distractors each multiple-choice question shows this student fewer (their accommodations). */
  reducedChoices: number;
  startedAt: Date | null;
  /** Seconds the attempt still takes answers (null: no limit or not started). */
  secondsLeft: number | null;
  timeUp: boolean;
}

/** Available = they may open, answer and submit it now. */
export const isAvailable = (a: StudentAccess) =>
  a.member && a.assigned && a.isActive && !a.classArchived && !a.notYetOpen && !a.windowClosed && !a.timeUp;
/** Visible = available, or submitted (their own result stays readable). */
export const isVisible = (a: StudentAccess) => a.resultId !== null || isAvailable(a);

export interface StudentAssessmentView {
  id: string;
  classId: string;
  title: string;
  description: string;
  dueDate: string | null;
  isActive: boolean;
  createdAt: string;
  className: string;
  subject: string;
  questionCount: number;
  submitted: boolean;
  resultId: string | null;
  opensAt: string | null;
  closesAt: string | null;
  timeLimitSeconds: number | null;
  /** Seconds this attempt still takes answers, as the server counts (null: no limit, or not started). */
  secondsLeft: number | null;
}

/** What a student's view of an assessment is made of. */
export type StudentAssessmentRow = Pick<
  AssessmentRow,
  | 'id'
  | 'classId'
  | 'title'
  | 'description'
  | 'dueDate'
  | 'isActive'
  | 'createdAt'
  | 'className'
  | 'subject'
  | 'questionCount'
>;

export function studentView(a: StudentAssessmentRow, access: StudentAccess): StudentAssessmentView {
  return {
    id: a.id,
    classId: a.classId,
    title: a.title,
    description: a.description,
    dueDate: iso(a.dueDate),
    isActive: a.isActive,
    createdAt: a.createdAt.toISOString(),
    className: a.className,
    subject: a.subject,
    questionCount: a.questionCount,
    submitted: access.resultId !== null,
    resultId: access.resultId,
    opensAt: iso(access.opensAt),
    closesAt: iso(access.closesAt),
    timeLimitSeconds: access.timeLimitSeconds,
    secondsLeft: access.secondsLeft,
  };
}

export interface QuestionRow {
  id: string;
  assessmentId: string;
  position: number;
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  acceptedAnswers: string[];
  points: number;
  /** The question's alignment (teacher reads only). */
  standards?: StandardRef[];
}

export interface QuestionView {
  id: string;
  assessmentId: string;
  questionText: string;
  questionType: QuestionType;
  options: string[];
  correctAnswer?: string;
  acceptedAnswers?: string[];
  points: string;
  position: number;
  /** Teachers only: students never get the alignment. */
  standards?: ReturnType<typeof questionStandardView>[];
}

export function questionView(q: QuestionRow, withAnswer: boolean): QuestionView {
  return {
    id: q.id,
    assessmentId: q.assessmentId,
    questionText: q.questionText,
    questionType: q.questionType as QuestionType,
    options: q.options,
    // The alternatives are part of the key: never shown before the key is.
    ...(withAnswer ? { correctAnswer: q.correctAnswer, acceptedAnswers: q.acceptedAnswers } : {}),
    points: numericString(q.points),
    position: q.position,
    ...(withAnswer && q.standards ? { standards: q.standards.map(questionStandardView) } : {}),
  };
}

/** Which of a student's attempts counts: the latest submitted, or the best by percentage. */
/**
 * The longest texts an assessment holds, in characters: what the API takes, and what an import
 * (QTI) clips or leaves out to stay within it.
 */
export const TEXT_LIMITS = { title: 200, description: 5_000, content: 20_000, answer: 5_000, question: 5_000 } as const;

export const COUNTED_ATTEMPTS = ['latest', 'best'] as const;
export type CountedAttempt = (typeof COUNTED_ATTEMPTS)[number];

export interface ResultRow {
  id: string;
  assessmentId: string;
  studentId: string;
  classId: string;
  tenantId: string;
  totalPoints: number;
  earnedPoints: number;
  percentage: number;
  performanceLevel: PerformanceLevel;
  /** The level the score gave at submission (= performanceLevel unless raised). */
  originalLevel: PerformanceLevel;
  /** What raised the level since submission; null when it is the score's own level. */
  raisedBy: RaisedBy | null;
  /** Which practice attempt (from 1) raised the level; null when not raised or not known. */
  raisedAttempt: number | null;
  correctAnswers: number;
  incorrectAnswers: number;
  totalQuestions: number;
  submittedAt: Date;
  /** The attempt (from 1) this result closed; superseded: a retake was granted after it. */
  attempt: number;
  superseded: boolean;
  /** The one result of the student's attempts that counts (the assessment's countedAttempt). */
  counted: boolean;
  maxAttempts: number;
  countedAttempt: CountedAttempt;
  /** The teacher's written feedback on the whole result; null: none. */
  feedback: string | null;
  /** Answers waiting for the teacher's review (0 points until then). */
  pendingReview: number;
  /** When the teacher last changed a mark; null: never. */
  regradedAt: Date | null;
  title: string;
  description: string;
  className: string;
  teacherId: string;
  firstName: string | null;
  lastName: string | null;
}

export function resultView(r: ResultRow) {
  return {
    id: r.id,
    assessmentId: r.assessmentId,
    studentId: r.studentId,
    classId: r.classId,
    totalPoints: numericString(r.totalPoints),
    earnedPoints: numericString(r.earnedPoints),
    percentage: numericString(r.percentage),
    score: r.percentage,
    performanceLevel: r.performanceLevel,
    originalLevel: r.originalLevel,
    // A raise that no longer lifts the level (a regrade brought the score up to it) is not shown.
    raisedBy: r.performanceLevel !== r.originalLevel ? r.raisedBy : null,
    raisedAttempt: r.raisedAttempt,
    isSubmitted: true as const,
    submittedAt: r.submittedAt.toISOString(),
    attempt: r.attempt,
    maxAttempts: r.maxAttempts,
    counted: r.counted,
    countedAttempt: r.countedAttempt,
    correctAnswers: r.correctAnswers,
    incorrectAnswers: r.incorrectAnswers,
    totalQuestions: r.totalQuestions,
    feedback: r.feedback,
    pendingReview: r.pendingReview,
    regradedAt: r.regradedAt ? r.regradedAt.toISOString() : null,
    className: r.className,
    assessment: { title: r.title, description: r.description },
    student: { firstName: r.firstName, lastName: r.lastName },
  };
}
export type ResultView = ReturnType<typeof resultView>;

/**
 * One question of a result as it was scored: kept with the result (migrations/004), so a later
 * edit of the question changes neither the score nor what the review says about it.
 */
export interface ResultQuestionRecord {
  questionId: string;
  position: number;
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  /** Short answer alternatives scored as right; absent in reviews stored before migration 007. */
  acceptedAnswers?: string[];
  points: number;
  /** The student's stored answer; null when they never answered the question. */
  answer: string | null;
  /** Full points earned. */
  correct: boolean;
  /** The points the answer earned (migrations/020); absent in older reviews: all when correct, else 0. */
  earnedPoints?: number;
  /** Waiting for the teacher's review (0 points until then); absent: false. */
  pending?: boolean;
  /** The teacher's written feedback on this answer; absent: none. */
  feedback?: string;
  /**
   * The options the student was shown (reduced answer choices, domain/accommodations.ts), fixed
   * when the result was scored; absent: all of `options` were shown.
   */
  shownOptions?: string[];
}

/** The points a reviewed question earned (older reviews: all when correct, else none). */
export const earnedOf = (q: ResultQuestionRecord): number =>
  q.pending ? 0 : (q.earnedPoints ?? (q.correct ? q.points : 0));

/**
 * Every question in order with the student's answer, marked as scoring marks it (`reviewShortAnswers`:
 * a short answer off the key waits for the teacher).
 */
export function reviewOf(
  questions: QuestionRow[],
  answers: ReadonlyMap<string, string>,
  options: { reviewShortAnswers?: boolean; reducedFor?: { studentId: string; reducedChoices: number } } = {},
): ResultQuestionRecord[] {
  const { reducedFor, ...marking } = options;
  return questions.map((q) => {
    const answer = answers.get(q.id);
    const mark = markAnswer(q, answer, marking);
    const shown = reducedFor ? reducedOptions(q, reducedFor.studentId, reducedFor.reducedChoices) : q.options;
    return {
      questionId: q.id,
      position: q.position,
      questionText: q.questionText,
      questionType: q.questionType,
      options: q.options,
      correctAnswer: q.correctAnswer,
      acceptedAnswers: q.acceptedAnswers,
      points: q.points,
      answer: answer ?? null,
      correct: !mark.pending && mark.earnedPoints === q.points,
      earnedPoints: mark.earnedPoints,
      pending: mark.pending,
      ...(shown.length < q.options.length ? { shownOptions: shown } : {}),
    };
  });
}

/**
 * The answers as the result events carry them: each with the options its student was shown when
 * fewer than all (empty: all were shown), taken from the result's review.
 */
export function withShownOptions<A extends { questionId: string }>(
  answers: readonly A[],
  review: readonly ResultQuestionRecord[],
): (A & { shownOptions: string[] })[] {
  const shown = new Map(review.map((q) => [q.questionId, q.shownOptions ?? []]));
  return answers.map((a) => ({ ...a, shownOptions: shown.get(a.questionId) ?? [] }));
}

/**
 * A result with its questions, answer keys included: only ever built for a result that exists, for
 * the student who owns it or the teacher of the class (SECURITY: no key before the result exists).
 */
export function resultDetailView(r: ResultRow, questions: ResultQuestionRecord[]) {
  return { ...resultView(r), questions: reviewView(questions) };
}
export type ResultDetailView = ReturnType<typeof resultDetailView>;

/** Each question as scored, with the key: a result's review, or the teacher's own preview. */
export function reviewView(questions: ResultQuestionRecord[]) {
  return questions.map((q) => ({
    questionId: q.questionId,
    position: q.position,
    questionText: q.questionText,
    questionType: q.questionType as QuestionType,
    options: q.options,
    correctAnswer: q.correctAnswer,
    acceptedAnswers: q.acceptedAnswers ?? [],
    points: numericString(q.points),
    answer: q.answer,
    correct: q.correct,
    earnedPoints: numericString(earnedOf(q)),
    pending: q.pending ?? false,
    feedback: q.feedback ?? null,
    shownOptions: q.shownOptions ?? null,
  }));
}
