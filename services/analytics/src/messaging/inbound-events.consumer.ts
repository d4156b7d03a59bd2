// The analytics group's one subscription: every other service's facts, one inbox. Each event is
// checked, then applied in the inbox transaction, so redelivery changes nothing and a replay into
// an empty schema rebuilds the same read models. Times come from the events (occurred_at, else
// the envelope's time), never from the clock of the consumer.
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  inboxConsumer,
  type EventEnvelope,
  type InboxHandlers,
  type ResultSubmitted,
  type SubscribeOptions,
} from '@checkpoint/events';
import type pg from 'pg';
import { transactions, type Tx } from '../data-access/db.ts';
import { withCommonAssessments } from './common-assessment-events.ts';
import {
  changeResultLevel,
  deleteAssessment,
  deleteClass,
  deleteMembership,
  deletePerson,
  insertResult,
  replaceCountedResult,
  withdrawResult,
  openRetake,
  noteUncountedSubmission,
  type ResultRow,
  recordProgress,
  recordPractice,
  regradeResult,
  replaceQuestions,
  setAssessmentActive,
  setClassArchived,
  upsertAssessment,
  upsertClass,
  coTeachersOf,
  mailNewCoTeachers,
  upsertMembership,
  upsertPerson,
} from '../data-access/read-model.writer.ts';
import {
  keepNotificationSettings,
  noteAssigned,
  noteJoined,
  noteSubmission,
  setAssessmentDue,
} from '../data-access/notifications.writer.ts';
import {
  InvalidEventError,
  PRACTICE_TYPES,
  requireCount,
  requireIds,
  requireLevel,
  requireOneOf,
  requirePercentage,
  requirePoints,
  requireText,
} from '../domain/events.ts';
import { replaceQuestionStandards, rescoreAssessment } from '../data-access/mastery.writer.ts';
import { CO_TEACHER_MAIL_WITHIN_MS } from '../domain/co-teacher-mail.ts';

export const TOPICS = [
  'checkpoint.identity.v1',
  'checkpoint.class.v1',
  'checkpoint.assessment.v1',
  'checkpoint.generation.v1',
];

const when = (t: Timestamp | undefined, envelope: EventEnvelope): Date => {
  if (t) return timestampDate(t);
  const d = new Date(envelope.time);
  return Number.isNaN(d.getTime()) ? new Date(0) : d;
};

type UserFacts = {
  $typeName: string;
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  /** Empty from a publisher older than the field. */
  tenantKind: string;
  occurredAt?: Timestamp;
  /** The notification switches (absent from older publishers). */
  notifications?: { emailNotifications: boolean; assessmentReminders: boolean; studentSubmissions: boolean };
  /** UserUpdated only: removed by the district's admin. */
  disabled?: boolean;
};

async function keepPerson(tx: Tx, u: UserFacts, envelope: EventEnvelope): Promise<void> {
  requireIds(u.$typeName, { userId: u.userId, tenantId: u.tenantId });
  await upsertPerson(tx, { ...u, at: when(u.occurredAt, envelope) });
  await keepNotificationSettings(tx, u.userId, u.notifications, u.disabled ?? false);
}

type ClassFacts = {
  $typeName: string;
  classId: string;
  tenantId: string;
  teacherId: string;
  name: string;
  subject: string;
  period: string;
  coTeacherIds: string[];
  occurredAt?: Timestamp;
};

/**
 * Keeps the class; the teachers its event adds as co-teachers (not named by the copy it replaces)
 * are mailed, when the event is recent (a replay mails nobody) and `baseUrl` is known.
 */
async function keepClass(tx: Tx, c: ClassFacts, envelope: EventEnvelope, baseUrl?: string): Promise<void> {
  requireIds(c.$typeName, { classId: c.classId, tenantId: c.tenantId, teacherId: c.teacherId });
  const before = await coTeachersOf(tx, c.classId);
  const at = when(c.occurredAt, envelope);
  await upsertClass(tx, { ...c, at });
  const added = c.coTeacherIds.filter((id) => !before.includes(id));
  if (baseUrl && added.length > 0 && Date.now() - at.getTime() < CO_TEACHER_MAIL_WITHIN_MS)
    await mailNewCoTeachers(tx, { classId: c.classId, className: c.name, ownerId: c.teacherId }, added, baseUrl);
}

type AssessmentFacts = {
  $typeName: string;
  assessmentId: string;
  tenantId: string;
  classId: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  occurredAt?: Timestamp;
  dueAt?: Timestamp;
};

async function keepAssessment(tx: Tx, a: AssessmentFacts, envelope: EventEnvelope, isActive?: boolean) {
  requireIds(a.$typeName, { assessmentId: a.assessmentId, tenantId: a.tenantId, classId: a.classId });
  await upsertAssessment(tx, { ...a, isActive, at: when(a.occurredAt, envelope) });
  await setAssessmentDue(tx, a.assessmentId, a.dueAt ? timestampDate(a.dueAt) : null);
}

/** `baseUrl`: the app's public origin, for the links of the mails sent here (co-teachers). */
/** A submitted result as the read model stores it, every field checked. */
function resultRow(m: ResultSubmitted, envelope: EventEnvelope): ResultRow {
  const type = m.$typeName;
  requireIds(type, {
    resultId: m.resultId,
    assessmentId: m.assessmentId,
    tenantId: m.tenantId,
    classId: m.classId,
    studentId: m.studentId,
  });
  m.answers.forEach((a, i) => requireIds(type, { [`answers.${i}.questionId`]: a.questionId }));
  return {
    ...m,
    earnedPoints: requirePoints(type, 'earnedPoints', m.earnedPoints),
    totalPoints: requirePoints(type, 'totalPoints', m.totalPoints),
    percentage: requirePercentage(type, 'percentage', m.percentage),
    level: requireLevel(type, 'level', m.level),
    submittedAt: when(m.submittedAt, envelope),
    attempt: requireCount(type, 'attempt', m.attempt),
  };
}

export function inboundHandlers(baseUrl?: string): InboxHandlers<Tx> {
  return {
    'checkpoint.identity.v1.UserRegistered': keepPerson,
    'checkpoint.identity.v1.UserUpdated': keepPerson,
    'checkpoint.identity.v1.UserDeleted': async (tx, m, envelope) => {
      requireIds(m.$typeName, { userId: m.userId });
      // Their read-model rows and notifications, counted for the privacy answer.
      await deletePerson(tx, m.userId, when(m.occurredAt, envelope));
    },

    'checkpoint.class.v1.ClassCreated': (tx, m, envelope) => keepClass(tx, m, envelope, baseUrl),
    'checkpoint.class.v1.ClassUpdated': (tx, m, envelope) => keepClass(tx, m, envelope, baseUrl),
    'checkpoint.class.v1.ClassArchived': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId });
      await setClassArchived(tx, m.classId, true);
    },
    'checkpoint.class.v1.ClassRestored': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId });
      await setClassArchived(tx, m.classId, false);
    },
    'checkpoint.class.v1.ClassDeleted': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId });
      await deleteClass(tx, m.classId);
    },
    'checkpoint.class.v1.StudentEnrolled': async (tx, m, envelope) => {
      requireIds(m.$typeName, { classId: m.classId, studentId: m.studentId, tenantId: m.tenantId });
      await upsertMembership(tx, { ...m, at: when(m.occurredAt, envelope) });
      await noteJoined(tx, { ...m, at: when(m.occurredAt, envelope) });
    },
    'checkpoint.class.v1.StudentRemoved': async (tx, m) => {
      requireIds(m.$typeName, { classId: m.classId, studentId: m.studentId });
      await deleteMembership(tx, m.classId, m.studentId);
    },

    'checkpoint.assessment.v1.AssessmentCreated': (tx, m, envelope) => keepAssessment(tx, m, envelope, m.isActive),
    'checkpoint.assessment.v1.AssessmentUpdated': (tx, m, envelope) => keepAssessment(tx, m, envelope),
    'checkpoint.assessment.v1.AssessmentActivationChanged': async (tx, m) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId });
      await setAssessmentActive(tx, m.assessmentId, m.isActive);
    },
    'checkpoint.assessment.v1.AssessmentAssigned': async (tx, m, envelope) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId, classId: m.classId, tenantId: m.tenantId });
      m.studentIds.forEach((id, i) => requireIds(m.$typeName, { [`studentIds.${i}`]: id }));
      await noteAssigned(tx, { ...m, at: when(m.occurredAt, envelope) });
    },
    'checkpoint.assessment.v1.AssessmentDeleted': async (tx, m) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId, classId: m.classId });
      await deleteAssessment(tx, m.assessmentId, m.classId);
    },
    'checkpoint.assessment.v1.QuestionsChanged': async (tx, m) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId });
      m.questions.forEach((q, i) => {
        requireIds(m.$typeName, { [`questions.${i}.questionId`]: q.questionId });
        requirePoints(m.$typeName, `questions.${i}.points`, q.points);
        q.standards.forEach((s, j) => {
          requireText(m.$typeName, `questions.${i}.standards.${j}.identifier`, s.identifier);
          requireText(m.$typeName, `questions.${i}.standards.${j}.code`, s.code);
        });
      });
      await replaceQuestions(tx, m.assessmentId, m.questions);
      // The full alignment each time: replaced, and the assessment's results scored again.
      await replaceQuestionStandards(tx, m.assessmentId, m.questions);
      await rescoreAssessment(tx, m.assessmentId);
    },
    'checkpoint.assessment.v1.ResultSubmitted': async (tx, m, envelope) => {
      // Only the attempt that counts is kept (docs/architecture.md, "Retakes and reopening"); an
      // event from before retakes (attempt 0) is the only attempt and counts.
      const row = resultRow(m, envelope);
      if (m.attempt === 0) await insertResult(tx, row);
      else if (m.counted) await replaceCountedResult(tx, row);
      // An attempt that does not count is not kept, but the live views show it submitted.
      else
        await noteUncountedSubmission(
          tx,
          { ...row, attempt: requireCount(m.$typeName, 'attempt', m.attempt) },
          m.answers.filter((a) => a.answer.trim() !== '').length,
        );
      await noteSubmission(tx, { ...m, submittedAt: when(m.submittedAt, envelope) });
    },
    'checkpoint.assessment.v1.CountedResultChanged': async (tx, m, envelope) => {
      if (!m.result) throw new InvalidEventError(m.$typeName, 'result', 'is required');
      await replaceCountedResult(tx, resultRow(m.result, envelope));
    },
    'checkpoint.assessment.v1.ResultWithdrawn': async (tx, m, envelope) => {
      requireIds(m.$typeName, { resultId: m.resultId, assessmentId: m.assessmentId, studentId: m.studentId });
      await withdrawResult(tx, { ...m, at: when(m.occurredAt, envelope) });
    },
    // The new attempt shows in the live views (not started) instead of the earlier attempt's result.
    'checkpoint.assessment.v1.RetakeGranted': async (tx, m, envelope) => {
      const type = m.$typeName;
      requireIds(type, {
        assessmentId: m.assessmentId,
        tenantId: m.tenantId,
        classId: m.classId,
        studentId: m.studentId,
      });
      const attempt = requireCount(type, 'attempt', m.attempt);
      if (attempt < 2) throw new InvalidEventError(type, 'attempt', 'must be 2 or more');
      await openRetake(tx, { ...m, attempt, at: when(m.occurredAt, envelope) });
    },
    'checkpoint.assessment.v1.ResultRegraded': async (tx, m) => {
      const type = m.$typeName;
      requireIds(type, { resultId: m.resultId, assessmentId: m.assessmentId, studentId: m.studentId });
      m.answers.forEach((a, i) => {
        requireIds(type, { [`answers.${i}.questionId`]: a.questionId });
        requirePoints(type, `answers.${i}.earnedPoints`, a.earnedPoints);
      });
      await regradeResult(tx, {
        resultId: m.resultId,
        earnedPoints: requirePoints(type, 'earnedPoints', m.earnedPoints),
        totalPoints: requirePoints(type, 'totalPoints', m.totalPoints),
        percentage: requirePercentage(type, 'percentage', m.percentage),
        level: requireLevel(type, 'level', m.level),
        scoreLevel: requireLevel(type, 'scoreLevel', m.scoreLevel),
        answers: m.answers.map((a) => ({
          questionId: a.questionId,
          answer: a.answer,
          correct: a.correct,
          pending: a.pending,
          earnedPoints: a.earnedPoints,
          shownOptions: a.shownOptions,
        })),
      });
    },
    'checkpoint.assessment.v1.AttemptProgressed': async (tx, m, envelope) => {
      const type = m.$typeName;
      requireIds(type, {
        assessmentId: m.assessmentId,
        tenantId: m.tenantId,
        classId: m.classId,
        studentId: m.studentId,
      });
      await recordProgress(tx, {
        ...m,
        answeredCount: requireCount(type, 'answeredCount', m.answeredCount),
        questionCount: requireCount(type, 'questionCount', m.questionCount),
        startedAt: when(m.startedAt, envelope),
        at: when(m.occurredAt, envelope),
      });
    },
    'checkpoint.assessment.v1.ResultLevelRaised': async (tx, m) => {
      requireIds(m.$typeName, { resultId: m.resultId });
      // 0: the attempt that raised it is not known (an event from before the field existed).
      const attempt = requireCount(m.$typeName, 'practiceAttempt', m.practiceAttempt);
      await changeResultLevel(tx, m.resultId, requireLevel(m.$typeName, 'toLevel', m.toLevel), attempt || null);
    },

    'checkpoint.generation.v1.PracticeCompleted': async (tx, m, envelope) => {
      requireIds(m.$typeName, { assessmentId: m.assessmentId, studentId: m.studentId, tenantId: m.tenantId });
      requireOneOf(m.$typeName, 'type', m.type, PRACTICE_TYPES);
      await recordPractice(tx, {
        ...m,
        score: requirePercentage(m.$typeName, 'scorePercent', m.scorePercent),
        at: when(m.occurredAt, envelope),
      });
    },
  };
}

export function inboundSubscription(pool: pg.Pool, groupId: string, baseUrl?: string): SubscribeOptions {
  return {
    groupId,
    topics: TOPICS,
    ...inboxConsumer<Tx>(transactions(pool), groupId, withCommonAssessments(inboundHandlers(baseUrl))),
  };
}
