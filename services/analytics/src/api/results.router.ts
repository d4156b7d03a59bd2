// Results of the caller's classes and assessments (GET /api/classes/{id}/results and
// GET /api/all-results), the class grid and one assessment's results page.
import { ApiRouter, csvText, NotFoundError } from '@checkpoint/service-kit';
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
import { sendCsv } from './report-export.ts';

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
        path: '/api/assessments/:id/item-analysis',
        summary:
          "Item analysis of one assessment as a CSV file: each question's options with how many chose each and how many were shown it (fewer than all where students had reduced answer choices)",
        access: TEACHERS,
        params: idParams,
        produces: ['text/csv'],
        errors: [404],
      },
      async ({ caller, params, res }) => {
        const id = uuidOr(params.id, () => new NotFoundError(ASSESSMENT_NOT_FOUND));
        const { questions } = await uc.assessmentResults(scopeOf(caller), id);
        sendCsv(
          res,
          'checkpoint-item-analysis.csv',
          csvText([ITEM_ANALYSIS_HEADER, ...itemAnalysisRows(questions)], { bom: true }),
        );
      },
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

const ITEM_ANALYSIS_HEADER = [
  'Question',
  'Question text',
  'Type',
  'Answered',
  'Correct',
  'Option',
  'Correct option',
  'Chosen by',
  'Shown to',
];

type ItemStatistics = Awaited<ReturnType<AnalyticsUseCases['assessmentResults']>>['questions'][number];

/**
 * One row per option of each question (how many chose it, of how many were shown it; a short
 * answer's options are the answers given), as the results page's item statistics show them; a
 * question nobody answered yet has one row without options.
 */
function itemAnalysisRows(questions: readonly ItemStatistics[]): (string | number)[][] {
  return questions.flatMap((q) => {
    const head = [q.position, q.questionText, q.questionType, q.answered, q.correctCount];
    if (q.optionCounts.length === 0) return [[...head, '', '', '', '']];
    return q.optionCounts.map((o) => [...head, o.option, o.correct ? 'yes' : 'no', o.count, o.shownTo]);
  });
}
