// Common assessments (a district's benchmark): a district admin writes one (questions as in any
// assessment, each optionally aligned to standards of the catalogue), publishes it to the teachers
// of chosen schools, grades and subjects, and from then on its questions are locked. A teacher it
// reaches (through one of their classes) assigns it to such a class: the class gets a copy, linked
// by common_assessment_id, assigned at once, whose questions the teacher cannot change either.
import { ConflictError, NotFoundError, uuidv7, ValidationError } from '@checkpoint/service-kit';
import type {
  CommonAssessmentRow,
  CommonAssessmentsRepository,
  CommonQuestion,
  StandardCopy,
  Targets,
} from '../data-access/common-assessments.repository.ts';
import type { TeacherAssessmentsRepository } from '../data-access/teacher-assessments.repository.ts';
import type { AssessmentEvents } from '../messaging/assessment-events.publisher.ts';
import { teacherView, type Owner, type QuestionRow, type TeacherAssessmentView } from './assessment.ts';
import { checkQuestion, type QuestionEdit } from './assessments.use-case.ts';
import { ClassNotFoundError } from './errors.ts';
import { MAX_QUESTIONS } from './questions.ts';

export interface CommonQuestionInput extends QuestionEdit {
  standards?: string[] | undefined;
}

export interface CommonAssessmentInput {
  title: string;
  description: string;
  topic: string;
  standard: string;
  questions: CommonQuestionInput[];
}

export interface CommonAssessmentView {
  id: string;
  title: string;
  description: string;
  topic: string;
  standard: string;
  status: 'draft' | 'published';
  targets: Targets;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  questionCount: number;
  /** For a teacher: their classes it reaches (empty for the admin's list). */
  classIds: string[];
}

/** A question as stored (without its assessment), with its standards. */
export type CommonQuestionView = Omit<QuestionRow, 'assessmentId' | 'standards'> & { standards: StandardCopy[] };

export class CommonAssessmentNotFoundError extends NotFoundError {
  constructor() {
    super('Common assessment not found');
  }
}

export class CommonAssessmentPublishedError extends ConflictError {
  constructor() {
    super(
      'This common assessment is published: its questions are locked and can no longer change.',
      'common_assessment_published',
    );
  }
}

export class AlreadyAssignedToClassError extends ConflictError {
  constructor() {
    super('This common assessment is already assigned to that class.', 'already_assigned');
  }
}

const view = (r: CommonAssessmentRow, classIds: string[] = []): CommonAssessmentView => ({
  id: r.id,
  title: r.title,
  description: r.description,
  topic: r.topic,
  standard: r.standard,
  status: r.status,
  targets: { schools: r.targetSchools, grades: r.targetGrades, subjects: r.targetSubjects },
  publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  questionCount: r.questionCount,
  classIds,
});

export type CommonAssessmentUseCases = ReturnType<typeof commonAssessmentUseCases>;

export function commonAssessmentUseCases({
  common,
  assessments,
  events,
}: {
  common: CommonAssessmentsRepository;
  assessments: TeacherAssessmentsRepository;
  events: AssessmentEvents;
}) {
  /** Each question checked as any question is; its standards resolved against the catalogue. */
  async function checkQuestions(tenantId: string, input: CommonQuestionInput[]): Promise<CommonQuestion[]> {
    if (input.length === 0) {
      const message = 'A common assessment needs at least one question';
      throw new ValidationError(message, { questions: message });
    }
    if (input.length > MAX_QUESTIONS) {
      const message = `A common assessment has at most ${MAX_QUESTIONS} questions`;
      throw new ValidationError(message, { questions: message });
    }
    const identifiers = [...new Set(input.flatMap((q) => q.standards ?? []))];
    const found = await common.resolveStandards(tenantId, identifiers);
    return input.map((edit, i) => {
      let q;
      try {
        q = checkQuestion({ ...edit, points: edit.points ?? 1, acceptedAnswers: edit.acceptedAnswers ?? [] });
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        const field = `questions[${i}].${Object.keys(err.fields ?? {})[0] ?? 'questionText'}`;
        throw new ValidationError(err.message, { [field]: err.message });
      }
      const standards = [...new Set(edit.standards ?? [])].map((identifier, j) => {
        const s = found.get(identifier);
        if (!s) {
          const message = `Standard ${identifier} is not in an imported framework`;
          throw new ValidationError(message, { [`questions[${i}].standards[${j}]`]: message });
        }
        return s;
      });
      return { ...q, standards };
    });
  }

  async function ofTenant(tenantId: string, id: string) {
    const ca = await common.findForTenant(tenantId, id);
    if (!ca) throw new CommonAssessmentNotFoundError();
    return ca;
  }

  /** A published one reaching one of the teacher's classes; else not found. */
  async function publishedTo(owner: Owner, id: string) {
    const found = (await common.listPublishedTo(owner.tenantId, owner.teacherId)).find((c) => c.id === id);
    if (!found) throw new CommonAssessmentNotFoundError();
    return found;
  }

  return {
    async create(admin: { tenantId: string; userId: string }, input: CommonAssessmentInput) {
      const questions = await checkQuestions(admin.tenantId, input.questions);
      const id = await common.transaction(async (tx) => {
        const id = await common.insert(tx, {
          tenantId: admin.tenantId,
          title: input.title,
          description: input.description,
          topic: input.topic,
          standard: input.standard,
        });
        await common.replaceQuestions(tx, { id, tenantId: admin.tenantId }, questions);
        return id;
      });
      return view(await ofTenant(admin.tenantId, id));
    },

    /** The district admin: all of the district's; a teacher: the published ones reaching their classes. */
    /** The district's schools, grades and subjects a publication may name (the district admin). */
    targets: (caller: { tenantId: string }) => common.targets(caller.tenantId),

    async list(caller: { tenantId: string; userId: string; role: string }): Promise<CommonAssessmentView[]> {
      if (caller.role === 'admin') return (await common.listForTenant(caller.tenantId)).map((r) => view(r));
      return (await common.listPublishedTo(caller.tenantId, caller.userId)).map((r) => view(r, r.classIds));
    },

    async get(caller: { tenantId: string; userId: string; role: string }, id: string) {
      let ca: CommonAssessmentView;
      if (caller.role === 'admin') ca = view(await ofTenant(caller.tenantId, id));
      else {
        const r = await publishedTo({ tenantId: caller.tenantId, teacherId: caller.userId }, id);
        ca = view(r, r.classIds);
      }
      return { ...ca, questions: (await common.questions(id)).map(questionView) };
    },

    /** Replaces the questions of a draft; a published one is locked (409). */
    async replaceQuestions(admin: { tenantId: string }, id: string, input: CommonQuestionInput[]) {
      const questions = await checkQuestions(admin.tenantId, input);
      await common.transaction(async (tx) => {
        const ca = await common.findForTenant(admin.tenantId, id, tx, true);
        if (!ca) throw new CommonAssessmentNotFoundError();
        if (ca.status === 'published') throw new CommonAssessmentPublishedError();
        await common.replaceQuestions(tx, ca, questions);
      });
      return (await common.questions(id)).map(questionView);
    },

    /** Publishes (or changes who it is published to); its questions are locked from then on. */
    async publish(admin: { tenantId: string }, id: string, targets: Targets): Promise<CommonAssessmentView> {
      await common.transaction(async (tx) => {
        const ca = await common.findForTenant(admin.tenantId, id, tx, true);
        if (!ca) throw new CommonAssessmentNotFoundError();
        await common.publish(tx, id, {
          schools: [...new Set(targets.schools)],
          grades: [...new Set(targets.grades)],
          subjects: [...new Set(targets.subjects)],
        });
      });
      return view(await ofTenant(admin.tenantId, id));
    },

    /**
     * The teacher assigns it to one of their classes it reaches: the class's copy, assigned at once
     * (AssessmentCreated with common_assessment_id, QuestionsChanged, AssessmentAssigned).
     */
    async assign(owner: Owner, id: string, classId: string): Promise<TeacherAssessmentView> {
      const created = await common.transaction(async (tx) => {
        const ca = await common.findForTenant(owner.tenantId, id, tx, true);
        if (!ca || ca.status !== 'published') throw new CommonAssessmentNotFoundError();
        if (!(await assessments.ownsClass(owner, classId, tx))) throw new ClassNotFoundError();
        if (!(await common.reachesClass(tx, owner.tenantId, owner.teacherId, id, classId)))
          throw new CommonAssessmentNotFoundError();
        if (await common.copyInClass(tx, id, classId)) throw new AlreadyAssignedToClassError();
        const questions = await common.questions(id, tx);
        const copyId = uuidv7();
        const facts = {
          id: copyId,
          tenantId: owner.tenantId,
          classId,
          teacherId: owner.teacherId,
          title: ca.title,
          description: ca.description,
          topic: ca.topic,
          standard: ca.standard,
          isActive: true,
          commonAssessmentId: ca.id,
        };
        await common.insertCopy(tx, facts, questions);
        await events.created(tx, facts, undefined);
        await events.questionsChanged(tx, facts, await assessments.listQuestions(copyId, tx));
        await events.assigned(tx, facts);
        return assessments.findOwned(owner, copyId, tx);
      });
      return teacherView(created!);
    },
  };
}

function questionView(q: CommonQuestion & { id: string; position: number }): CommonQuestionView {
  return { ...q, points: Number(q.points) };
}
