// A class's roster from its LMS course (NRPS, docs/adr/014-lti.md), for the class's teachers:
// GET /api/integrations/lti/classes/{classId}/roster (linked courses, last sync) and POST …/roster/sync.
import { ApiRouter } from '@checkpoint/service-kit';
import type { RosterSyncUseCases } from '../domain/roster-sync.use-case.ts';
import { rosterClassParams, rosterStatusSchema, rosterSyncSchema } from './roster-sync.schemas.ts';

const BASE = '/api/integrations/lti/classes/:classId/roster';

export function rosterSyncRouter(uc: RosterSyncUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: BASE,
        summary:
          "The LMS courses linked to one of the teacher's classes, whether their roster can be synced, and the last sync",
        access: ['teacher'],
        params: rosterClassParams,
        response: rosterStatusSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.status({ tenantId: caller.tenantId, userId: caller.userId }, params.classId),
    )
    .add(
      {
        method: 'post',
        path: `${BASE}/sync`,
        summary:
          "Sync the learners of the LMS course linked to one of the teacher's classes into it now (NRPS): who was added, kept or skipped and why",
        access: ['teacher'],
        params: rosterClassParams,
        response: rosterSyncSchema,
        errors: [404, 409, 422, 503],
      },
      ({ caller, params }) => uc.syncForTeacher({ tenantId: caller.tenantId, userId: caller.userId }, params.classId),
    );
}
