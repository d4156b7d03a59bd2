// Results of the caller's classes and assessments (GET /api/classes/{id}/results and
// GET /api/all-results), the class grid and one assessment's results page.
import { ApiRouter, NotFoundError } from '@checkpoint/service-kit';
import { z } from 'zod';
import { scopeOf, TEACHERS, uuidOr } from '../domain/access.ts';
import { ASSESSMENT_NOT_FOUND, CLASS_NOT_FOUND, type AnalyticsUseCases } from '../domain/analytics.use-case.ts';
import {
  assessmentResultsSchema,
  attemptProgressSchema,
  gridSchema,
  idParams,
  pageQuery,
  teacherResultSchema,
} from './analytics.schemas.ts';

const classId = (id: string) => uuidOr(id, () => new NotFoundError(CLASS_NOT_FOUND));

export function resultsRouter(uc: AnalyticsUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/results',
        summary: 'Results of one of the caller’s classes, newest first',
        access: TEACHERS,
        params: idParams,
        response: z.array(teacherResultSchema),
        errors: [404],
      },
      ({ caller, params }) => uc.classResults(scopeOf(caller), classId(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/all-results',
        summary:
          'Results of all the caller’s classes (an admin: the district), newest first; X-Total-Count has the total',
        access: TEACHERS,
        query: pageQuery,
        response: z.array(teacherResultSchema),
      },
      async ({ caller, query, res }) => {
        const { total, results } = await uc.allResults(scopeOf(caller), query);
        res.setHeader('X-Total-Count', String(total));
        return results;
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/grid',
        summary: 'Student progress grid of one class: members, assessments and each student’s result',
        access: TEACHERS,
        params: idParams,
        response: gridSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.grid(scopeOf(caller), classId(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/results',
        summary: 'Results page of one assessment: scores, levels, answers, item statistics and aligned standards',
        access: TEACHERS,
        params: idParams,
        response: assessmentResultsSchema,
        errors: [404],
      },
      ({ caller, params }) =>
        uc.assessmentResults(
          scopeOf(caller),
          uuidOr(params.id, () => new NotFoundError(ASSESSMENT_NOT_FOUND)),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/assessments/:id/progress',
        summary:
          'Live progress of one assessment: each student of the class not started, in progress (questions answered so far) or submitted; no answers or scores',
        access: TEACHERS,
        params: idParams,
        response: attemptProgressSchema,
        errors: [404],
      },
      ({ caller, params }) =>
        uc.attemptProgress(
          scopeOf(caller),
          uuidOr(params.id, () => new NotFoundError(ASSESSMENT_NOT_FOUND)),
        ),
    );
}
