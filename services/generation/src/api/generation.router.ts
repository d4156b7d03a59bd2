// Job status and retry for the assessment's teacher (another teacher's assessment answers 404).
import { ApiRouter } from '@checkpoint/service-kit';
import type { GenerationUseCases } from '../domain/generation.use-case.ts';
import { uuidOr404 } from './ids.ts';
import { idParams, jobSchema } from './schemas.ts';

const TEACHERS = ['teacher', 'admin'] as const;

export function generationRouter(generation: GenerationUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/generation',
        summary: 'Progress of question generation for an assessment (queued, running, succeeded, failed)',
        access: TEACHERS,
        params: idParams,
        response: jobSchema,
        errors: [404],
      },
      ({ caller, params }) => generation.status(caller, uuidOr404(params.id)),
    )
    .add(
      {
        method: 'post',
        path: '/api/assessments/:id/generation/retry',
        summary: 'Queue a failed generation again',
        access: TEACHERS,
        params: idParams,
        status: 202,
        response: jobSchema,
        errors: [404, 409, 429],
      },
      ({ caller, params }) => generation.retry(caller, uuidOr404(params.id)),
    );
}
