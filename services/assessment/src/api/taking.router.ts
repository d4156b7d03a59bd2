// Student calls: what is ready to take, saving answers, submitting (scored on the server), and
// results. Results are also readable by the teacher of the class; a single result (and the submit
// reply) lists its questions with the answer key, which exists for the student only from then on.
import { ApiRouter, type Caller } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { AssessmentUseCases } from '../domain/assessments.use-case.ts';
import { QuestionNotFoundError, ResultNotFoundError } from '../domain/errors.ts';
import {
  availableAssessmentSchema,
  idParams,
  responseBody,
  resultDetailSchema,
  responseSchema,
  resultSchema,
  attemptChangeSchema,
  submitBody,
} from './assessments.schemas.ts';
import { uuidOr404 } from './ids.ts';

const STUDENTS = ['student'] as const;
const ANYONE = ['teacher', 'admin', 'student'] as const;
const TEACHERS = ['teacher'] as const;
const student = (caller: Caller) => ({ studentId: caller.userId });

export function takingRouter(uc: AssessmentUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/student/available-assessments',
        summary: 'Active, assigned assessments of the classes the student is in, not yet submitted',
        access: STUDENTS,
        response: z.array(availableAssessmentSchema),
      },
      ({ caller }) => uc.available(student(caller)),
    )
    .add(
      {
        method: 'post',
        path: '/api/responses',
        summary: 'Save one answer (upsert; idempotent; with clientSeq the latest save wins)',
        access: STUDENTS,
        body: responseBody,
        response: responseSchema,
        errors: [404, 409],
      },
      ({ caller, body }) =>
        uc.saveResponse(student(caller), {
          assessmentId: uuidOr404(body.assessmentId),
          questionId: uuidOr404(body.questionId, () => new QuestionNotFoundError()),
          answer: body.answer,
          clientSeq: body.clientSeq,
        }),
    )
    .add(
      {
        method: 'post',
        path: '/api/results',
        summary:
          'Submit: scored on the server from the saved answers (any score sent is ignored); replies with the result and its questions',
        access: STUDENTS,
        body: submitBody,
        status: 201,
        response: resultDetailSchema,
        errors: [404, 409],
      },
      ({ caller, body }) => uc.submit(student(caller), uuidOr404(body.assessmentId)),
    )
    .add(
      {
        method: 'get',
        path: '/api/results/:id',
        summary:
          "A result with each question, the answer given and the key: the student's own, or one of the teacher's classes",
        access: ANYONE,
        params: idParams,
        response: resultDetailSchema,
        errors: [404],
      },
      ({ caller, params }) =>
        uc.result(
          caller,
          uuidOr404(params.id, () => new ResultNotFoundError()),
        ),
    )
    .add(
      {
        method: 'post',
        path: '/api/results/:id/retake',
        summary:
          "Grant the result's student a retake (teacher of the assessment): the result stays as an earlier attempt and the student answers afresh; 409 when the assessment allows no more attempts (no_attempts_left), the next attempt is already open (attempt_open) or the result is an earlier attempt (not_current_attempt)",
        access: TEACHERS,
        params: idParams,
        response: attemptChangeSchema,
        errors: [404, 409],
      },
      ({ caller, params }) =>
        uc.retake(
          caller,
          uuidOr404(params.id, () => new ResultNotFoundError()),
        ),
    )
    .add(
      {
        method: 'post',
        path: '/api/results/:id/reopen',
        summary:
          "Reopen the result's attempt (teacher of the assessment): the result is withdrawn and the student continues with their saved answers, then submits again; 409 when the result is an earlier attempt or a later one is open",
        access: TEACHERS,
        params: idParams,
        response: attemptChangeSchema,
        errors: [404, 409],
      },
      ({ caller, params }) =>
        uc.reopen(
          caller,
          uuidOr404(params.id, () => new ResultNotFoundError()),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/student/results',
        summary: "The student's results, newest first",
        access: STUDENTS,
        response: z.array(resultSchema),
      },
      ({ caller }) => uc.studentResults(student(caller)),
    );
}
