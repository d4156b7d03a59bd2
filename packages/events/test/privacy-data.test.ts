// The generic export and erasure of a subject over one schema (privacy-data.ts), on real Postgres:
// rows about the subject and their children are found and deleted (children first, foreign keys
// respected), rows that only mention the id keep their content with the id scrubbed, outbox rows
// naming the id are deleted or leave right after publishing, and a tombstone goes out as one.
import { randomUUID } from 'node:crypto';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectSubjectRows,
  create,
  enqueueEvent,
  enqueueTombstone,
  eraseSubjects,
  erasedPseudonym,
  exportDocument,
  InProcessBus,
  inboxConsumer,
  OutboxRelay,
  splitText,
  sqlExecutor,
  UserDeletedSchema,
  UserRegisteredSchema,
  type BusMessage,
} from '../src/index.ts';
import { createServiceSchema, pgRunner, schemaPool } from './helpers.ts';

let postgres: PostgresHandle;
let pool: pg.Pool;
const SCHEMA = 'privacy_test';
const student = randomUUID();
const other = randomUUID();
const tenant = randomUUID();
const resultA = randomUUID();
const resultB = randomUUID();

beforeAll(async () => {
  postgres = await startPostgres();
  await createServiceSchema(postgres.url, SCHEMA);
  pool = schemaPool(postgres.url, SCHEMA);
  await pool.query(`
    create table people (user_id uuid primary key, tenant_id uuid not null, name text not null);
    create table results (id uuid primary key, student_id uuid not null, tenant_id uuid not null, score int not null);
    -- No cascade: the erasure must delete the answers before their result.
    create table result_answers (result_id uuid not null references results (id), answer text not null);
    create table imports (id uuid primary key, tenant_id uuid not null, plan jsonb not null);
    create table roster (id uuid primary key, students uuid[] not null);
    create table rate_limits (key varchar(255) primary key, points int not null default 0);
    create table credentials (user_id uuid primary key, password_hash text not null);
  `);
  await pool.query(
    `insert into people values ($1, $3, 'Pia'), ($2, $3, 'Carl');
     insert into results values ($4, $1, $3, 40), ($5, $2, $3, 90);
     insert into result_answers values ($4, 'wrong'), ($5, 'right');
     insert into imports values (gen_random_uuid(), $3, jsonb_build_object('users', jsonb_build_array($1::text, $2::text)));
     insert into roster values (gen_random_uuid(), array[$1::uuid, $2::uuid]);
     insert into rate_limits values ('join:' || $1, 1), ('join:' || $2, 1);
     insert into credentials values ($1, 'argon2-secret');`.replaceAll(
      /\$(\d)/g,
      (_m, n: string) => `'${[student, other, tenant, resultA, resultB][Number(n) - 1]}'`,
    ),
  );
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

async function whereFound(id: string): Promise<string[]> {
  const { rows } = await pool.query<{ t: string; c: string; type: string }>(
    `select table_name as t, column_name as c, data_type as type from information_schema.columns where table_schema = $1`,
    [SCHEMA],
  );
  const hits: string[] = [];
  for (const r of rows) {
    const test =
      r.type === 'bytea' ? `position(convert_to($1, 'UTF8') in "${r.c}") > 0` : `strpos("${r.c}"::text, $1) > 0`;
    const { rows: n } = await pool.query(`select count(*)::int as n from "${r.t}" where ${test}`, [id]);
    if (n[0].n > 0) hits.push(`${r.t}.${r.c}`);
  }
  return hits;
}

describe('privacy data of one schema', () => {
  it('when a student is exported, then their rows, their results’ children and the mentions are in it, secrets and others not', async () => {
    const doc = exportDocument(await collectSubjectRows(sqlExecutor(pool), [student]));
    expect(doc.tables.people).toEqual([{ user_id: student, tenant_id: tenant, name: 'Pia' }]);
    expect(doc.tables.results!.map((r) => r.id)).toEqual([resultA]);
    expect(doc.tables.result_answers).toEqual([{ result_id: resultA, answer: 'wrong' }]);
    expect(doc.tables.imports).toHaveLength(1);
    expect(doc.tables.credentials).toEqual([{ user_id: student }]);
    expect(JSON.stringify(doc)).not.toContain(resultB);
    expect(JSON.stringify(doc)).not.toContain('argon2');
  });

  it('when events are large, then the relay sends them in batches below maxBatchBytes, in order', async () => {
    const db = pgRunner(pool);
    const big = 'x'.repeat(400_000);
    for (const n of [1, 2, 3])
      await enqueueEvent(db, {
        source: 'test',
        schema: UserRegisteredSchema,
        message: create(UserRegisteredSchema, { userId: `big-${n}`, tenantId: tenant, email: big }),
        key: 'big',
        tenantId: tenant,
      });
    const batches: string[][] = [];
    const bus = new InProcessBus();
    bus.publish = async (messages) => void batches.push(messages.map((m) => m.key + m.value.length));
    const relay = new OutboxRelay({ pool, bus, maxBatchBytes: 900_000 });
    expect(await relay.publishBatch()).toBe(2);
    expect(await relay.publishBatch()).toBe(1);
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    await pool.query("delete from outbox where key = 'big'");
  });

  it('when a long export is split, then the parts are small and join to the text', () => {
    const text = 'é'.repeat(300_000);
    const parts = splitText(text, 100_000);
    expect(parts.every((p) => Buffer.byteLength(p) <= 100_000)).toBe(true);
    expect(parts.join('')).toBe(text);
  });

  it('when a student is erased, then their id is in no table, mentions are scrubbed, the outbox forgets them, others stay', async () => {
    const db = pgRunner(pool);
    // Events naming the student: one already published, one not yet; and one of the other student.
    const published = await enqueueEvent(db, {
      source: 'test',
      schema: UserRegisteredSchema,
      message: create(UserRegisteredSchema, { userId: student, tenantId: tenant }),
      key: student,
      tenantId: tenant,
    });
    await pool.query('update outbox set published_at = now() where id = $1', [published]);
    await enqueueEvent(db, {
      source: 'test',
      schema: UserRegisteredSchema,
      message: create(UserRegisteredSchema, { userId: other, tenantId: tenant, firstName: student }),
      key: other,
      tenantId: tenant,
    });
    await db.$transaction(async (tx) => {
      await eraseSubjects(tx, [student]);
      await enqueueTombstone(tx, { schema: UserDeletedSchema, key: student, tenantId: tenant });
    });

    const { rows: plan } = await pool.query('select plan from imports');
    expect(plan[0].plan.users).toEqual([erasedPseudonym(student), other]);
    expect((await pool.query('select students from roster')).rows[0].students).toEqual([other]);
    expect((await pool.query('select key from rate_limits order by key')).rows.map((r) => r.key)).toContain(
      `join:${other}`,
    );
    expect((await pool.query('select name from people')).rows).toEqual([{ name: 'Carl' }]);
    expect((await pool.query('select count(*)::int as n from result_answers')).rows[0].n).toBe(1);

    // The relay publishes what is left (the other student's event, the tombstone) and deletes the
    // rows marked for erasure right away.
    const bus = new InProcessBus();
    const seen: BusMessage[] = [];
    const handled: string[] = [];
    const inbox = inboxConsumer(pgRunner(pool), 'g', {
      'checkpoint.identity.v1.UserRegistered': async (_tx, m) => void handled.push(m.userId),
    });
    await bus.subscribe({
      groupId: 'g',
      topics: ['checkpoint.identity.v1'],
      handler: async (m) => {
        seen.push(m);
        await inbox.handler(m);
      },
    });
    const relay = new OutboxRelay({ pool, bus });
    expect(await relay.publishBatch()).toBe(2);
    expect(seen.map((m) => m.tombstone ?? false)).toEqual([false, true]);
    expect(seen[1]!.key).toBe(student);
    expect(handled).toEqual([other]);
    expect(await whereFound(student)).toEqual([]);
    expect(await whereFound(other)).not.toEqual([]);
  });
});
