// Reading the audit log: a district admin's view, filtered and paged by a keyset cursor.
import { auditTargetSpellings, ValidationError } from '@checkpoint/service-kit';
import type pg from 'pg';

export interface AuditFilter {
  actor?: string | undefined;
  target?: string | undefined;
  action?: 'read' | 'change' | 'export' | 'delete' | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface AuditEntry {
  id: string;
  at: string;
  actorId: string | null;
  actorName: string | null;
  actorRole: string;
  action: string;
  resource: string;
  targetIds: string[];
  requestId: string | null;
  clientAddress: string | null;
  service: string;
}

interface Row {
  id: string;
  at: Date;
  /** The time to the microsecond (the cursor's). */
  at_exact: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_role: string;
  action: string;
  resource: string;
  target_ids: string[];
  request_id: string | null;
  client_address: string | null;
  service: string;
}

function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
    if (!at || !id || !/^\d+$/.test(id) || Number.isNaN(Date.parse(at))) throw new Error('bad');
    return { at, id };
  } catch {
    throw new ValidationError('Invalid cursor', { cursor: 'Invalid cursor' });
  }
}

const encodeCursor = (row: Row) => Buffer.from(`${row.at_exact}|${row.id}`).toString('base64url');

/** Entries of the tenant, newest first; `limit` ≤ 100,000 (the CSV export). */
export async function listAudit(
  pool: pg.Pool,
  tenantId: string,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = filter.limit ?? 50;
  const where = ['a.tenant_id = $1::uuid'];
  const values: unknown[] = [tenantId];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    where.push(sql.replaceAll('?', `$${values.length}`));
  };
  if (filter.actor) add('a.actor_id = ?::uuid', filter.actor);
  // A UUID in any case finds its entries (kept in lower case): through the target_ids index.
  if (filter.target) add('a.target_ids && ?::text[]', auditTargetSpellings([filter.target]));
  if (filter.action) add('a.action = ?', filter.action);
  if (filter.from) add('a.at >= ?::timestamptz', filter.from);
  if (filter.to) add('a.at < ?::timestamptz', filter.to);
  if (filter.cursor) {
    const c = decodeCursor(filter.cursor);
    values.push(c.at, c.id);
    where.push(`(a.at, a.id) < ($${values.length - 1}::timestamptz, $${values.length}::bigint)`);
  }
  values.push(limit + 1);
  const { rows } = await pool.query<Row>(
    `select a.id::text as id, a.at, a.actor_id::text as actor_id,
            to_char(a.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at_exact,
            nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as actor_name,
            a.actor_role, a.action, a.resource, a.target_ids, a.request_id, a.client_address, a.service
       from audit_log a left join users u on u.id = a.actor_id
      where ${where.join(' and ')}
      order by a.at desc, a.id desc
      limit $${values.length}`,
    values,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actorId: r.actor_id,
      actorName: r.actor_name,
      actorRole: r.actor_role,
      action: r.action,
      resource: r.resource,
      targetIds: r.target_ids,
      requestId: r.request_id,
      clientAddress: r.client_address,
      service: r.service,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}
