// The district admin's figures (the Admin stats of GET /api/admin/stats: admins only).
import { ApiRouter } from '@checkpoint/service-kit';
import { ADMINS } from '../domain/access.ts';
import type { AnalyticsUseCases } from '../domain/analytics.use-case.ts';
import { adminStatsSchema } from './analytics.schemas.ts';

export function adminRouter(uc: AnalyticsUseCases): ApiRouter {
  return new ApiRouter().add(
    {
      method: 'get',
      path: '/api/admin/stats',
      summary: 'Figures of the admin’s district: people, classes, assessments, results and recent sign-ups',
      access: ADMINS,
      response: adminStatsSchema,
    },
    ({ caller }) => uc.adminStats(caller.tenantId),
  );
}
