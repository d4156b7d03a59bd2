// Scores to the LMS (AGS), docs/adr/014-lti.md: a teacher of the assessment's class sees its
// scores (pending, sent, failed, why, attempts, next try) and resends them; a district admin sees
// the district's failures.
import { ApiRouter } from '@checkpoint/service-kit';
import type { ScoreUseCases } from '../domain/scores.use-case.ts';
import { assessmentParams, resendBody, resendResultSchema, scoreStatusListSchema } from './scores.schemas.ts';

const BASE = '/api/integrations/lti';

export function scoresRouter(uc: ScoreUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: `${BASE}/assessments/:assessmentId/scores`,
        summary: "The assessment's scores for the LMS gradebook (AGS), for a teacher of its class",
        access: ['teacher'],
        params: assessmentParams,
        response: scoreStatusListSchema,
        errors: [404],
      },
      async ({ caller, params }) => ({ scores: await uc.statusFor(caller, params.assessmentId) }),
    )
    .add(
      {
        method: 'post',
        path: `${BASE}/assessments/:assessmentId/scores/resend`,
        summary:
          "Post the assessment's unsent scores (failed or waiting) to the LMS again now, for a teacher of its class",
        access: ['teacher'],
        params: assessmentParams,
        body: resendBody,
        response: resendResultSchema,
        errors: [404],
      },
      async ({ caller, params, body }) => ({ resent: await uc.resend(caller, params.assessmentId, body.userId) }),
    )
    .add(
      {
        method: 'get',
        path: `${BASE}/score-failures`,
        summary: "The district's scores the LMS never took (AGS), for the district's admin",
        access: ['admin'],
        response: scoreStatusListSchema,
      },
      async ({ caller }) => ({ scores: await uc.failures(caller.tenantId) }),
    );
}
