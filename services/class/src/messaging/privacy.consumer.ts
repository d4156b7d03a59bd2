// The class service's part in privacy operations (docs/adr/009): a student's memberships, people
// copy and per-class results go with the generic sweep; the classes' level counts are then
// recounted from the results that remain.
import type { SqlExecutor } from '@checkpoint/events';
import type { AuditedRoute, PrivacyParticipant } from '@checkpoint/service-kit';

async function recountLevels(tx: SqlExecutor, classIds: string[]): Promise<void> {
  if (classIds.length === 0) return;
  await tx.$executeRawUnsafe(
    `update classes c
        set below_standard = coalesce(l.below, 0), at_standard = coalesce(l.at, 0), above_standard = coalesce(l.above, 0)
       from (select k.id,
                    count(*) filter (where latest.level = 'below')::int as below,
                    count(*) filter (where latest.level = 'at')::int as at,
                    count(*) filter (where latest.level = 'above')::int as above
               from unnest($1::uuid[]) as k(id)
               left join lateral (select distinct on (student_id) level from class_results
                                   where class_id = k.id
                                   order by student_id, submitted_at desc, result_id desc) latest on true
              group by k.id) l
      where c.id = l.id`,
    classIds,
  );
}

export const classPrivacy: PrivacyParticipant = {
  service: 'class',
  async beforeEraseUser(tx, userId) {
    const rows = await tx.$queryRawUnsafe<{ class_id: string }[]>(
      'select distinct class_id::text as class_id from class_results where student_id = $1::uuid',
      userId,
    );
    return {
      after: () =>
        recountLevels(
          tx,
          rows.map((r) => r.class_id),
        ),
    };
  },
  async retention(tx, tenantId, cutoff) {
    const classes = await tx.$queryRawUnsafe<{ class_id: string }[]>(
      `select distinct r.class_id::text as class_id from class_results r join classes c on c.id = r.class_id
        where c.tenant_id = $1::uuid and r.submitted_at < $2::timestamptz`,
      tenantId,
      cutoff,
    );
    const n = await tx.$executeRawUnsafe(
      `delete from class_results r using classes c
        where c.id = r.class_id and c.tenant_id = $1::uuid and r.submitted_at < $2::timestamptz`,
      tenantId,
      cutoff,
    );
    await recountLevels(
      tx,
      classes.map((c) => c.class_id),
    );
    return n;
  },
};

/** Teachers' and admins' reads and changes of a class's students (audited in identity). */
export const classAuditedRoutes: AuditedRoute[] = [
  // Filed under each member too, so a search by the student finds who read the list.
  {
    method: 'GET',
    path: '/api/classes/:id/students',
    action: 'read',
    subjectsSql: 'select student_id::text as id from memberships where class_id = $1::uuid',
  },
  { method: 'DELETE', path: '/api/classes/:id/students/:studentId', action: 'change' },
];
