// Cached practice material (per assessment and type), result-based practice with its latest
// attempt, and teacher recommendations. A completion's event is written in the same transaction
// as the attempt it records.
import type { PracticeQuestion, PracticeSet, PracticeType } from '../domain/practice.ts';
import { practiceCompleted, type PracticeFacts } from '../messaging/generation-events.publisher.ts';
import { Prisma } from '../generated/prisma/client.ts';
import { isUniqueViolation } from '@checkpoint/service-kit';
import type { Db } from './prisma.ts';

export interface StoredPractice extends PracticeSet {
  provider: string;
}

/** Material per assessment and type, with the basis of the lesson it was written from. */
export interface StoredMaterial extends StoredPractice {
  basis: string;
}

export interface StoredResultPractice extends StoredPractice {
  resultId: string;
  assessmentId: string;
  type: PracticeType;
  attemptScore: number | null;
  attemptAnswers: Record<string, string> | null;
  /** Times the student started again; each round is written anew. */
  round: number;
}

export interface StoredRecommendation {
  text: string;
  provider: string;
  basis: string;
  generatedAt: Date;
}

const asQuestions = (v: unknown) => (Array.isArray(v) ? (v as PracticeQuestion[]) : []);

export type PracticeRepository = ReturnType<typeof practiceRepository>;

export function practiceRepository(db: Db) {
  return {
    async findMaterial(assessmentId: string, type: PracticeType): Promise<StoredMaterial | undefined> {
      const row = await db.practiceMaterial.findUnique({ where: { assessmentId_type: { assessmentId, type } } });
      return row
        ? { reading: row.reading, questions: asQuestions(row.questions), provider: row.provider, basis: row.basis }
        : undefined;
    },

    /**
     * Stores material written from the lesson with this basis, replacing material of another
     * basis. Two readers writing for the same basis at once agree on the first one stored.
     */
    async saveMaterial(
      assessmentId: string,
      tenantId: string,
      type: PracticeType,
      m: StoredMaterial,
    ): Promise<StoredMaterial> {
      await db.$executeRaw`
        insert into practice_materials (assessment_id, type, tenant_id, provider, reading, questions, basis)
        values (${assessmentId}::uuid, ${type}, ${tenantId}::uuid, ${m.provider}, ${m.reading},
                ${JSON.stringify(m.questions)}::jsonb, ${m.basis})
        on conflict (assessment_id, type) do update
          set provider = excluded.provider, reading = excluded.reading, questions = excluded.questions,
              basis = excluded.basis, created_at = now()
          where practice_materials.basis <> excluded.basis`;
      return (await this.findMaterial(assessmentId, type))!;
    },

    /**
     * Counts the student's submit of per-assessment practice and, while under `max`, records it
     * with PracticeCompleted — together. false: every attempt is used, nothing recorded.
     */
    async recordCompletion(facts: PracticeFacts, max: number): Promise<boolean> {
      return db.$transaction(async (tx) => {
        const counted = await tx.$queryRawUnsafe<{ attempts: number }[]>(
          `insert into practice_attempts (assessment_id, tenant_id, student_id, type, attempts)
           values ($1::uuid, $2::uuid, $3::uuid, $4, 1)
           on conflict (assessment_id, student_id, type)
             do update set attempts = practice_attempts.attempts + 1, updated_at = now()
             where practice_attempts.attempts < $5
           returning attempts`,
          facts.assessmentId,
          facts.tenantId,
          facts.studentId,
          facts.type,
          max,
        );
        if (counted.length === 0) return false;
        await practiceCompleted(tx, { ...facts, attempt: counted[0]!.attempts });
        return true;
      });
    },

    async findResultPractice(resultId: string): Promise<StoredResultPractice | undefined> {
      const row = await db.resultPractice.findUnique({ where: { resultId } });
      if (!row) return undefined;
      return {
        resultId: row.resultId,
        assessmentId: row.assessmentId,
        type: row.type as PracticeType,
        provider: row.provider,
        reading: row.reading,
        questions: asQuestions(row.questions),
        attemptScore: row.attemptScore,
        attemptAnswers: (row.attemptAnswers as Record<string, string> | null) ?? null,
        round: row.round,
      };
    },

    async saveResultPractice(
      r: { resultId: string; assessmentId: string; tenantId: string; type: PracticeType },
      m: StoredPractice,
    ): Promise<StoredResultPractice> {
      try {
        await db.resultPractice.create({
          data: { ...r, provider: m.provider, reading: m.reading, questions: m.questions as object[] },
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      return (await this.findResultPractice(r.resultId))!;
    },

    /**
     * Stores the round's one attempt and, for the student's own attempt, PracticeCompleted —
     * together. Only into `round` while it has no attempt yet (a second submit of the same round,
     * even a concurrent one, stores nothing): 'final' or 'stale' then, and no event.
     */
    async recordAttempt(
      resultId: string,
      round: number,
      answers: Record<string, string>,
      score: number,
      event: PracticeFacts,
    ): Promise<'recorded' | 'final' | 'stale'> {
      return db.$transaction(async (tx) => {
        const { count } = await tx.resultPractice.updateMany({
          where: { resultId, round, attemptScore: null },
          data: { attemptAnswers: answers, attemptScore: score, attemptedAt: new Date() },
        });
        if (count === 0) {
          const now = await tx.resultPractice.findUnique({ where: { resultId }, select: { round: true } });
          return now && now.round !== round ? ('stale' as const) : ('final' as const);
        }
        // Rounds count from 0: round 1 is the second attempt (after one Try Again).
        await practiceCompleted(tx, { ...event, attempt: round + 1 });
        return 'recorded' as const;
      });
    },

    /** A new round of the practice: its new reading and questions, and no attempt yet. */
    async startRound(resultId: string, round: number, m: StoredPractice): Promise<boolean> {
      const { count } = await db.resultPractice.updateMany({
        where: { resultId, round: round - 1 },
        data: {
          round,
          provider: m.provider,
          reading: m.reading,
          questions: m.questions as object[],
          attemptAnswers: Prisma.DbNull,
          attemptScore: null,
          attemptedAt: null,
        },
      });
      return count === 1;
    },

    /** `scope`: '' for the whole assessment, else the classes it was written for (recommendationScope). */
    async findRecommendation(
      assessmentId: string,
      type: PracticeType,
      scope: string,
    ): Promise<StoredRecommendation | undefined> {
      const row = await db.recommendation.findUnique({
        where: { assessmentId_type_scope: { assessmentId, type, scope } },
      });
      return row ?? undefined;
    },

    async saveRecommendation(
      assessmentId: string,
      tenantId: string,
      type: PracticeType,
      scope: string,
      r: StoredRecommendation,
    ): Promise<void> {
      await db.recommendation.upsert({
        where: { assessmentId_type_scope: { assessmentId, type, scope } },
        create: { assessmentId, tenantId, type, scope, ...r },
        update: r,
      });
    },
  };
}
