// Teacher calls on assessments and their questions (/api/assessments…, /api/questions/:id). Only
// the teacher of the class sees or changes them; anything else answers 404.
import { ApiRouter, clientAddress, TooManyRequestsError, type Caller } from '@checkpoint/service-kit';
import type { Request } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import type { AssessmentUseCases } from '../domain/assessments.use-case.ts';
import { ClassNotFoundError, QuestionNotFoundError } from '../domain/errors.ts';
import {
  assessmentSchema,
  assignBody,
  copyBody,
  assignResultSchema,
  createAssessmentBody,
  idParams,
  newQuestionBody,
  previewScoreBody,
  previewScoreSchema,
  questionBody,
  questionSchema,
  reorderBody,
  responseSchema,
  studentPreviewSchema,
  teacherAssessmentSchema,
  updateAssessmentBody,
} from './assessments.schemas.ts';
import { uuidOr404 } from './ids.ts';

const TEACHERS = ['teacher', 'admin'] as const;
const ANYONE = ['teacher', 'admin', 'student'] as const;
const owner = (caller: Caller) => ({ tenantId: caller.tenantId, teacherId: caller.userId });
const student = (caller: Caller) => ({ studentId: caller.userId });
const isStudent = (caller: Caller) => caller.role === 'student';

/** Limits on creating assessments (each starts a generation job). */
export interface CreateLimits {
  perTeacher: RateLimiterAbstract;
  perAddress: RateLimiterAbstract;
}

export function assessmentsRouter(uc: AssessmentUseCases, limits: CreateLimits): ApiRouter {
  /**
   * Runs `create` within the teacher's budget and their address's: one point each, taken before
   * (so parallel requests cannot all slip through) and given back when nothing was created (a
   * class not found yet is retried by clients and must not use the budget up).
   */
  async function limitedCreation<T>(caller: Caller, req: Request, create: () => Promise<T>): Promise<T> {
    const keys: [RateLimiterAbstract, string][] = [
      [limits.perTeacher, caller.userId],
      [limits.perAddress, clientAddress(req)],
    ];
    const taken: [RateLimiterAbstract, string][] = [];
    const giveBack = () => Promise.all(taken.map(([limiter, key]) => limiter.reward(key, 1)));
    try {
      for (const [limiter, key] of keys) {
        await limiter.consume(key);
        taken.push([limiter, key]);
      }
    } catch (err) {
      await giveBack();
      if (err instanceof RateLimiterRes) {
        throw new TooManyRequestsError(
          'Too many assessments created. Please wait a minute and try again.',
          Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        );
      }
      throw err;
    }
    try {
      return await create();
    } catch (err) {
      await giveBack();
      throw err;
    }
  }

  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/assessments',
        summary: "The caller's assessments (all of their classes), newest first",
        access: TEACHERS,
        response: z.array(teacherAssessmentSchema),
      },
      ({ caller }) => uc.list(owner(caller)),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments',
        summary: 'Create an assessment (active) and ask for its questions to be generated',
        access: TEACHERS,
        body: createAssessmentBody,
        status: 201,
        response: teacherAssessmentSchema,
        errors: [404, 429],
      },
      ({ caller, body, req }) =>
        limitedCreation(caller, req, () =>
          uc.create(owner(caller), { ...body, classId: uuidOr404(body.classId, () => new ClassNotFoundError()) }),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/assessments',
        summary: "One of the caller's classes: its assessments",
        access: TEACHERS,
        params: idParams,
        response: z.array(teacherAssessmentSchema),
        errors: [404],
      },
      ({ caller, params }) =>
        uc.listForClass(
          owner(caller),
          uuidOr404(params.id, () => new ClassNotFoundError()),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id',
        summary:
          'An assessment: the teacher of its class, or a student it is available to (or who submitted it); 409 assessment_inactive to a student of its class once it is closed',
        access: ANYONE,
        params: idParams,
        response: assessmentSchema,
        errors: [404, 409],
      },
      ({ caller, params }) =>
        isStudent(caller)
          ? uc.getForStudent(student(caller), uuidOr404(params.id))
          : uc.getForTeacher(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'put',
        path: '/api/assessments/:id',
        summary:
          'Change title, description, topic, standard and due date, and how students are given it (shuffleQuestions, shuffleOptions, opensAt, closesAt: 400 naming closesAt when it is not after opensAt or, changed, in the past), or any of those settings alone; {isActive} activates/deactivates (deactivating an assigned assessment closes it)',
        access: TEACHERS,
        params: idParams,
        body: updateAssessmentBody,
        response: teacherAssessmentSchema,
        errors: [404],
      },
      ({ caller, params, body }) => uc.update(owner(caller), uuidOr404(params.id), body),
    )
    .add(
      {
        method: 'delete',
        path: '/api/assessments/:id',
        summary: 'Delete an assessment with its questions, responses and results (permanent)',
        access: TEACHERS,
        params: idParams,
        errors: [404],
      },
      ({ caller, params }) => uc.delete(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/assign',
        summary:
          "Make the assessment available to every student of its class, now and later joiners; or of several of the teacher's classes (classIds), or only to chosen students of them (studentIds)",
        access: TEACHERS,
        params: idParams,
        body: assignBody,
        response: assignResultSchema,
        // 409 no_questions: nothing to answer yet (generation gave none, or every question was deleted).
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.assign(owner(caller), uuidOr404(params.id), body),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/copy',
        summary:
          "Copy the assessment (details, standards, questions, delivery settings) as a draft into one of the teacher's classes, to change there",
        access: TEACHERS,
        params: idParams,
        body: copyBody,
        status: 201,
        response: teacherAssessmentSchema,
        // 409 generation_pending: its questions are still being generated.
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.copy(owner(caller), uuidOr404(params.id), body),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/questions',
        summary: 'Questions in order; correctAnswer for the teacher, and for a student only after their result',
        access: ANYONE,
        params: idParams,
        response: z.array(questionSchema),
        errors: [404],
      },
      ({ caller, params }) =>
        isStudent(caller)
          ? uc.questionsForStudent(student(caller), uuidOr404(params.id))
          : uc.questionsForTeacher(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/student-preview',
        summary:
          "Try as a student: the class teacher's view of the assessment as a student gets it, without answer keys",
        access: TEACHERS,
        params: idParams,
        response: studentPreviewSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.studentPreview(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/student-preview/score',
        summary:
          "Try as a student: scores the teacher's answers as a submission would and stores nothing (no response, result or event)",
        access: TEACHERS,
        params: idParams,
        body: previewScoreBody,
        response: previewScoreSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.scorePreview(owner(caller), uuidOr404(params.id), body.answers),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/questions',
        summary: 'Add one question at the end (at most 20; 409 once students submitted)',
        access: TEACHERS,
        params: idParams,
        body: newQuestionBody,
        status: 201,
        response: questionSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.addQuestion(owner(caller), uuidOr404(params.id), body),
    )
    .add(
      {
        method: 'put',
        path: '/api/assessments/:id/questions/order',
        summary: 'Put the questions in a new order (every question id once); replies with the questions in order',
        access: TEACHERS,
        params: idParams,
        body: reorderBody,
        response: z.array(questionSchema),
        errors: [404],
      },
      ({ caller, params, body }) => uc.reorderQuestions(owner(caller), uuidOr404(params.id), body.questionIds),
    )
    .add(
      {
        method: 'post',
        path: '/api/questions/:id/duplicate',
        summary: 'Add a copy of a question right after it (at most 20 questions; 409 once students submitted)',
        access: TEACHERS,
        params: idParams,
        status: 201,
        response: questionSchema,
        errors: [404, 409],
      },
      ({ caller, params }) =>
        uc.duplicateQuestion(
          owner(caller),
          uuidOr404(params.id, () => new QuestionNotFoundError()),
        ),
    )
    .add(
      {
        method: 'put',
        path: '/api/questions/:id',
        summary:
          'Edit one question; once students submitted, only its text (409 has_submissions for key, options, type or points)',
        access: TEACHERS,
        params: idParams,
        body: questionBody,
        response: questionSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) =>
        uc.updateQuestion(
          owner(caller),
          uuidOr404(params.id, () => new QuestionNotFoundError()),
          body,
        ),
    )
    .add(
      {
        method: 'delete',
        path: '/api/questions/:id',
        summary: 'Delete one question (409 once students submitted)',
        access: TEACHERS,
        params: idParams,
        errors: [404, 409],
      },
      ({ caller, params }) =>
        uc.deleteQuestion(
          owner(caller),
          uuidOr404(params.id, () => new QuestionNotFoundError()),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/responses',
        summary: "Saved answers: every student's for the teacher, only their own for a student",
        access: ANYONE,
        params: idParams,
        response: z.array(responseSchema),
        errors: [404],
      },
      ({ caller, params }) =>
        isStudent(caller)
          ? uc.responsesForStudent(student(caller), uuidOr404(params.id))
          : uc.responsesForTeacher(owner(caller), uuidOr404(params.id)),
    );
}
