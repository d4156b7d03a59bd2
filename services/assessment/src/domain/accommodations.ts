// A student's testing accommodations (#32 item 1): set once by a teacher of one of their classes
// or their district's admin, applied to every assessment the student takes. What the server
// applies: fewer answer choices (the questions the student reads) and extra time (the deadline of
// a timed attempt). The others (read aloud, large text, high contrast, line guide, answer
// masking) are the taking page's, which reads them with the assessment.
import { createHash } from 'node:crypto';
import { NotFoundError } from '@checkpoint/service-kit';
import { ClassNotFoundError } from './errors.ts';
import type { AccommodationsRepository } from '../data-access/accommodations.repository.ts';

export interface Accommodations {
  readAloud: boolean;
  /** Distractors each multiple-choice question shows fewer (0-2 of its 3). */
  reducedChoices: number;
  /** The time limit multiplied by this (1-4), or none at all. */
  extraTime: number | 'none';
  largeText: boolean;
  highContrast: boolean;
  lineGuide: boolean;
  answerMasking: boolean;
}

/** A student of a class with their accommodations: the teacher's list of the class. */
export interface ClassStudentAccommodations extends Accommodations {
  studentId: string;
  firstName: string;
  lastName: string;
}

export const NO_ACCOMMODATIONS: Accommodations = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};

export const MAX_REDUCED_CHOICES = 2;
export const MAX_EXTRA_TIME = 4;

/**
 * The options of a multiple-choice question as a student with `reducedChoices` sees them: the key
 * and all but that many distractors, in the question's order. Which distractors go is derived from
 * the student's and the question's ids, so it is the same on every read and nothing is stored.
 */
export function reducedOptions(
  q: { id: string; questionType: string; options: readonly string[]; correctAnswer: string },
  studentId: string,
  reducedChoices: number,
): string[] {
  if (q.questionType !== 'multiple_choice' || reducedChoices <= 0) return [...q.options];
  const key = q.correctAnswer.trim().toLowerCase();
  const rank = (option: string) =>
    createHash('sha256').update(['reduce', studentId, q.id, option].join('\0')).digest('hex');
  const distractors = q.options.filter((o) => o.trim().toLowerCase() !== key);
  const removed = new Set(
    distractors
      .map((o) => ({ o, r: rank(o) }))
      .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
      .slice(0, Math.min(reducedChoices, distractors.length - 1))
      .map(({ o }) => o),
  );
  return q.options.filter((o) => !removed.has(o));
}

/** A teacher of one of the student's classes, or their district's admin; anyone else: 404 (students: 403 by role). */
export class StudentNotFoundError extends NotFoundError {
  constructor() {
    super('No such student in this class');
  }
}

export interface AccommodationsCaller {
  userId: string;
  tenantId: string;
  role: string;
}

export type AccommodationsUseCases = ReturnType<typeof accommodationsUseCases>;

export function accommodationsUseCases(repo: AccommodationsRepository) {
  async function tenantOf(caller: AccommodationsCaller, classId: string, studentId: string) {
    const tenantId = await repo.tenantOf(caller, classId, studentId);
    if (!tenantId) throw new StudentNotFoundError();
    return tenantId;
  }
  return {
    /** The class's students with their accommodations, for a teacher of the class or the district's admin. */
    async list(caller: AccommodationsCaller, classId: string): Promise<ClassStudentAccommodations[]> {
      if (!(await repo.classTenantOf(caller, classId))) throw new ClassNotFoundError();
      return repo.listForClass(classId);
    },
    /** The student's own accommodations (for the taking and practice pages); none set: all off. */
    async own(studentId: string): Promise<Accommodations> {
      return repo.get(studentId);
    },
    async get(caller: AccommodationsCaller, classId: string, studentId: string): Promise<Accommodations> {
      await tenantOf(caller, classId, studentId);
      return repo.get(studentId);
    },
    /** Changes the student's accommodations: each field left out keeps the stored one. */
    async set(
      caller: AccommodationsCaller,
      classId: string,
      studentId: string,
      change: Partial<Accommodations>,
    ): Promise<Accommodations> {
      const tenantId = await tenantOf(caller, classId, studentId);
      const current = await repo.get(studentId);
      const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
      return repo.put(studentId, tenantId, { ...current, ...defined });
    },
  };
}
