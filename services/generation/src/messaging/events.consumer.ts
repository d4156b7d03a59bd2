// Assessment and class events → this service's local copies and generation jobs. A job row is
// created in the same transaction as the event's inbox row, so a redelivered AssessmentCreated
// never queues twice.
import { inboxConsumer, type BusMessage, type ResultSubmitted, type SubscribeOptions } from '@checkpoint/events';
import {
  addMember,
  deleteAssessment,
  deleteClassMembers,
  deleteResult,
  insertResult,
  keepAssessmentClass,
  keepReducedChoices,
  replaceCountedResult,
  keepClassTeachers,
  removeMember,
  replaceQuestions,
  regradeResult,
  setResultLevel,
  updateAssessmentDetails,
  upsertAssessment,
} from '../data-access/assessments.repository.ts';
import { enqueueJob } from '../data-access/jobs.repository.ts';
import type { Db, Tx } from '../data-access/prisma.ts';
import { clampCount, isRequestedType, type RequestStandard } from '../domain/question.ts';
import { practiceTypeForLevel } from '../domain/practice.ts';
import { z } from 'zod';

/** A submitted result as this service keeps it. */
const resultCopy = (m: ResultSubmitted) => ({
  id: m.resultId,
  assessmentId: m.assessmentId,
  tenantId: m.tenantId,
  classId: m.classId,
  studentId: m.studentId,
  percentage: m.percentage,
  level: m.level,
  answers: m.answers.map((a) => ({ questionId: a.questionId, answer: a.answer, correct: a.correct })),
});

export const EVENTS_GROUP = 'generation';
export const ASSESSMENT_TOPIC = 'checkpoint.assessment.v1';
export const CLASS_TOPIC = 'checkpoint.class.v1';
const DEFAULT_QUESTIONS = 10;

/**
 * A chosen standard of a GenerationRequest as a job keeps it: an identifier and a code, the
 * statement bounded (it goes into a prompt). The assessment service checked them against its
 * catalogue; an entry that is not a standard is left out, a repeat kept once, at most 10.
 */
const requestStandard = z.object({
  identifier: z.string().trim().min(1).max(255),
  code: z.string().trim().min(1).max(255),
  statement: z.string().trim().max(5_000),
});

export function standardsOfRequest(
  standards: readonly { identifier: string; code: string; statement: string }[],
): RequestStandard[] {
  const kept: RequestStandard[] = [];
  for (const s of standards) {
    const parsed = requestStandard.safeParse({ identifier: s.identifier, code: s.code, statement: s.statement });
    if (parsed.success && !kept.some((k) => k.identifier === parsed.data.identifier)) kept.push(parsed.data);
  }
  return kept.slice(0, 10);
}

/** An AssessmentAssigned without its ids names no class: nothing to keep. */
const assignedIds = z.object({ assessmentId: z.guid(), classId: z.guid(), tenantId: z.guid() });

const accommodationIds = z.object({ studentId: z.guid(), tenantId: z.guid() });

const queuesJob = (m: BusMessage) => m.headers.ce_type === 'checkpoint.assessment.v1.AssessmentCreated';

export interface ConsumerDeps {
  /** The provider a new job is recorded with (openai | offline). */
  providerName: string;
  /** Called after an event that queues a job was handled (wakes the worker). */
  afterJobQueued?: () => void;
}

export function eventsSubscription(db: Db, deps: ConsumerDeps): SubscribeOptions {
  const inbox = inboxConsumer<Tx>(db, EVENTS_GROUP, {
    'checkpoint.assessment.v1.AssessmentCreated': async (tx, m) => {
      const g = m.generation;
      await upsertAssessment(tx, {
        id: m.assessmentId,
        tenantId: m.tenantId,
        classId: m.classId,
        teacherId: m.teacherId,
        title: m.title,
        description: m.description,
        topic: m.topic,
        standard: m.standard,
        content: g?.contentToAssess ?? '',
      });
      if (!g) return;
      await enqueueJob(tx, {
        assessmentId: m.assessmentId,
        tenantId: m.tenantId,
        teacherId: m.teacherId,
        provider: deps.providerName,
        questionType: isRequestedType(g.questionType) ? g.questionType : 'mixed',
        questionCount: clampCount(g.numberOfQuestions || DEFAULT_QUESTIONS),
        standards: standardsOfRequest(g.standards),
      });
    },
    'checkpoint.assessment.v1.AssessmentUpdated': (tx, m) =>
      updateAssessmentDetails(tx, m.assessmentId, {
        title: m.title,
        description: m.description,
        topic: m.topic,
        standard: m.standard,
      }),
    'checkpoint.assessment.v1.QuestionsChanged': (tx, m) =>
      replaceQuestions(
        tx,
        m.assessmentId,
        m.questions.map((q) => ({
          id: q.questionId,
          text: q.questionText,
          type: q.questionType,
          options: [...q.options],
          correctAnswer: q.correctAnswer,
          points: q.points || 1,
        })),
      ),
    // Given to a class (its own or another): that class's teachers reach its support material and
    // recommendations (domain/access.ts). Which students were chosen is not kept: their results say it.
    'checkpoint.assessment.v1.AssessmentAssigned': async (tx, m) => {
      const ids = assignedIds.safeParse({ assessmentId: m.assessmentId, classId: m.classId, tenantId: m.tenantId });
      if (ids.success) await keepAssessmentClass(tx, ids.data);
    },
    'checkpoint.assessment.v1.AssessmentDeleted': (tx, m) => deleteAssessment(tx, m.assessmentId),
    // Fewer answer choices apply to practice too (issue 32); an event without its ids names no one.
    'checkpoint.assessment.v1.AccommodationsChanged': async (tx, m) => {
      const a = accommodationIds.safeParse({ studentId: m.studentId, tenantId: m.tenantId });
      if (a.success) await keepReducedChoices(tx, { ...a.data, reducedChoices: Math.max(0, m.reducedChoices) });
    },
    // Only the attempt that counts is kept (docs/architecture.md, "Retakes and reopening"), so
    // practice follows its level; an event from before retakes (attempt 0) is the only attempt.
    'checkpoint.assessment.v1.ResultSubmitted': async (tx, m) => {
      if (m.attempt === 0) await insertResult(tx, resultCopy(m));
      else if (m.counted) await replaceCountedResult(tx, resultCopy(m));
    },
    'checkpoint.assessment.v1.CountedResultChanged': async (tx, m) => {
      if (m.result) await replaceCountedResult(tx, resultCopy(m.result));
    },
    'checkpoint.assessment.v1.ResultWithdrawn': (tx, m) => deleteResult(tx, m.resultId),
    'checkpoint.assessment.v1.ResultLevelRaised': (tx, m) => setResultLevel(tx, m.resultId, m.toLevel),
    // The practice a result calls for follows its level now (docs/architecture.md, "Grading by hand").
    'checkpoint.assessment.v1.ResultRegraded': (tx, m) =>
      regradeResult(
        tx,
        {
          id: m.resultId,
          percentage: m.percentage,
          level: m.level,
          answers: m.answers.map((a) => ({ questionId: a.questionId, answer: a.answer, correct: a.correct })),
        },
        practiceTypeForLevel(m.level) === 'support' ? 'enrichment' : 'support',
      ),
    'checkpoint.class.v1.StudentEnrolled': (tx, m) =>
      addMember(tx, { classId: m.classId, studentId: m.studentId, tenantId: m.tenantId }),
    'checkpoint.class.v1.StudentRemoved': (tx, m) => removeMember(tx, m.classId, m.studentId),
    'checkpoint.class.v1.ClassDeleted': (tx, m) => deleteClassMembers(tx, m.classId),
    'checkpoint.class.v1.ClassCreated': (tx, m) =>
      keepClassTeachers(tx, m.classId, { tenantId: m.tenantId, teacherId: m.teacherId, coTeacherIds: m.coTeacherIds }),
    'checkpoint.class.v1.ClassUpdated': (tx, m) =>
      keepClassTeachers(tx, m.classId, { tenantId: m.tenantId, teacherId: m.teacherId, coTeacherIds: m.coTeacherIds }),
  });
  return {
    groupId: EVENTS_GROUP,
    topics: [ASSESSMENT_TOPIC, CLASS_TOPIC],
    handler: async (message) => {
      await inbox.handler(message);
      if (queuesJob(message)) deps.afterJobQueued?.();
    },
    batchHandler: async (messages) => {
      await inbox.batchHandler(messages);
      if (messages.some(queuesJob)) deps.afterJobQueued?.();
    },
  };
}
