// Practice material per assessment and type, its completion, result-based practice and
// the teacher's AI recommendations.
import { ApiRouter } from '@checkpoint/service-kit';
import type { PracticeUseCases } from '../domain/practice.use-case.ts';
import { ResultNotFoundError } from '../domain/errors.ts';
import { uuidOr404 } from './ids.ts';
import {
  completionBody,
  completionResultSchema,
  idParams,
  materialSchema,
  messageSchema,
  recommendationSchema,
  resultParams,
  submitBody,
  supportContentSchema,
  typeParams,
} from './schemas.ts';

const EVERYONE = ['student', 'teacher', 'admin'] as const;
const TEACHERS = ['teacher', 'admin'] as const;
const STUDENTS = ['student'] as const;
const resultId = (id: string) => uuidOr404(id, () => new ResultNotFoundError());

export function practiceRouter(practice: PracticeUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/support-material/:type',
        summary:
          "Reading and practice questions after the student's result; answer keys for the teachers of its class or of a class it is assigned to only",
        access: EVERYONE,
        params: typeParams,
        response: materialSchema,
        errors: [404],
      },
      ({ caller, params }) => practice.getMaterial(caller, uuidOr404(params.id), params.type),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/support-completion',
        summary:
          'Score practice answers on the server; 80% or more is mastery (support raises the level to at standard)',
        access: STUDENTS,
        params: idParams,
        body: completionBody,
        response: completionResultSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) =>
        practice.complete(caller, uuidOr404(params.id), body.type, body.responses, body.version),
    )
    .add(
      {
        method: 'get',
        path: '/api/support-content/:resultId',
        summary: "Practice built from the result's wrong answers (no answer keys)",
        access: EVERYONE,
        params: resultParams,
        response: supportContentSchema,
        errors: [404],
      },
      ({ caller, params }) => practice.getResultContent(caller, resultId(params.resultId)),
    )
    .add(
      {
        method: 'post',
        path: '/api/support-content/:resultId/submit',
        summary: 'Score answers (question index to answer) of result-based practice',
        access: EVERYONE,
        params: resultParams,
        body: submitBody,
        response: completionResultSchema,
        // 409 practice_attempt_final (this round is already submitted), practice_round_stale.
        errors: [404, 409],
      },
      ({ caller, params, body }) =>
        practice.submitResultPractice(caller, resultId(params.resultId), body.answers, body.round),
    )
    .add(
      {
        method: 'post',
        path: '/api/support-content/:resultId/restart',
        summary: 'Try Again: a new round of result-based practice (at most PRACTICE_MAX_ROUNDS rounds per result)',
        access: EVERYONE,
        params: resultParams,
        response: messageSchema,
        // 409 practice_rounds_used: every round of this result is used.
        errors: [404, 409],
      },
      ({ caller, params }) => practice.restartResultPractice(caller, resultId(params.resultId)),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/recommendations/:type',
        summary:
          "Guidance for the teacher from the assessment and its results so far (a teacher of a class it is assigned to from another class: their classes' results only)",
        access: TEACHERS,
        params: typeParams,
        response: recommendationSchema,
        errors: [404],
      },
      ({ caller, params }) => practice.recommendation(caller, uuidOr404(params.id), params.type),
    );
}
