// Teacher dashboard data beyond the results calls: All Students, the usage panel, and the live stream.
import { ApiRouter } from '@checkpoint/service-kit';
import { scopeOf, TEACHERS } from '../domain/access.ts';
import type { AnalyticsUseCases } from '../domain/analytics.use-case.ts';
import { liveQuery, studentsOverviewSchema, studentsQuery, usageSchema } from './analytics.schemas.ts';
import type { LiveResults } from './live-results.ts';

export function dashboardRouter(uc: AnalyticsUseCases, live: LiveResults): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/dashboard/students',
        summary: 'All Students: figures over every student in scope and one page of student cards',
        access: TEACHERS,
        query: studentsQuery,
        response: studentsOverviewSchema,
        errors: [404],
      },
      ({ caller, query }) => uc.students(scopeOf(caller), { ...query, search: query.search || undefined }),
    )
    .add(
      {
        method: 'get',
        path: '/api/dashboard/usage',
        summary: 'Classes, students and assessments the caller has (the Subscription usage panel)',
        access: TEACHERS,
        response: usageSchema,
      },
      ({ caller }) => uc.usage(caller.tenantId, caller.userId),
    )
    .add(
      {
        method: 'get',
        path: '/api/dashboard/live',
        summary:
          'Server-sent events of one class (or several, as `classId=a,b`): `result` with {classId, assessmentId, resultId} whenever a result of one of them is stored or changes',
        access: TEACHERS,
        query: liveQuery,
        produces: ['text/event-stream'],
        // 429: this user already holds LIVE_MAX_STREAMS_PER_USER streams in this process.
        errors: [404, 429, 503],
      },
      async ({ caller, query, req, res }) => {
        await uc.requireClasses(scopeOf(caller), query.classId);
        live.subscribe(query.classId, caller.userId, req, res);
      },
    );
}
