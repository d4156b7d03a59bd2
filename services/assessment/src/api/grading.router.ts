// Grading by hand (docs/architecture.md, "Grading by hand"): the teacher of the result's class
// regrades an answer, writes feedback on the result, reads its audit, and lists the answers of an
// assessment waiting for review. Anyone else: 404 (a student: 403 by role).
import { ApiRouter, type Caller } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { GradingUseCases } from '../domain/grading.use-case.ts';
import { QuestionNotFoundError, ResultNotFoundError } from '../domain/errors.ts';
import { idParams, resultDetailSchema } from './assessments.schemas.ts';
import { feedbackBody, regradeBody, regradeHistorySchema, regradeParams, reviewItemSchema } from './grading.schemas.ts';
import { uuidOr404 } from './ids.ts';

const TEACHERS = ['teacher', 'admin'] as const;
const owner = (caller: Caller) => ({ tenantId: caller.tenantId, teacherId: caller.userId });
const resultId = (id: string) => uuidOr404(id, () => new ResultNotFoundError());

export function gradingRouter(uc: GradingUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'patch',
        path: '/api/results/:resultId/responses/:questionId',
        summary:
          "Regrade one answer (the class's teacher): earnedPoints from 0 to the question's points, optional feedback; the result's score and level follow",
        access: TEACHERS,
        params: regradeParams,
        body: regradeBody,
        response: resultDetailSchema,
        errors: [400, 404, 409],
      },
      ({ caller, params, body }) =>
        uc.regrade(
          caller,
          resultId(params.resultId),
          uuidOr404(params.questionId, () => new QuestionNotFoundError()),
          body,
        ),
    )
    .add(
      {
        method: 'put',
        path: '/api/results/:id/feedback',
        summary: "Written feedback on the whole result, shown to the student (the class's teacher)",
        access: TEACHERS,
        params: idParams,
        body: feedbackBody,
        response: resultDetailSchema,
        errors: [400, 404],
      },
      ({ caller, params, body }) => uc.setFeedback(caller, resultId(params.id), body.feedback),
    )
    .add(
      {
        method: 'get',
        path: '/api/results/:id/regrades',
        summary: "Every change of the result's marks and feedback, oldest first (the class's teacher)",
        access: TEACHERS,
        params: idParams,
        response: regradeHistorySchema,
        errors: [404],
      },
      ({ caller, params }) => uc.history(caller, resultId(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/to-review',
        summary: "Short answers of the assessment's results waiting for the teacher's review",
        access: TEACHERS,
        params: idParams,
        response: z.array(reviewItemSchema),
        errors: [404],
      },
      ({ caller, params }) => uc.toReview(owner(caller), uuidOr404(params.id)),
    );
}
