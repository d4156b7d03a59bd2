// Reading the audit log: a district admin's view, filtered and paged by a keyset cursor. Entries
// keep ids and facts (machine-readable); names are looked up when the log is read, among the
// district's own people only, so a renamed person reads by their name of now and a deleted one
// as "a deleted user" (their id became its pseudonym, docs/adr/009-privacy-operations.md).
import { auditTargetSpellings, ValidationError } from '@checkpoint/service-kit';
import type pg from 'pg';

/** What the district's administration did, besides the audited routes' reads and changes. */
export const AUDIT_EVENTS = ['invitation.sent', 'invitation.accepted', 'invitation.revoked', 'roster.applied'] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

export interface AuditFilter {
  actor?: string | undefined;
  target?: string | undefined;
  /** A person, as actor or subject: a user id, or part of a name or an email address. */
  person?: string | undefined;
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
  event: string | null;
  details: Record<string, unknown>;
  /** Who did what to whom, in names ("Ada Lovelace invited sam@district.org as teacher"). */
  summary: string;
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
  event: string | null;
  details: Record<string, unknown> | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The most people a name or address filter stands for (a longer list asks for a closer filter). */
const PERSON_MATCHES = 200;
export const DELETED_USER = 'a deleted user';

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
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Entries of the tenant, newest first; `limit` ≤ 100,000 (the CSV export). */
export async function listAudit(
  pool: pg.Pool,
  tenantId: string,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = filter.limit ?? 50;
  const where = ['a.tenant_id = $1::uuid'];
  const values: unknown[] = [tenantId];
  const add = (sql: string, ...params: unknown[]) => {
    let text = sql;
    for (const p of params) {
      values.push(p);
      text = text.replace('?', `$${values.length}`);
    }
    where.push(text);
  };
  if (filter.actor) add('a.actor_id = ?::uuid', filter.actor);
  // A UUID in any case finds its entries (kept in lower case): through the target_ids index.
  if (filter.target) add('a.target_ids && ?::text[]', auditTargetSpellings([filter.target]));
  const person = filter.person?.trim();
  if (person) {
    const ids = UUID.test(person)
      ? [person.toLowerCase()]
      : (
          await pool.query<{ id: string }>(
            `select id::text as id from users
              where tenant_id = $1::uuid
                and (first_name || ' ' || last_name ilike $2 or email ilike $2)
              order by id limit ${PERSON_MATCHES}`,
            [tenantId, likePattern(person)],
          )
        ).rows.map((r) => r.id);
    // As the actor, as a subject, or as the address an invitation went to.
    add(
      "(a.actor_id = any(?::uuid[]) or a.target_ids && ?::text[] or a.details->>'email' ilike ?)",
      ids,
      auditTargetSpellings(ids),
      UUID.test(person) ? '' : likePattern(person),
    );
  }
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
            a.actor_role, a.action, a.resource, a.target_ids, a.request_id, a.client_address, a.service,
            a.event, a.details
       from audit_log a left join users u on u.id = a.actor_id and u.tenant_id = a.tenant_id
      where ${where.join(' and ')}
      order by a.at desc, a.id desc
      limit $${values.length}`,
    values,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const names = await namesOf(pool, tenantId, page);
  return {
    entries: page.map((r) => {
      const details = r.details ?? {};
      return {
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
        event: r.event,
        details,
        summary: sentence(summarize(r, details, names)),
      };
    }),
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

/** The district's people that the page's entries name (targets), by id in lower case. */
async function namesOf(pool: pg.Pool, tenantId: string, rows: Row[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => r.target_ids).filter((t) => UUID.test(t)))].map((t) => t.toLowerCase());
  if (ids.length === 0) return new Map();
  const found = await pool.query<{ id: string; name: string }>(
    `select id::text as id, coalesce(nullif(trim(first_name || ' ' || last_name), ''), email) as name
       from users where tenant_id = $1::uuid and id = any($2::uuid[])`,
    [tenantId, ids],
  );
  return new Map(found.rows.map((r) => [r.id, r.name]));
}

type Names = Map<string, string>;

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A sentence in names: who did what to whom. Ids never appear in it. */
function summarize(row: Row, details: Record<string, unknown>, names: Names): string {
  const actor =
    row.actor_name ??
    (row.actor_id
      ? DELETED_USER
      : row.actor_role === 'system' || row.actor_role === 'operator'
        ? 'The system'
        : DELETED_USER);
  const person = (i: number) => {
    const t = row.target_ids[i];
    if (!t) return 'someone';
    if (t.startsWith('erased:')) return DELETED_USER;
    return names.get(t.toLowerCase()) ?? DELETED_USER;
  };
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const email = text(details.email) ?? (details.emailErased ? DELETED_USER : 'someone');
  const role = text(details.role) ?? 'a member';
  switch (row.event) {
    case 'invitation.sent':
      return `${actor} invited ${email} as ${role}`;
    case 'invitation.accepted':
      return `${person(0)} accepted an invitation and joined as ${role}`;
    case 'invitation.revoked':
      return `${actor} revoked the invitation of ${email} as ${role}`;
    case 'roster.applied':
      return `${actor} applied a roster import${rosterFigures(details.counts)}`;
  }
  if (row.resource === 'PUT /api/district/privacy') {
    const days = details.retentionDays;
    if (typeof days === 'number') return `${actor} set student activity to be kept ${days} days`;
    if (days === null) return `${actor} set student activity to be kept until deleted`;
    return `${actor} changed how long student activity is kept`;
  }
  const phrase = ROUTE_PHRASES[row.resource];
  if (phrase) return `${actor} ${phrase(person)}`;
  const verb = { read: 'read', change: 'changed', export: 'exported', delete: 'deleted' }[row.action] ?? row.action;
  return `${actor} ${verb} student data`;
}

/** What each audited route did, in words (the routes' lists: each service's AuditedRoute list). */
const ROUTE_PHRASES: Record<string, (person: (i: number) => string) => string> = {
  'GET /api/district/users': () => "viewed the district's users",
  'PATCH /api/district/users/{id}': (p) => `changed the role of ${p(0)}`,
  'DELETE /api/district/users/{id}': (p) => `removed ${p(0)} from the district`,
  'PUT /api/district/students/{id}/sign-in': (p) => `set the sign-in picture or words of ${p(0)}`,
  'POST /api/district/students/{id}/exports': (p) => `exported the data of ${p(0)}`,
  'DELETE /api/district/students/{id}': (p) => `deleted the account and data of ${p(0)}`,
  'GET /api/classes/{id}/students': () => "viewed a class's students",
  'DELETE /api/classes/{id}/students/{studentId}': (p) => `removed ${p(1)} from a class`,
  'GET /api/classes/{id}/results': () => "viewed a class's results",
  'GET /api/classes/{id}/grid': () => "viewed a class's results grid",
  'GET /api/assessments/{id}/results': () => "viewed an assessment's results",
  'GET /api/assessments/{id}/responses': () => 'viewed the answers to an assessment',
  'GET /api/results/{id}': () => "viewed a student's result",
  'GET /api/all-results': () => 'viewed results',
  'GET /api/dashboard/students': () => 'viewed All Students',
  'GET /api/reports': () => 'viewed reports',
  'GET /api/reports/export': () => 'exported a report',
};

/** ": 3 new users, 1 updated user, 1 class" from an import's counts; '' when there are none. */
function rosterFigures(counts: unknown): string {
  if (!counts || typeof counts !== 'object') return '';
  const c = counts as Record<string, Record<string, number> | undefined>;
  const n = (file: string, key: string) => Number(c[file]?.[key] ?? 0);
  const part = (count: number, one: string, many: string) => (count ? [`${count} ${count === 1 ? one : many}`] : []);
  const parts = [
    ...part(n('users', 'new'), 'new user', 'new users'),
    ...part(n('users', 'updated'), 'updated user', 'updated users'),
    ...part(n('users', 'deleted'), 'user removed', 'users removed'),
    ...part(n('classes', 'new'), 'new class', 'new classes'),
    ...part(n('classes', 'updated'), 'updated class', 'updated classes'),
    ...part(n('classes', 'deleted'), 'class archived', 'classes archived'),
    ...part(n('enrollments', 'new'), 'enrollment added', 'enrollments added'),
    ...part(n('enrollments', 'deleted'), 'enrollment removed', 'enrollments removed'),
  ];
  return parts.length ? `: ${parts.join(', ')}` : ' (nothing to change)';
}
