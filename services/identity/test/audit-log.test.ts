// The audit log's ids in one spelling (docs/adr/009-privacy-operations.md), on real Postgres: a
// call may name a student in upper case; the entry keeps the id in lower case, the admin's query
// and the student's export find it in any case, the student's deletion leaves it nowhere, and
// migration 010 puts the entries written before in the same form (a deleted person's id as its
// pseudonym).
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sqlExecutor, subjectHash } from '@checkpoint/events';
import { migrateService, provisionServiceDatabase } from '@checkpoint/service-kit';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../src/domain/privacy/audit-log.ts';
import { privacyUseCases, recordAudit, type PrivacyActor } from '../src/domain/privacy/privacy.use-case.ts';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations');
const MIGRATION = '010_audit_target_ids_lower_case.sql';

let postgres: PostgresHandle;
let pool: pg.Pool;
let tenantId: string;
let admin: PrivacyActor;

async function person(role: string): Promise<string> {
  const id = randomUUID();
  await pool.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Pia', 'Private', $4)`,
    [id, tenantId, `${id}@audit.example.org`, role],
  );
  return id;
}

/** An entry as a writer before this change kept it: the targets exactly as the call named them. */
async function rawEntry(targetIds: string[], resource = 'DELETE /api/classes/{id}/students/{studentId}') {
  await pool.query(
    `insert into audit_log (tenant_id, actor_id, actor_role, action, resource, target_ids, service)
     values ($1, $2, 'teacher', 'change', $3, $4, 'class')`,
    [tenantId, admin.userId, resource, targetIds],
  );
}

const targetsOf = async (resource: string) =>
  (
    await pool.query<{ target_ids: string[] }>('select target_ids from audit_log where resource = $1 order by id', [
      resource,
    ])
  ).rows.map((r) => r.target_ids);

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await provisionServiceDatabase(postgres.url, 'identity');
  pool = new pg.Pool({ connectionString: url, options: '-c search_path=identity', max: 4 });
  pool.on('error', () => {});
  // The schema as it was before migration 010.
  const before = await mkdtemp(path.join(tmpdir(), 'identity-migrations-'));
  try {
    for (const file of await readdir(MIGRATIONS))
      if (file.endsWith('.sql') && file < MIGRATION)
        await copyFile(path.join(MIGRATIONS, file), path.join(before, file));
    await migrateService({ migrationsDir: before }, pool, 'identity');
  } finally {
    await rm(before, { recursive: true, force: true });
  }
  tenantId = randomUUID();
  await pool.query(`insert into tenants (id, name, kind) values ($1, 'Audit District', 'district')`, [tenantId]);
  admin = { userId: '', role: 'admin', tenantId };
  admin.userId = await person('admin');
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

describe('audit log ids', () => {
  it('when migration 010 runs, then the ids kept in upper case are in lower case, a deleted one its pseudonym', async () => {
    const classId = randomUUID();
    const student = await person('student');
    const gone = randomUUID();
    // A deletion request kept only the hash of the deleted person's id.
    await pool.query(
      `insert into privacy_requests (id, kind, tenant_id, subject_hash, expected_services)
       values ($1, 'delete_user', $2, $3, '{identity}')`,
      [randomUUID(), tenantId, subjectHash(gone)],
    );
    const resource = `GET /migration-${randomUUID()}`;
    await rawEntry([classId.toUpperCase(), student.toUpperCase()], resource);
    await rawEntry([classId, gone.toUpperCase(), 'not-an-ID'], resource);

    const later = (await readdir(MIGRATIONS)).filter((f) => f.endsWith('.sql') && f >= MIGRATION).sort();
    expect(await migrateService({ migrationsDir: MIGRATIONS }, pool, 'identity')).toEqual(later);
    expect(await targetsOf(resource)).toEqual([
      [classId, student],
      [classId, `erased:${subjectHash(gone).slice(0, 32)}`, 'not-an-ID'],
    ]);
    // Still append-only afterwards.
    await expect(pool.query('update audit_log set action = action')).rejects.toThrow(/append-only/);
  });

  it('when an entry names ids in upper case, then it is kept in lower case and the query finds it in any case', async () => {
    const classId = randomUUID();
    const student = await person('student');
    const resource = `DELETE /record-${randomUUID()}`;
    await recordAudit(sqlExecutor(pool), {
      tenantId,
      actorId: admin.userId,
      actorRole: 'teacher',
      action: 'change',
      resource,
      targetIds: [classId.toUpperCase(), student.toUpperCase(), 'Some-Name'],
      service: 'class',
    });
    expect(await targetsOf(resource)).toEqual([[classId, student, 'Some-Name']]);
    for (const target of [student, student.toUpperCase()]) {
      const { entries } = await listAudit(pool, tenantId, { target });
      expect(entries.map((e) => e.resource)).toEqual([resource]);
    }
    expect((await listAudit(pool, tenantId, { target: 'Some-Name' })).entries).toHaveLength(1);
    expect((await listAudit(pool, tenantId, { target: 'some-name' })).entries).toHaveLength(0);
  });

  it('when an older entry kept a student id in upper case, then the query, the export and the deletion all find it', async () => {
    const uc = privacyUseCases({ pool, source: 'identity' });
    const student = await person('student');
    const resource = `DELETE /older-${randomUUID()}`;
    await rawEntry([randomUUID(), student.toUpperCase()], resource);
    await rawEntry([student.slice(0, 9).toUpperCase() + student.slice(9)], resource);

    expect((await listAudit(pool, tenantId, { target: student })).entries).toHaveLength(1);

    // The export (asked with the id in upper case) holds every entry naming the student.
    const started = await uc.requestExport(admin, student.toUpperCase());
    const { rows } = await pool.query<{ json: string }>(
      `select json from privacy_request_answers where request_id = $1 and service = 'identity'`,
      [started.requestId],
    );
    const section = JSON.parse(rows[0]!.json) as { tables: Record<string, { resource: string }[]> };
    expect(section.tables.users).toHaveLength(1);
    expect(section.tables.audit_log?.filter((e) => e.resource === resource)).toHaveLength(2);

    // After the deletion no entry names the student, in any case; each names its pseudonym.
    await uc.deleteStudent(admin, student.toUpperCase());
    const left = await pool.query('select id from audit_log where strpos(lower(target_ids::text), $1) > 0', [student]);
    expect(left.rows).toEqual([]);
    const pseudonym = `erased:${subjectHash(student).slice(0, 32)}`;
    for (const targets of await targetsOf(resource)) expect(targets).toContain(pseudonym);

    // An entry arriving afterwards with the id in upper case is written as the pseudonym too.
    const late = `GET /late-${randomUUID()}`;
    await recordAudit(sqlExecutor(pool), {
      tenantId,
      actorId: admin.userId,
      actorRole: 'teacher',
      action: 'read',
      resource: late,
      targetIds: [student.toUpperCase()],
      service: 'class',
    });
    expect(await targetsOf(late)).toEqual([[pseudonym]]);
  });
});

describe('the audit log in names', () => {
  const entry = (e: Partial<Parameters<typeof recordAudit>[1]>) =>
    recordAudit(sqlExecutor(pool), {
      tenantId,
      actorId: admin.userId,
      actorRole: 'admin',
      action: 'change',
      resource: `POST /names-${randomUUID()}`,
      targetIds: [],
      ...e,
    });

  it('when entries name people, then each reads as who did what to whom, with the names of now, and ids nowhere', async () => {
    const student = await person('student');
    await pool.query(`update users set first_name = 'Ada', last_name = 'Lovelace' where id = $1`, [admin.userId]);
    await entry({ event: 'invitation.sent', details: { email: 'sam@district.org', role: 'teacher' } });
    await entry({ resource: 'POST /api/district/students/{id}/exports', action: 'export', targetIds: [student] });
    const { entries } = await listAudit(pool, tenantId, { limit: 2 });
    expect(entries.map((e) => e.summary)).toEqual([
      'Ada Lovelace exported the data of Pia Private',
      'Ada Lovelace invited sam@district.org as teacher',
    ]);
    expect(entries[1]).toMatchObject({
      event: 'invitation.sent',
      details: { email: 'sam@district.org', role: 'teacher' },
    });
    // Renamed later: read with the new name.
    await pool.query(`update users set last_name = 'King' where id = $1`, [student]);
    expect((await listAudit(pool, tenantId, { limit: 1 })).entries[0]!.summary).toBe(
      'Ada Lovelace exported the data of Pia King',
    );
  });

  it('when an entry names a person of another district, then their name is not shown: it reads as a deleted user', async () => {
    const elsewhere = randomUUID();
    await pool.query(`insert into tenants (id, name, kind) values ($1, 'Other District', 'district')`, [elsewhere]);
    const stranger = randomUUID();
    await pool.query(
      `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Otto', 'Outsider', 'student')`,
      [stranger, elsewhere, `${stranger}@audit.example.org`],
    );
    await entry({ resource: 'PATCH /api/district/users/{id}', targetIds: [stranger], actorId: stranger });
    const [e] = (await listAudit(pool, tenantId, { limit: 1 })).entries;
    expect(e!.summary).toBe('A deleted user changed the role of a deleted user');
    expect(JSON.stringify(e)).not.toContain('Otto');
    // And the other district's admin sees none of this district's entries.
    expect((await listAudit(pool, elsewhere, {})).entries).toEqual([]);
  });

  it('when the invited student is deleted, then the invitation entry keeps no address and reads as a deleted user', async () => {
    const uc = privacyUseCases({ pool, source: 'identity' });
    const student = await person('student');
    const email = `${student}@audit.example.org`;
    await entry({ event: 'invitation.sent', details: { email: email.toUpperCase(), role: 'student' } });
    await entry({
      event: 'invitation.accepted',
      actorId: student,
      actorRole: 'student',
      targetIds: [student],
      details: { role: 'student' },
    });
    expect((await listAudit(pool, tenantId, { person: email })).entries.map((e) => e.summary)).toEqual([
      'Pia Private accepted an invitation and joined as student',
      `Ada Lovelace invited ${email.toUpperCase()} as student`,
    ]);
    await uc.deleteStudent(admin, student);
    const left = await pool.query('select id from audit_log where strpos(lower(details::text), $1) > 0', [student]);
    expect(left.rows).toEqual([]);
    const summaries = (await listAudit(pool, tenantId, { limit: 3 })).entries.map((e) => e.summary);
    expect(summaries).toEqual([
      'Ada Lovelace deleted the account and data of a deleted user',
      'A deleted user accepted an invitation and joined as student',
      'Ada Lovelace invited a deleted user as student',
    ]);
  });
});
