// What teachers and students do with assessments. Ownership is enforced by the repository's scoped
// queries; here: the rules of who may see, answer and submit what, and server-side scoring. Each
// change is whole here: it opens the transaction, reads and writes through the repository,
// decides, and adds its event to the outbox in that transaction.
import type { ResponseRecord } from '../data-access/assessment-rows.ts';
import type { CountedNow, StudentAttemptsRepository } from '../data-access/student-attempts.repository.ts';
import type { TeacherAssessmentsRepository, TeacherTx } from '../data-access/teacher-assessments.repository.ts';
import type { AssessmentEvents } from '../messaging/assessment-events.publisher.ts';
import {
  isAvailable,
  isVisible,
  questionView,
  resultDetailView,
  resultView,
  reviewOf,
  reviewView,
  withShownOptions,
  studentView,
  teacherView,
  type Owner,
  type QuestionRow,
  type QuestionView,
  type ResultDetailView,
  type StudentAccess,
  type StudentAssessmentView,
  type TeacherAssessmentView,
  type CountedAttempt,
} from './assessment.ts';
import {
  AlreadySubmittedError,
  AttemptOpenError,
  NoRetakeAllowedError,
  NotCurrentAttemptError,
  AssessmentInactiveError,
  AssessmentNotOpenError,
  AssessmentWindowClosedError,
  AttemptNotStartedError,
  TimeUpError,
  AssessmentNotFoundError,
  ClassNotFoundError,
  CommonAssessmentLockedError,
  GenerationPendingError,
  HasSubmissionsError,
  NoQuestionsError,
  QuestionNotFoundError,
  ResultNotFoundError,
  TooManyQuestionsError,
} from './errors.ts';
import {
  isProblem,
  MAX_QUESTIONS,
  normalizeQuestion,
  parseOptions,
  type QuestionInput,
  type QuestionType,
} from './questions.ts';
import { numericString, scoreSubmission, type Score } from './scoring.ts';
import { labelsFor } from './labels.ts';
import { studentOrder, type ShuffleSettings } from './shuffle.ts';
import { reducedOptions } from './accommodations.ts';
import { planAssignment, type AssignTarget } from './assigning.ts';
import { teachesResult } from './result-access.ts';
import { inOrder, labelsWithStandards, type StandardRef } from './standards.ts';
import { ConflictError, lookupNow, NotFoundError, ValidationError, type AwaitRecent } from '@checkpoint/service-kit';

export interface CreateAssessmentInput {
  classId: string;
  title: string;
  description: string;
  contentToAssess: string;
  questionType: string;
  numberOfQuestions: number;
  topic: string;
  standard: string;
  dueDate?: Date | null | undefined;
  /** CASE item identifiers chosen from the catalogue (checked by the schema: at most 10, none twice). */
  standards?: string[] | undefined;
}

export interface QuestionEdit {
  questionText: string;
  questionType: QuestionType;
  /** Absent: none for a new question, the stored ones for an edit. */
  options?: unknown;
  correctAnswer: string;
  /** Short answer alternatives; absent: none for a new question, the stored ones for an edit. */
  acceptedAnswers?: string[] | undefined;
  /** Absent: 1 for a new question, the stored points for an edit (the spec's edit sends none). */
  points?: number | undefined;
  /** CASE item identifiers: the question's whole alignment. Absent: none for a new question, the stored ones for an edit. */
  standards?: string[] | undefined;
}

/** How students are given it: each left out keeps the stored one. */
export type DeliverySettings = { isActive?: boolean | undefined } & {
  [K in keyof ShuffleSettings]?: ShuffleSettings[K] | undefined;
} & {
  /** Its window; null clears a bound. */
  opensAt?: Date | null | undefined;
  closesAt?: Date | null | undefined;
  /** Null: no time limit. */
  timeLimitSeconds?: number | null | undefined;
  /** Attempts allowed per student (1-10) and which counts. */
  maxAttempts?: number | undefined;
  countedAttempt?: CountedAttempt | undefined;
  /** A short answer off the key waits for the teacher's review (applies to submissions from then on). */
  reviewShortAnswers?: boolean | undefined;
};

/** A result that counts now as its events carry it: the answers as submitted, from its review. */
export const countedFacts = (c: CountedNow) => ({
  ...c,
  answers: c.questions.map((q) => ({
    questionId: q.questionId,
    answer: q.answer ?? '',
    correct: q.correct,
    shownOptions: q.shownOptions ?? [],
  })),
});

const WINDOW_ORDER = 'Closes at must be later than Opens at';
const CLOSES_IN_PAST = 'Closes at must not be in the past: to close it now, set it inactive';

/** What the close sweep's pass is told by its loop: whether to go on, and where to report a failure. */
export interface SweepHooks {
  running?: () => boolean;
  failed?: (error: unknown, attempt: { assessmentId: string; studentId: string }) => void;
}

export type UpdateInput =
  | DeliverySettings
  | (DeliverySettings & {
      title: string;
      description: string;
      topic: string;
      standard: string;
      /** Undefined keeps the stored one; null clears it. */
      dueDate?: Date | null | undefined;
    });

/** The caller as a student: their own id (memberships decide the rest). */
export interface StudentCaller {
  studentId: string;
}

export type AssessmentUseCases = ReturnType<typeof assessmentUseCases>;

export function checkQuestion(edit: QuestionEdit & { points: number; acceptedAnswers: string[] }) {
  const points = Math.round(edit.points * 100) / 100;
  // Points are kept in hundredths: less than 0.005 would be stored (and scored) as 0.
  if (points <= 0) throw new ValidationError('Points must be more than 0', { points: 'Points must be more than 0' });
  const q = normalizeQuestion({
    questionText: edit.questionText.trim(),
    questionType: edit.questionType,
    options: parseOptions(edit.options),
    correctAnswer: edit.correctAnswer,
    acceptedAnswers: edit.acceptedAnswers,
    points,
  });
  if (isProblem(q)) throw new ValidationError(q.message, { [q.field]: q.message });
  return q;
}

/** Whether an edit changes how answers are scored (anything but the question's wording). */
function changesScoring(before: QuestionRow, after: QuestionInput): boolean {
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  return (
    before.questionType !== after.questionType ||
    before.correctAnswer !== after.correctAnswer ||
    Number(before.points) !== after.points ||
    !same(before.options, after.options) ||
    !same(before.acceptedAnswers, after.acceptedAnswers)
  );
}

/**
 * Answering and submitting need an available, not yet submitted assessment: the access when the
 * student may answer now; else why not. `submitting`: after the close time a
 * submit is still taken (it scores only what was saved before it, as the close sweep does).
 */
function requireOpen(access: StudentAccess | undefined, { submitting = false } = {}): StudentAccess {
  if (!access || !access.member || !access.assigned || access.classArchived) {
    // Submitted but no longer a member still knows it submitted.
    if (access?.resultId) throw new AlreadySubmittedError();
    throw new AssessmentNotFoundError();
  }
  if (access.resultId) throw new AlreadySubmittedError();
  if (!access.isActive) throw new AssessmentInactiveError();
  if (access.notYetOpen) throw new AssessmentNotOpenError();
  if (access.windowClosed && !submitting) throw new AssessmentWindowClosedError();
  if (access.timeUp && !submitting) throw new TimeUpError();
  return access;
}

/** A preview's score in the shapes of a result (numeric strings as the spec's result fields). */
function previewFigures(s: Score) {
  return {
    totalPoints: numericString(s.totalPoints),
    earnedPoints: numericString(s.earnedPoints),
    percentage: numericString(s.percentage),
    score: s.percentage,
    performanceLevel: s.level,
    correctAnswers: s.correctAnswers,
    incorrectAnswers: s.incorrectAnswers,
    totalQuestions: s.totalQuestions,
  };
}

export function assessmentUseCases({
  assessments,
  attempts,
  events,
  awaitRecent = lookupNow,
}: {
  assessments: TeacherAssessmentsRepository;
  attempts: StudentAttemptsRepository;
  events: AssessmentEvents;
  /** A class created a moment ago may not have reached our copy yet: wait for it, boundedly. */
  awaitRecent?: AwaitRecent;
}) {
  const ownsClass = (owner: Owner, classId: string) =>
    awaitRecent(classId, () => assessments.ownsClass(owner, classId));

  /** What the caller reads (a teacher of its class or of a class it is assigned to), else 404. */
  async function readable(owner: Owner, id: string) {
    const found = await assessments.findReadable(owner, id);
    if (!found) throw new AssessmentNotFoundError();
    return found;
  }
  const owned = async (owner: Owner, id: string) => (await readable(owner, id)).row;

  /** lockForEdit, for a change of the questions: refused (409) on a copy of a common assessment. */
  async function lockQuestions(tx: TeacherTx, assessmentId: string) {
    await assessments.lockForEdit(tx, assessmentId);
    if (await assessments.isCommonCopy(tx, assessmentId)) throw new CommonAssessmentLockedError();
  }

  /**
   * Locks the assessment for a change of its set of questions (serialised with the others and with
   * assigning, so the limit holds) and refuses it once a student has submitted: results keep the
   * score they were given.
   */
  async function lockUnsubmitted(tx: TeacherTx, assessmentId: string) {
    await lockQuestions(tx, assessmentId);
    if (await assessments.hasResults(tx, assessmentId)) throw new HasSubmissionsError();
  }

  /**
   * The chosen identifiers as catalogue items the owner's tenant may align to, in `tx`; any other
   * is refused naming `standards[i]`. `kept`: alignments a question already has, which stay
   * valid even if their item was withdrawn since (an edit of the question's text keeps them).
   */
  async function chosenStandards(
    tx: TeacherTx,
    owner: Owner,
    identifiers: readonly string[],
    kept: readonly StandardRef[] = [],
  ): Promise<StandardRef[]> {
    const found = await assessments.resolveStandards(tx, owner.tenantId, identifiers);
    for (const k of kept) if (!found.has(k.identifier)) found.set(k.identifier, k);
    return inOrder(identifiers, found);
  }

  /** QuestionsChanged with the full current list, in `tx`; returns that list. */
  async function announce(tx: TeacherTx, a: { id: string; tenantId: string; classId: string }) {
    const questions = await assessments.listQuestions(a.id, tx);
    await events.questionsChanged(tx, a, questions);
    return questions;
  }

  /**
   * After a save that changed how many questions are answered (a first answer, or one cleared):
   * AttemptProgressed, the teacher's live progress, in a short transaction of its own. Edits of an
   * answered question, most saves, cost nothing more, and an attempt sends at most one event per
   * change of its count. The event carries the absolute count, so if the process stops between
   * the save and this, the next change (or the result) makes it good.
   */
  async function saved(
    studentId: string,
    assessmentId: string,
    outcome: { saved: ResponseRecord; answeredChanged?: boolean },
  ) {
    if (outcome.answeredChanged)
      await attempts.transaction(async (tx) => {
        // Taken in turn per attempt: the counts reach the outbox in the order they were read.
        const p = await attempts.attemptProgress(tx, assessmentId, studentId);
        if (p) await events.attemptProgressed(tx, { assessmentId, studentId, ...p });
      });
    return outcome.saved;
  }

  /**
   * Scores and stores the student's submission, under the submission lock. `closing` (the close
   * sweep): only when the close time has passed by then; undefined otherwise.
   */
  async function submitAttempt(
    studentId: string,
    assessmentId: string,
    { closing }: { closing: boolean },
  ): Promise<ResultDetailView | undefined> {
    const submission = await attempts.transaction(async (tx) => {
      // Under the submission lock: a save of this attempt waits for the result, then is refused.
      const access = requireOpen(await attempts.lockForSubmission(tx, assessmentId, studentId), { submitting: true });
      // The sweep's look-up is not a lock: the teacher may have moved the close time since.
      if (closing && !access.windowClosed && !access.timeUp) return undefined;
      const { questions, answers } = await attempts.questionsAndAnswers(assessmentId, studentId, tx);
      if (questions.length === 0) throw new NoQuestionsError();
      // The score, its percentage and its performance level (scoring.ts), and the review of each question.
      const marking = { reviewShortAnswers: access.reviewShortAnswers };
      const score = scoreSubmission(questions, answers, marking);
      // Reduced answer choices: the review keeps the options the student was shown (the rule of
      // their questions route, with their setting as it is now, read with the access above).
      const reducedFor = { studentId, reducedChoices: access.reducedChoices };
      const review = reviewOf(questions, answers, { ...marking, reducedFor });
      const submittedAt = new Date();
      const { tenantId, classId } = access;
      const stored = await attempts.insertResult(tx, {
        assessmentId,
        tenantId,
        classId,
        studentId,
        score,
        submittedAt,
        questions: review,
      });
      // Another submission of this attempt got there first (the unique key decides).
      if (!stored) throw new AlreadySubmittedError();
      await events.resultSubmitted(tx, {
        id: stored.id,
        assessmentId,
        tenantId,
        classId,
        studentId,
        earnedPoints: score.earnedPoints,
        totalPoints: score.totalPoints,
        percentage: score.percentage,
        level: score.level,
        submittedAt,
        answers: withShownOptions(score.answers, review),
        attempt: stored.attempt,
        counted: stored.counted,
      });
      return { stored, review };
    });
    return submission && resultDetailView(submission.stored, submission.review);
  }

  /**
   * Several at once, in order, on addQuestion's rules (all or none): the item bank's "add to an
   * assessment" (domain/bank.use-case.ts). `keptStandards`: alignments copied with the question,
   * which stay valid even if their catalogue item was withdrawn since.
   */
  async function addQuestions(
    owner: Owner,
    id: string,
    edits: (QuestionEdit & { keptStandards?: readonly StandardRef[] })[],
  ): Promise<QuestionView[]> {
    const checked = edits.map((edit) => ({
      edit,
      q: checkQuestion({ ...edit, points: edit.points ?? 1, acceptedAnswers: edit.acceptedAnswers ?? [] }),
    }));
    const added = await assessments.transaction(async (tx) => {
      const a = await assessments.findOwned(owner, id, tx);
      if (!a) throw new AssessmentNotFoundError();
      await lockUnsubmitted(tx, a.id);
      if ((await assessments.questionCount(tx, a.id)) + checked.length > MAX_QUESTIONS)
        throw new TooManyQuestionsError(MAX_QUESTIONS);
      const rows = [];
      for (const { edit, q } of checked)
        rows.push({ ...q, standards: await chosenStandards(tx, owner, edit.standards ?? [], edit.keptStandards) });
      await assessments.insertQuestions(tx, a, rows);
      const all = await announce(tx, a);
      return all.slice(all.length - checked.length);
    });
    return added.map((q) => questionView(q, true));
  }

  return {
    // ---- teachers ----
    list: async (owner: Owner): Promise<TeacherAssessmentView[]> =>
      (await assessments.listForTeacher(owner)).map(teacherView),

    async listForClass(owner: Owner, classId: string): Promise<TeacherAssessmentView[]> {
      if (!(await ownsClass(owner, classId))) throw new ClassNotFoundError();
      return (await assessments.listForTeacher(owner, classId)).map(teacherView);
    },

    async create(owner: Owner, input: CreateAssessmentInput): Promise<TeacherAssessmentView> {
      // Topic and standard are their own short fields, never the pasted lesson; one of the two
      // creation payloads sends the lesson in them, so their labels are derived (labels.ts).
      const generation = {
        contentToAssess: input.contentToAssess,
        questionType: input.questionType,
        numberOfQuestions: input.numberOfQuestions,
      };
      // Undefined while our copy of the class is missing (then it is awaited once, below).
      const create = () =>
        assessments.transaction(async (tx) => {
          // The class's tenant: a co-teacher's assessment belongs to the class's owner's tenant.
          const classTenant = await assessments.taughtClassTenant(owner, input.classId, tx);
          if (!classTenant) return undefined;
          const author = { tenantId: classTenant, teacherId: owner.teacherId };
          // Checked against the catalogue in the transaction that stores the copies.
          const standards = await chosenStandards(tx, author, input.standards ?? []);
          // Empty labels are filled from the chosen standards (their codes; the first statement).
          const labels = labelsWithStandards(labelsFor(input), standards);
          const fields = {
            classId: input.classId,
            title: input.title,
            description: input.description,
            topic: labels.topic,
            standard: labels.standard,
            dueDate: input.dueDate ?? null,
          };
          const id = await assessments.insert(tx, author, { ...fields, generation });
          await assessments.insertAssessmentStandards(tx, { id, tenantId: author.tenantId }, standards);
          const facts = {
            ...fields,
            id,
            tenantId: author.tenantId,
            teacherId: owner.teacherId,
            isActive: true,
            standards,
          };
          await events.created(tx, facts, { ...generation, standards });
          return assessments.findOwned(owner, id, tx);
        });
      const created = (await create()) ?? ((await ownsClass(owner, input.classId)) ? await create() : undefined);
      if (!created) throw new ClassNotFoundError();
      return teacherView(created);
    },

    getForTeacher: async (owner: Owner, id: string) => teacherView(await owned(owner, id)),

    async update(owner: Owner, id: string, input: UpdateInput): Promise<TeacherAssessmentView> {
      const updated = await assessments.transaction(async (tx) => {
        // Two changes of one assessment at once each keep what the other did not send.
        await assessments.lockForEdit(tx, id);
        const current = await assessments.findOwned(owner, id, tx);
        if (!current) throw new AssessmentNotFoundError();
        const { isActive, shuffleQuestions, shuffleOptions } = input;
        if ('title' in input) {
          // An absent due date keeps the stored one (the details form may send none); null clears it.
          const details = {
            title: input.title,
            description: input.description,
            topic: input.topic,
            standard: input.standard,
            dueDate: input.dueDate === undefined ? current.dueDate : input.dueDate,
          };
          await assessments.updateDetails(tx, id, details, isActive);
          await events.updated(tx, { ...current, ...details });
        } else if (isActive !== undefined && isActive !== current.isActive) {
          await assessments.setActive(tx, id, isActive);
        }
        if (isActive !== undefined && isActive !== current.isActive)
          await events.activationChanged(tx, current, isActive);
        const { opensAt, closesAt, timeLimitSeconds } = input;
        if ([shuffleQuestions, shuffleOptions, opensAt, closesAt, timeLimitSeconds].some((v) => v !== undefined)) {
          const delivery = {
            timeLimitSeconds: timeLimitSeconds === undefined ? current.timeLimitSeconds : timeLimitSeconds,
            shuffleQuestions: shuffleQuestions ?? current.shuffleQuestions,
            shuffleOptions: shuffleOptions ?? current.shuffleOptions,
            opensAt: opensAt === undefined ? current.opensAt : opensAt,
            closesAt: closesAt === undefined ? current.closesAt : closesAt,
          };
          if (delivery.opensAt && delivery.closesAt && delivery.closesAt <= delivery.opensAt)
            throw new ValidationError(WINDOW_ORDER, { closesAt: WINDOW_ORDER });
          // A close time set in the past would submit every started attempt at once (a slip of AM
          // and PM); closing now is what isActive is for.
          if (
            closesAt &&
            closesAt.getTime() !== current.closesAt?.getTime() &&
            closesAt.getTime() < Date.now() - 60_000
          )
            throw new ValidationError(CLOSES_IN_PAST, { closesAt: CLOSES_IN_PAST });
          await assessments.setDelivery(tx, id, delivery);
        }
        const { maxAttempts, countedAttempt } = input;
        if (
          (maxAttempts !== undefined && maxAttempts !== current.maxAttempts) ||
          (countedAttempt !== undefined && countedAttempt !== current.countedAttempt)
        ) {
          const changed = await assessments.setAttempts(tx, id, {
            maxAttempts: maxAttempts ?? current.maxAttempts,
            countedAttempt: countedAttempt ?? current.countedAttempt,
          });
          // Each student whose counted attempt switched (latest <-> best): their read models follow.
          for (const r of changed) await events.countedResultChanged(tx, countedFacts(r));
        }
        if (input.reviewShortAnswers !== undefined && input.reviewShortAnswers !== current.reviewShortAnswers)
          await assessments.setReviewShortAnswers(tx, id, input.reviewShortAnswers);
        return assessments.findOwned(owner, id, tx);
      });
      return teacherView(updated!);
    },

    async delete(owner: Owner, id: string): Promise<void> {
      await assessments.transaction(async (tx) => {
        const current = await assessments.findOwned(owner, id, tx);
        if (!current) throw new AssessmentNotFoundError();
        await assessments.delete(tx, id);
        await events.deleted(tx, current);
      });
    },

    /**
     * Gives the assessment to classes of the owner (its own class when none is named), wholly
     * (later joiners included) or, with `studentIds`, to those students of them. It only adds: a
     * class given wholly stays so, and chosen students join those chosen before. Each class whose
     * assignment changed gets its event.
     */
    async assign(owner: Owner, id: string, target: AssignTarget = {}) {
      const a = await assessments.transaction(async (tx) => {
        const current = await assessments.findOwned(owner, id, tx);
        if (!current) throw new AssessmentNotFoundError();
        // Serialised with question edits (students are never given an assessment without a
        // question to answer) and with other assigns (each reads what the last one left).
        await assessments.lockForEdit(tx, id);
        if ((await assessments.questionCount(tx, id)) === 0) throw new NoQuestionsError();
        const plan = planAssignment(
          target,
          current.classId,
          await assessments.ownedClasses(tx, owner, target.classIds ?? [current.classId]),
          target.studentIds ? await assessments.membersOf(tx, target.classIds ?? [current.classId]) : new Map(),
          await assessments.assignmentsOf(tx, id),
        );
        await assessments.markAssigned(tx, id);
        for (const to of plan) {
          await assessments.setAssignment(tx, current, to);
          await events.assigned(tx, current, to);
        }
        return assessments.findOwned(owner, id, tx);
      });
      const n = a!.memberCount;
      return { message: `Assessment assigned to ${n} student${n === 1 ? '' : 's'}`, assignedCount: n };
    },

    /**
     * A draft copy in another of the owner's classes (or the same), to change there: its details,
     * chosen standards, questions with their alignment and delivery settings; not assigned. Later
     * changes of either never reach the other.
     */
    async copy(owner: Owner, id: string, input: { classId: string; title?: string | undefined }) {
      const created = await assessments.transaction(async (tx) => {
        const source = await assessments.findOwned(owner, id, tx);
        if (!source) throw new AssessmentNotFoundError();
        const target = (await assessments.ownedClasses(tx, owner, [input.classId])).get(input.classId);
        if (!target) throw new ValidationError('Not one of your classes', { classId: 'Not one of your classes' });
        if (target.archived) {
          const message = 'This class is archived: restore it to copy into it';
          throw new ValidationError(message, { classId: message });
        }
        if (source.generationStatus === 'generating') throw new GenerationPendingError();
        const fields = {
          classId: input.classId,
          title: input.title ?? source.title,
          description: source.description,
          topic: source.topic,
          standard: source.standard,
          dueDate: source.dueDate,
        };
        const generation = {
          contentToAssess: source.contentToAssess,
          questionType: source.questionType,
          numberOfQuestions: source.numberOfQuestions,
        };
        const copyId = await assessments.insert(
          tx,
          { tenantId: target.tenantId, teacherId: owner.teacherId },
          { ...fields, generation },
          { ready: true },
        );
        const copy = { id: copyId, tenantId: target.tenantId, classId: input.classId };
        const standards = await assessments.assessmentStandards(tx, id);
        await assessments.insertAssessmentStandards(tx, copy, standards);
        for (const q of await assessments.listQuestions(id, tx))
          await assessments.insertQuestionAt(tx, copy, q.position, q);
        await assessments.copyDelivery(tx, id, copyId);
        await events.created(
          tx,
          { ...fields, ...copy, teacherId: owner.teacherId, isActive: true, standards },
          undefined,
        );
        await announce(tx, copy);
        return assessments.findOwned(owner, copyId, tx);
      });
      return teacherView(created!);
    },

    async questionsForTeacher(owner: Owner, id: string): Promise<QuestionView[]> {
      await owned(owner, id);
      return (await assessments.listQuestions(id)).map((q) => questionView(q, true));
    },

    /** Appended after the last question; at most MAX_QUESTIONS, and none once a student submitted. */
    async addQuestion(owner: Owner, id: string, edit: QuestionEdit): Promise<QuestionView> {
      return (await addQuestions(owner, id, [edit]))[0]!;
    },

    addQuestions,

    /** A copy of the question right after it (the ones below move down one). */
    async duplicateQuestion(owner: Owner, questionId: string): Promise<QuestionView> {
      const copy = await assessments.transaction(async (tx) => {
        const a = await assessments.findOwnedQuestion(owner, questionId, tx);
        if (!a) throw new QuestionNotFoundError();
        await lockUnsubmitted(tx, a.id);
        const all = await assessments.listQuestions(a.id, tx);
        const at = all.findIndex((x) => x.id === questionId);
        if (at < 0) throw new QuestionNotFoundError();
        if (all.length >= MAX_QUESTIONS) throw new TooManyQuestionsError(MAX_QUESTIONS);
        const source = all[at]!;
        const id = await assessments.insertQuestionAt(tx, a, source.position, source);
        const ids = all.map((x) => x.id);
        await assessments.renumber(tx, [...ids.slice(0, at + 1), id, ...ids.slice(at + 1)]);
        return (await announce(tx, a)).find((x) => x.id === id)!;
      });
      return questionView(copy, true);
    },

    /**
     * Puts the questions in the given order; refused unless the ids are exactly the assessment's
     * questions, each once (a list read before another edit is refused, not guessed).
     */
    async reorderQuestions(owner: Owner, id: string, questionIds: string[]): Promise<QuestionView[]> {
      const ordered = await assessments.transaction(async (tx) => {
        const a = await assessments.findOwned(owner, id, tx);
        if (!a) throw new AssessmentNotFoundError();
        await lockQuestions(tx, a.id);
        const current = new Set((await assessments.listQuestions(a.id, tx)).map((x) => x.id));
        const given = new Set(questionIds);
        if (
          given.size !== questionIds.length ||
          given.size !== current.size ||
          ![...given].every((x) => current.has(x))
        ) {
          const message = 'questionIds must list every question of the assessment exactly once';
          throw new ValidationError(message, { questionIds: message });
        }
        await assessments.renumber(tx, questionIds);
        return announce(tx, a);
      });
      return ordered.map((q) => questionView(q, true));
    },

    async updateQuestion(owner: Owner, questionId: string, edit: QuestionEdit): Promise<QuestionView> {
      const updated = await assessments.transaction(async (tx) => {
        const a = await assessments.findOwnedQuestion(owner, questionId, tx);
        if (!a) throw new QuestionNotFoundError();
        // The assessment's row, not only the question's: an edit of the key is then serialised
        // with a submit (which holds the row in key share from before it reads the questions) as
        // well as with the other edits, so it never changes the scoring under a result.
        await lockQuestions(tx, a.id);
        const current = (await assessments.listQuestions(a.id, tx)).find((x) => x.id === questionId);
        if (!current) throw new QuestionNotFoundError();
        // What the teacher left out keeps its stored value: never a silent reset to a default.
        const q = checkQuestion({
          ...edit,
          options: edit.options ?? current.options,
          acceptedAnswers: edit.acceptedAnswers ?? current.acceptedAnswers,
          points: edit.points ?? Number(current.points),
        });
        if ((await assessments.hasResults(tx, a.id)) && changesScoring(current, q)) throw new HasSubmissionsError();
        await assessments.updateQuestion(tx, questionId, q);
        // The alignment is not scoring: it may change after submissions (a teacher's correction).
        if (edit.standards !== undefined) {
          const standards = await chosenStandards(tx, owner, edit.standards, current.standards);
          await assessments.setQuestionStandards(tx, { id: questionId, tenantId: a.tenantId }, standards);
        }
        return (await announce(tx, a)).find((x) => x.id === questionId)!;
      });
      return questionView(updated, true);
    },

    async deleteQuestion(owner: Owner, questionId: string): Promise<void> {
      await assessments.transaction(async (tx) => {
        const a = await assessments.findOwnedQuestion(owner, questionId, tx);
        if (!a) throw new QuestionNotFoundError();
        await lockUnsubmitted(tx, a.id);
        await assessments.deleteQuestion(tx, questionId);
        await announce(tx, a);
      });
    },

    /** "Try as a student": the assessment and its questions as a student gets them (no keys). */
    async studentPreview(owner: Owner, id: string) {
      const a = await owned(owner, id);
      const questions = (await assessments.listQuestions(id)).map((q) => questionView(q, false));
      return {
        assessment: {
          id: a.id,
          title: a.title,
          description: a.description,
          dueDate: a.dueDate ? a.dueDate.toISOString() : null,
          questionCount: questions.length,
        },
        questions,
      };
    },

    /**
     * Scores the teacher's answers of a preview as a submission would, storing nothing: no response,
     * no result, no event.
     */
    async scorePreview(owner: Owner, id: string, given: { questionId: string; answer: string }[]) {
      await owned(owner, id);
      const questions = await assessments.listQuestions(id);
      if (questions.length === 0) throw new NoQuestionsError();
      const known = new Set(questions.map((q) => q.id));
      const answers = new Map<string, string>();
      given.forEach((g, i) => {
        const field = `answers.${i}.questionId`;
        const questionId = g.questionId.toLowerCase();
        if (!known.has(questionId)) {
          const message = 'Not a question of this assessment';
          throw new ValidationError(message, { [field]: message });
        }
        if (answers.has(questionId)) {
          const message = 'Answered twice';
          throw new ValidationError(message, { [field]: message });
        }
        answers.set(questionId, g.answer);
      });
      const score = scoreSubmission(questions, answers);
      // What a result says about the answers, and nothing that names a stored result.
      return { assessmentId: id, ...previewFigures(score), questions: reviewView(reviewOf(questions, answers)) };
    },

    async responsesForTeacher(owner: Owner, id: string): Promise<ResponseRecord[]> {
      const { manages } = await readable(owner, id);
      return assessments.responsesForTeacher(id, manages ? undefined : owner);
    },

    // ---- students ----
    async available(student: StudentCaller) {
      return (await attempts.availableFor(student.studentId)).map((a) => ({
        id: a.id,
        title: a.title,
        description: a.description,
        className: a.className,
        subject: a.subject,
        questionCount: a.questionCount,
        classId: a.classId,
      }));
    },

    async getForStudent(student: StudentCaller, id: string): Promise<StudentAssessmentView> {
      const found = await attempts.forStudent(student.studentId, id);
      // Closed by the teacher (assigned to the student's class, then deactivated), or outside its
      // window: 409 so that the taking page says why rather than that it does not exist.
      const access = found?.access;
      if (access && access.member && access.assigned && !access.classArchived && !access.resultId) requireOpen(access);
      if (!found || !isVisible(found.access)) throw new AssessmentNotFoundError();
      return studentView(found.assessment, found.access);
    },

    /** The answer key only once the student's result exists. */
    async questionsForStudent(student: StudentCaller, id: string): Promise<QuestionView[]> {
      // Access and questions in one read; the questions leave only when the access allows.
      const found = await attempts.questionsForStudent(student.studentId, id);
      if (!found || !isVisible(found.access)) throw new AssessmentNotFoundError();
      const { access } = found;
      // A timed attempt starts at its first read of the questions (the database's clock).
      if (access.timeLimitSeconds !== null && access.startedAt === null && isAvailable(access))
        await attempts.startAttempt(student.studentId, id, access.tenantId);
      const withAnswers = access.resultId !== null;
      // Fewer choices for a student whose accommodations say so (the key always among them).
      return studentOrder(found.questions, student.studentId, found.shuffle).map((q) =>
        questionView(
          access.reducedChoices > 0
            ? { ...q, options: reducedOptions(q, student.studentId, access.reducedChoices) }
            : q,
          withAnswers,
        ),
      );
    },

    async responsesForStudent(student: StudentCaller, id: string): Promise<ResponseRecord[]> {
      const found = await attempts.responsesForStudent(student.studentId, id);
      if (!found || !isVisible(found.access)) throw new AssessmentNotFoundError();
      return found.responses;
    },

    async saveResponse(
      student: StudentCaller,
      input: { assessmentId: string; questionId: string; answer: string; clientSeq?: number | undefined },
    ): Promise<ResponseRecord> {
      let outcome = await attempts.saveResponse(student.studentId, input);
      if ('saved' in outcome) return saved(student.studentId, input.assessmentId, outcome);
      // The checks after a refused upsert run apart from it: a membership (a student who just
      // joined) may have arrived in between, so that they find the access open and the question
      // known but nothing stored. Then the upsert is tried once more instead of a false 404.
      if (
        outcome.refused &&
        isAvailable(outcome.refused) &&
        !outcome.refused.resultId &&
        outcome.questionOk &&
        !outcome.stored
      ) {
        outcome = await attempts.saveResponse(student.studentId, input);
        if ('saved' in outcome) return saved(student.studentId, input.assessmentId, outcome);
      }
      const access = requireOpen(outcome.refused);
      if (access.timeLimitSeconds !== null && access.startedAt === null) throw new AttemptNotStartedError();
      // Open, question known, a row exists: the save was an older replay; the newer answer stands.
      if (outcome.stored && isAvailable(access)) return outcome.stored;
      throw new QuestionNotFoundError();
    },

    /**
     * Scores and stores the result, with ResultSubmitted, in one transaction: four statements
     * (bench/README.md; test/round-trips.component.test.ts). The reply is the first place the
     * answer key shows.
     */
    async submit(student: StudentCaller, assessmentId: string): Promise<ResultDetailView> {
      return (await submitAttempt(student.studentId, assessmentId, { closing: false }))!;
    },

    /**
     * The close sweep's pass: submits, for their students, up to `limit` attempts whose
     * assessment's close time has passed (what each saved before it is scored as a submit would).
     * An attempt whose situation changed since the look-up (submitted by the student, reopened,
     * deactivated, the student gone) is skipped; any other failure is told to `failed` and the
     * pass goes on. True when a full batch moved (more may wait); it stops early when `running`
     * turns false (shutdown).
     */
    async submitClosedAttempts(
      limit: number,
      { running = () => true, failed = () => {} }: SweepHooks = {},
    ): Promise<boolean> {
      const due = await attempts.dueForClosing(limit);
      let submitted = 0;
      for (const attempt of due) {
        if (!running()) return false;
        try {
          if (await submitAttempt(attempt.studentId, attempt.assessmentId, { closing: true })) submitted += 1;
        } catch (error) {
          if (!(error instanceof ConflictError || error instanceof NotFoundError)) failed(error, attempt);
        }
      }
      return due.length === limit && submitted > 0;
    },

    /** The student's own result, or one of the teacher's classes, with its questions and keys. */
    async result(caller: { userId: string; tenantId: string; role: string }, id: string): Promise<ResultDetailView> {
      const r = await attempts.findResult(id);
      const mine =
        r && (caller.role === 'student' ? r.studentId === caller.userId : await teachesResult(assessments, caller, r));
      if (!mine) throw new ResultNotFoundError();
      // Results submitted before the review was stored with them: built from what is there now.
      let questions = r.questions;
      if (!questions) {
        const current = await attempts.questionsAndAnswers(r.assessmentId, r.studentId);
        questions = reviewOf(current.questions, current.answers);
      }
      return resultDetailView(r, questions);
    },

    /**
     * The teacher grants the student of the result a retake: the result stays as an earlier
     * attempt and the student answers afresh (answers and attempt start cleared); their next
     * submission is the next attempt. Only the student's current attempt, once submitted, and
     * within the attempts the assessment allows.
     */
    async retake(teacher: { userId: string; tenantId: string }, resultId: string) {
      return attempts.transaction(async (tx) => {
        const r = await attempts.lockResultForTeacher(tx, resultId);
        if (!r || !(await teachesResult(assessments, { ...teacher, role: 'teacher' }, r)))
          throw new ResultNotFoundError();
        if (r.superseded) throw r.currentSubmitted ? new NotCurrentAttemptError() : new AttemptOpenError();
        if (r.lastAttempt >= r.maxAttempts) throw new NoRetakeAllowedError(r.maxAttempts);
        await attempts.supersede(tx, r);
        await events.retakeGranted(tx, r, r.attempt + 1);
        return { resultId: r.id, studentId: r.studentId, assessmentId: r.assessmentId, attempt: r.attempt + 1 };
      });
    },

    /**
     * The teacher reopens the student's submitted (current) attempt: its result is withdrawn and
     * the student continues with their saved answers (a timed attempt's clock starts again), then
     * submits again. When it was the counted result, an earlier attempt may count meanwhile.
     */
    async reopen(teacher: { userId: string; tenantId: string }, resultId: string) {
      return attempts.transaction(async (tx) => {
        const r = await attempts.lockResultForTeacher(tx, resultId);
        if (!r || !(await teachesResult(assessments, { ...teacher, role: 'teacher' }, r)))
          throw new ResultNotFoundError();
        if (r.superseded) throw r.currentSubmitted ? new NotCurrentAttemptError() : new AttemptOpenError();
        await attempts.withdraw(tx, r);
        await events.resultWithdrawn(tx, r);
        for (const c of await attempts.recount(tx, r.assessmentId, r.studentId))
          await events.countedResultChanged(tx, countedFacts(c));
        return { resultId: r.id, studentId: r.studentId, assessmentId: r.assessmentId, attempt: r.attempt };
      });
    },

    async studentResults(student: StudentCaller) {
      return (await attempts.resultsOf(student.studentId)).map(resultView);
    },
  };
}
