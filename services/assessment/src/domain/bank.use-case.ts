// The item bank (#30 item 1; docs/architecture.md, "The item bank"): teachers keep questions
// (one of their assessments' questions, or one written for the bank) privately, for their school
// or for their district, find them again, and add them to an assessment as copies.
//
// Who sees an item: its author; for `school`, the teachers of the schools the author taught in
// when it was shared (the schools of their classes) and the tenant's admins; for `district`,
// every teacher and admin of the tenant. Anyone else gets 404. Who changes or deletes it: its
// author, and for a shared item the tenant's admins (403 to the others who see it). An
// individual account (its own tenant, Free Trial) keeps a private bank only.
import { ForbiddenError, NotFoundError, ValidationError } from '@checkpoint/service-kit';
import type {
  BankItemFields,
  BankItemRecord,
  BankRepository,
  BankStandard,
  Viewer,
  Visibility,
} from '../data-access/bank.repository.ts';
import type { TeacherAssessmentsRepository } from '../data-access/teacher-assessments.repository.ts';
import type { QuestionView } from './assessment.ts';
import { checkQuestion, type AssessmentUseCases, type QuestionEdit } from './assessments.use-case.ts';
import { AssessmentNotFoundError, QuestionNotFoundError } from './errors.ts';
import { MAX_QUESTIONS } from './questions.ts';
import { inOrder } from './standards.ts';

export const BANK_PAGE_SIZE = { default: 20, max: 50 };

/** The caller of a bank route: a teacher or an admin. */
export interface BankCaller {
  tenantId: string;
  userId: string;
  role: string;
}

/** The labels an item is found by; left out: empty (or, saved from a question, its assessment's). */
export interface BankLabels {
  subject?: string | undefined;
  grade?: string | undefined;
  topic?: string | undefined;
  standard?: string | undefined;
}

export interface BankSearchInput {
  q?: string | undefined;
  type?: string | undefined;
  standard?: string | undefined;
  subject?: string | undefined;
  grade?: string | undefined;
  visibility?: Visibility | undefined;
  scope?: 'all' | 'mine' | undefined;
  page: number;
  pageSize: number;
}

export interface BankItemView {
  id: string;
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  acceptedAnswers: string[];
  points: number;
  subject: string;
  grade: string;
  topic: string;
  standard: string;
  standards: { identifier: string; code: string; uri: string }[];
  visibility: Visibility;
  author: { id: string; name: string };
  mine: boolean;
  canEdit: boolean;
  createdAt: string;
  updatedAt: string;
}

export class BankItemNotFoundError extends NotFoundError {
  constructor() {
    super('Bank item not found');
  }
}

/** Grades as the roster and CASE write them ("06", "KG") and as teachers do ("6", "K"), one way. */
export function normalizeGrade(grade: string | undefined): string {
  const g = (grade ?? '').trim().toUpperCase();
  if (g === 'KG' || g === 'K') return 'K';
  return /^\d+$/.test(g) ? String(Number(g)) : g;
}

const isAdmin = (c: BankCaller) => c.role === 'admin';

function mayEdit(caller: BankCaller, item: BankItemRecord): boolean {
  return item.authorId === caller.userId || (isAdmin(caller) && item.visibility !== 'private');
}

function view(caller: BankCaller, item: BankItemRecord): BankItemView {
  return {
    id: item.id,
    questionText: item.questionText,
    questionType: item.questionType,
    options: item.options,
    correctAnswer: item.correctAnswer,
    acceptedAnswers: item.acceptedAnswers,
    points: item.points,
    subject: item.subject,
    grade: item.grade,
    topic: item.topic,
    standard: item.standard,
    standards: item.standards.map((s) => ({ identifier: s.identifier, code: s.code, uri: s.uri })),
    visibility: item.visibility,
    author: { id: item.authorId, name: item.authorName },
    mine: item.authorId === caller.userId,
    canEdit: mayEdit(caller, item),
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
  };
}

const toBankStandard = (s: BankStandard): BankStandard => ({
  identifier: s.identifier,
  code: s.code,
  uri: s.uri,
  frameworkId: s.frameworkId,
});

export type BankUseCases = ReturnType<typeof bankUseCases>;

export function bankUseCases({
  bank,
  assessments,
  questions,
}: {
  bank: BankRepository;
  /** Reads of the caller's questions (saving one) and of the standards catalogue. */
  assessments: TeacherAssessmentsRepository;
  /** Adding items to an assessment goes through addQuestions and its rules. */
  questions: Pick<AssessmentUseCases, 'addQuestions'>;
}) {
  async function viewer(caller: BankCaller): Promise<Viewer> {
    return {
      tenantId: caller.tenantId,
      userId: caller.userId,
      admin: isAdmin(caller),
      schools: isAdmin(caller) ? [] : await bank.schoolsOf(caller.tenantId, caller.userId),
    };
  }

  /**
   * The school ids an item of this visibility is shared with (the author's schools for `school`),
   * or why it cannot be shared: an individual account, or an author without a school.
   */
  async function sharing(caller: BankCaller, authorId: string, visibility: Visibility): Promise<string[]> {
    if (visibility === 'private') return [];
    if ((await bank.tenantKindOf(caller.userId)) === 'individual') {
      const message = 'An individual account keeps a private bank: sharing needs a school or district account';
      throw new ValidationError(message, { visibility: message });
    }
    if (visibility === 'district') return [];
    const schools = await bank.schoolsOf(caller.tenantId, authorId);
    if (schools.length === 0) {
      const message = 'No school to share with: none of the classes names a school';
      throw new ValidationError(message, { visibility: message });
    }
    return schools;
  }

  /** The question's standards as catalogue items the tenant may use (each refusal names standards[i]). */
  async function catalogueStandards(tenantId: string, identifiers: readonly string[]): Promise<BankStandard[]> {
    if (identifiers.length === 0) return [];
    const found = await assessments.transaction((tx) => assessments.resolveStandards(tx, tenantId, identifiers));
    return inOrder(identifiers, found).map(toBankStandard);
  }

  function labels(l: BankLabels, fallback: Required<{ [K in keyof BankLabels]: string }>) {
    return {
      subject: (l.subject ?? fallback.subject).trim(),
      grade: normalizeGrade(l.grade ?? fallback.grade),
      topic: (l.topic ?? fallback.topic).trim(),
      standard: (l.standard ?? fallback.standard).trim(),
    };
  }

  async function seen(caller: BankCaller, id: string): Promise<BankItemRecord> {
    const item = await bank.findSeen(await viewer(caller), id);
    if (!item) throw new BankItemNotFoundError();
    return item;
  }

  async function editable(caller: BankCaller, id: string): Promise<BankItemRecord> {
    const item = await seen(caller, id);
    if (!mayEdit(caller, item))
      throw new ForbiddenError('Only its author or an admin of the district may change this item');
    return item;
  }

  return {
    async search(caller: BankCaller, s: BankSearchInput) {
      const rows = await bank.search(await viewer(caller), {
        q: s.q || undefined,
        type: s.type,
        standard: s.standard?.trim().toLowerCase() || undefined,
        subject: s.subject?.trim() || undefined,
        grade: s.grade ? normalizeGrade(s.grade) : undefined,
        visibility: s.visibility,
        mine: s.scope === 'mine',
        offset: (s.page - 1) * s.pageSize,
        limit: s.pageSize + 1,
      });
      return {
        items: rows.slice(0, s.pageSize).map((r) => view(caller, r)),
        page: s.page,
        pageSize: s.pageSize,
        hasMore: rows.length > s.pageSize,
      };
    },

    get: async (caller: BankCaller, id: string) => view(caller, await seen(caller, id)),

    /** One of the caller's questions, copied with its assessment's labels and its class's subject and grade. */
    async saveQuestion(
      caller: BankCaller,
      questionId: string,
      visibility: Visibility,
      given: BankLabels = {},
    ): Promise<BankItemView> {
      const owner = { tenantId: caller.tenantId, teacherId: caller.userId };
      const a = await assessments.transaction((tx) => assessments.findOwnedQuestion(owner, questionId, tx));
      const q = a && (await assessments.listQuestions(a.id)).find((x) => x.id === questionId);
      if (!a || !q) throw new QuestionNotFoundError();
      const schoolIds = await sharing(caller, caller.userId, visibility);
      const grades = await bank.classGrades(a.classId);
      const fields: BankItemFields = {
        visibility,
        schoolIds,
        questionText: q.questionText,
        questionType: q.questionType,
        options: q.options,
        correctAnswer: q.correctAnswer,
        acceptedAnswers: q.acceptedAnswers,
        points: Number(q.points),
        ...labels(given, {
          subject: a.subject,
          // A class of several grades gives none: the teacher names it if they want it found by grade.
          grade: grades.length === 1 ? grades[0]! : '',
          topic: a.topic,
          standard: a.standard,
        }),
        standards: (q.standards ?? []).map(toBankStandard),
      };
      const id = await bank.insert({
        ...fields,
        tenantId: caller.tenantId,
        authorId: caller.userId,
        sourceQuestionId: q.id,
      });
      return view(caller, (await bank.findSeen(await viewer(caller), id))!);
    },

    /** A question written for the bank: checked as a question of an assessment is. */
    async saveNew(
      caller: BankCaller,
      edit: QuestionEdit,
      visibility: Visibility,
      given: BankLabels = {},
    ): Promise<BankItemView> {
      const q = checkQuestion({ ...edit, points: edit.points ?? 1, acceptedAnswers: edit.acceptedAnswers ?? [] });
      const schoolIds = await sharing(caller, caller.userId, visibility);
      const standards = await catalogueStandards(caller.tenantId, edit.standards ?? []);
      const id = await bank.insert({
        ...q,
        ...labels(given, { subject: '', grade: '', topic: '', standard: '' }),
        visibility,
        schoolIds,
        standards,
        tenantId: caller.tenantId,
        authorId: caller.userId,
        sourceQuestionId: null,
      });
      return view(caller, (await bank.findSeen(await viewer(caller), id))!);
    },

    /**
     * Rewrites an item (what is left out keeps its value). Assessments it was added to keep their
     * copies: nothing here touches a question.
     */
    async update(
      caller: BankCaller,
      id: string,
      edit: QuestionEdit & { visibility?: Visibility | undefined; labels?: BankLabels },
    ): Promise<BankItemView> {
      const item = await editable(caller, id);
      const q = checkQuestion({
        questionText: edit.questionText,
        questionType: edit.questionType,
        options: edit.options ?? item.options,
        correctAnswer: edit.correctAnswer,
        acceptedAnswers: edit.acceptedAnswers ?? item.acceptedAnswers,
        points: edit.points ?? item.points,
      });
      const visibility = edit.visibility ?? item.visibility;
      // A change of visibility is checked as a share (for the editor's account, with the author's
      // schools); an unchanged one keeps whom it is shared with.
      const schoolIds =
        visibility === item.visibility ? item.schoolIds : await sharing(caller, item.authorId, visibility);
      const standards =
        edit.standards === undefined ? item.standards : await catalogueStandards(caller.tenantId, edit.standards);
      const fields: BankItemFields = {
        ...q,
        ...labels(edit.labels ?? {}, item),
        visibility,
        schoolIds,
        standards,
      };
      if (!(await bank.update(id, fields))) throw new BankItemNotFoundError();
      return view(caller, { ...item, ...fields, updatedAt: new Date() });
    },

    async delete(caller: BankCaller, id: string): Promise<void> {
      await editable(caller, id);
      await bank.delete(id);
    },

    /**
     * Copies the chosen items, in the order given, to the end of one of the caller's assessments:
     * new questions with the items' text, key, points and alignment, on addQuestion's rules (the
     * teacher of the assessment, at most MAX_QUESTIONS, none once students submitted, a common
     * assessment's copy locked). An item the caller cannot see is refused naming itemIds[i].
     */
    async addToAssessment(caller: BankCaller, assessmentId: string, itemIds: string[]): Promise<QuestionView[]> {
      if (itemIds.length > MAX_QUESTIONS) {
        const message = `At most ${MAX_QUESTIONS} items at once`;
        throw new ValidationError(message, { itemIds: message });
      }
      const found = new Map(
        (await bank.findManySeen(await viewer(caller), itemIds)).map((item) => [item.id, item] as const),
      );
      const owner = { tenantId: caller.tenantId, teacherId: caller.userId };
      // Someone else's assessment is not found whatever the items are (as adding by hand).
      if (found.size < new Set(itemIds).size && !(await assessments.findOwned(owner, assessmentId)))
        throw new AssessmentNotFoundError();
      const items = itemIds.map((id, i) => {
        const item = found.get(id);
        if (!item) {
          const message = 'Not an item of your bank';
          throw new ValidationError(message, { [`itemIds[${i}]`]: message });
        }
        return item;
      });
      return questions.addQuestions(
        owner,
        assessmentId,
        items.map((item) => ({
          questionText: item.questionText,
          questionType: item.questionType as QuestionEdit['questionType'],
          options: item.options,
          correctAnswer: item.correctAnswer,
          acceptedAnswers: item.acceptedAnswers,
          points: item.points,
          standards: item.standards.map((s) => s.identifier),
          keptStandards: item.standards.map((s) => ({ ...s, statement: '' })),
        })),
      );
    },
  };
}
