// Migrations that must not run in a transaction (CREATE INDEX CONCURRENTLY, so that a large table
// keeps taking writes while its index builds), and replicas migrating the same schema at once.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, runMigrations } from '../src/index.ts';

let postgres: PostgresHandle;
let dir: string;
const pools: pg.Pool[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  dir = await mkdtemp(path.join(os.tmpdir(), 'migrations-test-'));
  await writeFile(
    path.join(dir, '001_items.sql'),
    'create table items (id int primary key, at timestamptz not null default now());\ninsert into items select generate_series(1, 50000);\n',
  );
  await writeFile(
    path.join(dir, '002_items_at_index.sql'),
    [
      '-- checkpoint:no-transaction',
      '-- Built without blocking writes.',
      'create index concurrently if not exists items_at_idx on items (at);',
      "comment on index items_at_idx is 'by age';",
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await rm(dir, { recursive: true, force: true });
  await postgres?.stop();
});

function pool(schema: string): pg.Pool {
  const created = createPool({ url: postgres.url, schema, max: 2, statementTimeoutMs: 20_000 });
  pools.push(created);
  return created;
}

async function indexValid(p: pg.Pool, schema: string): Promise<boolean | undefined> {
  const { rows } = await p.query<{ valid: boolean }>(
    `select i.indisvalid valid from pg_index i join pg_class c on c.oid = i.indexrelid
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = 'items_at_idx'`,
    [schema],
  );
  return rows[0]?.valid;
}

describe('runMigrations', () => {
  it('when a migration is marked no-transaction, then its statements run one by one and it is recorded once', async () => {
    const schema = `m_${randomUUID().slice(0, 8)}`;
    const p = pool(schema);
    await expect(runMigrations(p, { schema, dir })).resolves.toEqual(['001_items.sql', '002_items_at_index.sql']);
    await expect(runMigrations(p, { schema, dir })).resolves.toEqual([]);
    expect(await indexValid(p, schema)).toBe(true);
    // The connection went back with the pool's own settings.
    const { rows } = await p.query<{ path: string; timeout: string }>(
      "select current_setting('search_path') path, current_setting('statement_timeout') timeout",
    );
    expect(rows[0]).toEqual({ path: schema, timeout: '20s' });
  });

  it('when several replicas migrate the same schema at once, then each finishes (no replica waits on another holding the lock while its index builds)', async () => {
    const schema = `m_${randomUUID().slice(0, 8)}`;
    const results = await Promise.all([0, 1, 2].map(() => runMigrations(pool(schema), { schema, dir })));
    expect(results.flat().sort()).toEqual(['001_items.sql', '002_items_at_index.sql']);
    expect(await indexValid(pools.at(-1)!, schema)).toBe(true);
  }, 60_000);

  it('when an earlier concurrent build failed and left its index invalid, then the migration drops it and builds it', async () => {
    const schema = `m_${randomUUID().slice(0, 8)}`;
    const p = pool(schema);
    const firstOnly = await mkdtemp(path.join(os.tmpdir(), 'migrations-test-'));
    try {
      await writeFile(path.join(firstOnly, '001_items.sql'), await readFile(path.join(dir, '001_items.sql'), 'utf8'));
      await runMigrations(p, { schema, dir: firstOnly });
    } finally {
      await rm(firstOnly, { recursive: true, force: true });
    }
    // A build that fails half-way (here: a unique index over duplicates) leaves the name taken by an invalid index.
    await expect(p.query('create unique index concurrently items_at_idx on items ((1))')).rejects.toThrow(
      /could not create unique index/,
    );
    expect(await indexValid(p, schema)).toBe(false);
    await expect(runMigrations(p, { schema, dir })).resolves.toEqual(['002_items_at_index.sql']);
    expect(await indexValid(p, schema)).toBe(true);
  });

  it("when a package migration comes after the service's own, then a table the service made itself is kept and a service without one gets it", async () => {
    const queue = { version: 'pkg_queue', sql: 'create table if not exists queue (id int primary key, note text);' };
    const own = await mkdtemp(path.join(os.tmpdir(), 'migrations-test-'));
    const none = await mkdtemp(path.join(os.tmpdir(), 'migrations-test-'));
    try {
      // Not idempotent, as migrations written before the table was shared are.
      await writeFile(
        path.join(own, '001_queue.sql'),
        'create table queue (id int primary key, note text, extra int);',
      );
      const withOwn = `m_${randomUUID().slice(0, 8)}`;
      const p = pool(withOwn);
      expect(await runMigrations(p, { schema: withOwn, dir: own, sharedAfter: [queue] })).toEqual([
        '001_queue.sql',
        'pkg_queue',
      ]);
      const without = `m_${randomUUID().slice(0, 8)}`;
      expect(await runMigrations(pool(without), { schema: without, dir: none, sharedAfter: [queue] })).toEqual([
        'pkg_queue',
      ]);
      const columns = async (schema: string) =>
        (
          await p.query<{ column_name: string }>(
            `select column_name from information_schema.columns where table_schema = $1 and table_name = 'queue' order by ordinal_position`,
            [schema],
          )
        ).rows.map((r) => r.column_name);
      expect(await columns(withOwn)).toEqual(['id', 'note', 'extra']);
      expect(await columns(without)).toEqual(['id', 'note']);
    } finally {
      await rm(own, { recursive: true, force: true });
      await rm(none, { recursive: true, force: true });
    }
  });
});
