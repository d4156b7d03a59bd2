// GET /api/common-assessments/:id/report: the district admin's roll-up of a common assessment by
// school, class and standard, and the same as CSV (the rest of /api/common-assessments is the
// assessment service's).
import { ApiRouter, NotFoundError, type Caller } from '@checkpoint/service-kit';
import type pg from 'pg';
import { z } from 'zod';
import { classFigures, commonTitle, standardFigures } from '../data-access/common-assessments.queries.ts';
import { ADMINS, uuidOr } from '../domain/access.ts';
import { commonReport, commonReportCsv } from '../domain/common-report.ts';
import { sendCsv } from './report-export.ts';

const standardLine = z.object({
  identifier: z.string(),
  code: z.string(),
  suppressed: z.boolean(),
  students: z.number().int().optional(),
  averagePercentage: z.number().optional(),
});
const figures = {
  suppressed: z.boolean().describe('Fewer than 5 students submitted: no figures'),
  students: z.number().int().optional(),
  submitted: z.number().int().optional(),
  averagePercentage: z.number().optional(),
  levels: z.object({ below: z.number().int(), at: z.number().int(), above: z.number().int() }).optional(),
  standards: z.array(standardLine).optional(),
};
export const commonReportSchema = z
  .object({
    commonAssessmentId: z.uuid(),
    title: z.string().describe("'' until a class was given it"),
    district: z.object(figures),
    schools: z.array(
      z.object({
        schoolId: z.string(),
        schoolName: z.string(),
        ...figures,
        classes: z.array(z.object({ classId: z.uuid(), className: z.string(), ...figures })),
      }),
    ),
  })
  .meta({ id: 'CommonAssessmentReport' });

const reportId = (id: string) => uuidOr(id, () => new NotFoundError('Common assessment not found'));
const idParams = z.object({ id: z.string().meta({ format: 'uuid' }) });

export function commonReportRouter(pool: pg.Pool): ApiRouter {
  /** The report of the caller's district (another district's copies are not read: an empty report). */
  async function report(caller: Caller, id: string) {
    const [title, classes, standards] = await Promise.all([
      commonTitle(pool, caller.tenantId, id),
      classFigures(pool, caller.tenantId, id),
      standardFigures(pool, caller.tenantId, id),
    ]);
    return commonReport(id, title, classes, standards);
  }

  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/common-assessments/:id/report',
        summary:
          "A common assessment's results by school, class and standard (the district admin); groups of fewer than 5 students suppressed",
        access: ADMINS,
        params: idParams,
        response: commonReportSchema,
        errors: [404],
      },
      ({ caller, params }) => report(caller, reportId(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/common-assessments/:id/report/export',
        summary:
          'The report as CSV: a line per district, school and class, and per standard of each; a suppressed group’s figures are empty cells',
        access: ADMINS,
        params: idParams,
        produces: ['text/csv'],
        errors: [404],
      },
      async ({ caller, params, res }) => {
        const csv = commonReportCsv(await report(caller, reportId(params.id)));
        sendCsv(res, 'checkpoint-common-assessment-report.csv', csv);
      },
    );
}
