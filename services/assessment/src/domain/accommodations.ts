// A student's testing accommodations (#32 item 1): set once by a teacher of one of their classes
// or their district's admin, applied to every assessment the student takes. What the server
// applies: fewer answer choices (the questions the student reads) and extra time (the deadline of
// a timed attempt). The others (read aloud, large text, high contrast, line guide, answer
// masking) are the taking page's, which reads them with the assessment.
import { NotFoundError, reducedOptions } from '@checkpoint/service-kit';
import { ClassNotFoundError } from './errors.ts';
import type { AccommodationsRepository } from '../data-access/accommodations.repository.ts';
import type { AssessmentEvents } from '../messaging/assessment-events.publisher.ts';

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

/** The rule of fewer choices, shared with the practice the generation service serves. */
export { reducedOptions };

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

export function accommodationsUseCases(
  repo: AccommodationsRepository,
  events: Pick<AssessmentEvents, 'accommodationsChanged'>,
) {
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
      // With AccommodationsChanged in the same transaction: the practice generation serves follows.
      return repo.transaction(async (tx) => {
        const stored = await repo.put(tx, studentId, tenantId, { ...current, ...defined });
        await events.accommodationsChanged(tx, { tenantId, studentId, reducedChoices: stored.reducedChoices });
        return stored;
      });
    },
  };
}
