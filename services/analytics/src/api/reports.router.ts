// Reports (the Reports page, its timeframes and types): the report as JSON, and the same report as a
// CSV or PDF download.
import { ApiRouter } from '@checkpoint/service-kit';
import { scopeOf, TEACHERS } from '../domain/access.ts';
import type { AnalyticsUseCases } from '../domain/analytics.use-case.ts';
import { exportQuery, reportQuery, reportSchema } from './analytics.schemas.ts';
import { reportCsv, reportPdf } from './report-export.ts';

export function reportsRouter(uc: AnalyticsUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/reports',
        summary: 'A report over the caller’s classes (all, or classIds=a,b) for a timeframe, of one type',
        access: TEACHERS,
        query: reportQuery,
        response: reportSchema,
        errors: [404],
      },
      ({ caller, query }) => uc.report(scopeOf(caller), query),
    )
    .add(
      {
        method: 'get',
        path: '/api/reports/export',
        summary: 'The report as a file: format=csv (text/csv) or format=pdf (application/pdf)',
        access: TEACHERS,
        query: exportQuery,
        produces: ['text/csv', 'application/pdf'],
        errors: [404],
      },
      async ({ caller, query, res }) => {
        const { format, ...request } = query;
        const report = await uc.exportReport(scopeOf(caller), request, format);
        const name = `checkpoint-${report.type}-report-${report.timeframe}-${report.generatedAt.slice(0, 10)}.${format}`;
        res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
        res.setHeader('Cache-Control', 'no-store');
        if (format === 'csv') res.type('text/csv; charset=utf-8').send(reportCsv(report));
        else res.type('application/pdf').send(await reportPdf(report));
      },
    );
}
