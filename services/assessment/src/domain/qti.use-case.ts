// QTI 3.0 out and in (#31 item 6; docs/adr/013-qti.md): a teacher's assessment as a QTI content
// package, and a package (or one item) as a new draft assessment in one of the teacher's classes.
// The package's questions pass the same checks as a question the teacher writes (checkQuestion);
// whatever does not come in as it was is in the import's report, with its file and the reason.
import { ValidationError } from '@checkpoint/service-kit';
import type { TeacherAssessmentsRepository } from '../data-access/teacher-assessments.repository.ts';
import type { AssessmentEvents } from '../messaging/assessment-events.publisher.ts';
import { TEXT_LIMITS, type Owner } from './assessment.ts';
import { checkQuestion } from './assessments.use-case.ts';
import { AssessmentNotFoundError, GenerationPendingError } from './errors.ts';
import { clip, LABEL_MAX } from './labels.ts';
import { MAX_POINTS, MAX_QUESTIONS, type QuestionInput } from './questions.ts';
import {
  QtiPackageError,
  readQtiPackage,
  writeQtiPackage,
  type QtiQuestionType,
  type QtiReportEntry,
} from './qti-package.ts';
import type { StandardRef } from './standards.ts';

/** The longest question or option text the API takes (TEXT_LIMITS: 5,000 for both). */
const TEXT_MAX = Math.min(TEXT_LIMITS.question, TEXT_LIMITS.answer);

export interface QtiImportResult {
  assessmentId: string;
  title: string;
  /** Questions that came in. */
  imported: number;
  /** What did not come in as it was: left out (`imported: false`) or imported without something. */
  report: QtiReportEntry[];
}

export type QtiUseCases = ReturnType<typeof qtiUseCases>;

export function qtiUseCases({
  assessments,
  events,
}: {
  assessments: TeacherAssessmentsRepository;
  events: AssessmentEvents;
}) {
  return {
    /** The assessment as a QTI 3.0 package; its file name from its title. */
    async exportPackage(owner: Owner, id: string): Promise<{ fileName: string; bytes: Uint8Array }> {
      const a = await assessments.findOwned(owner, id);
      if (!a) throw new AssessmentNotFoundError();
      if (a.generationStatus === 'generating') throw new GenerationPendingError();
      const questions = await assessments.listQuestions(id);
      const bytes = writeQtiPackage({
        id,
        title: a.title,
        description: a.description,
        questions: questions.map((q) => ({
          questionText: q.questionText,
          questionType: q.questionType as QtiQuestionType,
          options: q.options,
          correctAnswer: q.correctAnswer,
          acceptedAnswers: q.acceptedAnswers,
          points: Number(q.points),
          standards: (q.standards ?? []).map((s) => ({ identifier: s.identifier, label: s.code, uri: s.uri })),
        })),
      });
      const slug =
        a.title
          .normalize('NFKD')
          .replace(/[^\w]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 60) || 'assessment';
      return { fileName: `${slug}.qti.zip`, bytes };
    },

    /**
     * A new draft assessment in `classId` (one the caller teaches, not archived) holding the
     * package's questions; nothing is stored when the package cannot be read or holds none.
     */
    async importPackage(owner: Owner, classId: string, bytes: Uint8Array): Promise<QtiImportResult> {
      let read;
      try {
        read = readQtiPackage(bytes);
      } catch (err) {
        if (err instanceof QtiPackageError) throw new ValidationError(err.message, { package: err.message });
        throw err;
      }
      const report = [...read.report];
      const kept: {
        file: string;
        item: string;
        q: QuestionInput;
        standards: { identifier: string; label: string; uri: string }[];
      }[] = [];
      for (const { file, item, question } of read.items) {
        const leaveOut = (reason: string) => report.push({ file, item, reason, imported: false });
        if (kept.length >= MAX_QUESTIONS) {
          leaveOut(`an assessment holds at most ${MAX_QUESTIONS} questions`);
          continue;
        }
        const longest = Math.max(
          question.questionText.length,
          ...question.options.map((o) => o.length),
          question.correctAnswer.length,
        );
        if (question.questionText === '') {
          leaveOut('the item has no question text');
          continue;
        }
        if (longest > TEXT_MAX) {
          leaveOut(`its text is longer than ${TEXT_MAX} characters`);
          continue;
        }
        try {
          kept.push({
            file,
            item,
            q: checkQuestion({ ...question, standards: undefined, points: Math.min(question.points, MAX_POINTS) }),
            standards: question.standards,
          });
          if (question.points > 100)
            report.push({
              file,
              item,
              reason: `its points were above ${MAX_POINTS}: imported as ${MAX_POINTS}`,
              imported: true,
            });
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          leaveOut(err.message);
        }
      }
      if (kept.length === 0) {
        const message = `Nothing in the package can be imported: ${report.find((r) => !r.imported)?.reason ?? 'it holds no items'}`;
        throw new ValidationError(message, { package: message });
      }

      const created = await assessments.transaction(async (tx) => {
        const target = (await assessments.ownedClasses(tx, owner, [classId])).get(classId);
        if (!target) throw new ValidationError('Not one of your classes', { classId: 'Not one of your classes' });
        if (target.archived) {
          const message = 'This class is archived: restore it to import into it';
          throw new ValidationError(message, { classId: message });
        }
        const author = { tenantId: target.tenantId, teacherId: owner.teacherId };
        // Alignments to CASE items of the district's catalogue (or a platform framework) come in; others are reported.
        const catalogue = await assessments.resolveStandards(tx, author.tenantId, [
          ...new Set(kept.flatMap((k) => k.standards.map((s) => s.identifier))),
        ]);
        const rows = kept.map(({ file, item, q, standards }) => {
          const found: StandardRef[] = [];
          for (const s of standards) {
            const ref = catalogue.get(s.identifier);
            if (ref) found.push(ref);
            else
              report.push({
                file,
                item,
                reason: `its standard ${s.label || s.uri || s.identifier} is not in your district's standards catalogue: imported without it`,
                imported: true,
              });
          }
          return { ...q, standards: found };
        });
        const types = new Set(rows.map((r) => r.questionType));
        const fields = {
          classId,
          title: clip(read.title, TEXT_LIMITS.title),
          description: clip(read.description, TEXT_LIMITS.description),
          topic: clip(read.title, LABEL_MAX),
          standard: '',
          dueDate: null,
        };
        const generation = {
          contentToAssess: '',
          questionType: types.size === 1 ? [...types][0]! : 'mixed',
          numberOfQuestions: rows.length,
        };
        const id = await assessments.insert(tx, author, { ...fields, generation }, { ready: true });
        const a = { id, tenantId: author.tenantId, classId };
        await assessments.insertQuestions(tx, a, rows);
        await events.created(
          tx,
          { ...fields, ...a, teacherId: owner.teacherId, isActive: true, standards: [] },
          undefined,
        );
        await events.questionsChanged(tx, a, await assessments.listQuestions(id, tx));
        return { id, title: fields.title };
      });
      return { assessmentId: created.id, title: created.title, imported: kept.length, report };
    },
  };
}
