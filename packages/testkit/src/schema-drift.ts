// The schema-drift tests of the services: what their migrations create, compared with what is
// declared elsewhere. Prisma Migrate cannot run here (docs/adr/002-sql-migrations-with-prisma-client.md):
// the SQL migrations are the truth. A service's test file only names the service.
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outgoingMailSchemaSql } from '@checkpoint/mail';
import { ident, migrateService, provisionServiceDatabase, type ServiceDefinition } from '@checkpoint/service-kit';
import { startPostgres, type PostgresHandle } from './postgres.ts';
import { compareSchemaWithDatabase, normalizeSchema, readDatabase } from './prisma-schema.ts';

type Migratable = Pick<ServiceDefinition, 'name' | 'migrationsDir' | 'packageMigrations'>;

/** A fresh database with the service's migrations run (without starting the service), for one test file. */
function migratedDatabase(service: Migratable): { url: () => string; adminUrl: () => string } {
  let postgres: PostgresHandle | undefined;
  let url = '';
  beforeAll(async () => {
    postgres = await startPostgres();
    url = await provisionServiceDatabase(postgres.url, service.name);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await migrateService(service, pool, service.name);
    } finally {
      await pool.end();
    }
  });
  afterAll(() => postgres?.stop());
  return { url: () => url, adminUrl: () => postgres!.url };
}

/** The service's prisma/schema.prisma (beside its migrations/) describes the same tables, columns, types, defaults and keys. */
export function describeSchemaMatchesMigrations(
  service: Migratable,
  /** Fewer tables than this means the comparison read the wrong place. */
  options: { minTables: number },
): void {
  const db = migratedDatabase(service);
  describe('schema.prisma and the migrations', () => {
    it('when the migrations have run, then the database has exactly the tables, columns and keys of schema.prisma', async () => {
      const { expected, actual } = await compareSchemaWithDatabase({
        schemaFile: path.join(service.migrationsDir, '..', 'prisma', 'schema.prisma'),
        databaseUrl: db.url(),
        schema: service.name,
      });
      expect(Object.keys(expected).length).toBeGreaterThan(options.minTables);
      expect(actual).toEqual(expected);
    });
  });
}

/** The service's outgoing_mail is the table @checkpoint/mail defines (outgoingMailSchemaSql). */
export function describeMailQueueTable(service: Migratable): void {
  const db = migratedDatabase(service);
  const tableIn = async (client: pg.Client, schema: string) => {
    const table = normalizeSchema(await readDatabase(client, schema)).outgoing_mail;
    const { rows } = await client.query<{ indexname: string; indexdef: string }>(
      // The definition without the schema's name (`ON identity.outgoing_mail` → `ON outgoing_mail`).
      `select indexname, regexp_replace(indexdef, ' ON \\S+\\.', ' ON ') as indexdef from pg_indexes
        where schemaname = $1 and tablename = 'outgoing_mail' order by indexname`,
      [schema],
    );
    return { table, indexes: rows };
  };
  describe('the mail queue table', () => {
    it('when the migrations have run, then outgoing_mail has exactly the columns, keys and indexes @checkpoint/mail defines', async () => {
      // The service's role may not create schemas: the scratch one is made as the admin.
      const client = new pg.Client({ connectionString: db.adminUrl() });
      await client.connect();
      const scratch = `mail_queue_${service.name}`;
      try {
        await client.query(`create schema ${ident(scratch)}`);
        await client.query(`set search_path to ${ident(scratch)}`);
        await client.query(outgoingMailSchemaSql);
        const expected = await tableIn(client, scratch);
        expect(expected.table).toBeDefined();
        expect(await tableIn(client, service.name)).toEqual(expected);
      } finally {
        await client.query(`drop schema if exists ${ident(scratch)} cascade`).catch(() => {});
        await client.end();
      }
    });
  });
}
