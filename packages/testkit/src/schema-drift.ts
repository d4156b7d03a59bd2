// The schema-drift test of every service with a Prisma schema. Prisma Migrate cannot run here
// (docs/adr/002-sql-migrations-with-prisma-client.md): the SQL migrations are the truth, and this
// proves the service's prisma/schema.prisma (beside its migrations/) describes the same tables,
// columns, types, defaults and keys. A service's test file only names the service.
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateService, provisionServiceDatabase, type ServiceDefinition } from '@checkpoint/service-kit';
import { startPostgres, type PostgresHandle } from './postgres.ts';
import { compareSchemaWithDatabase } from './prisma-schema.ts';

export function describeSchemaMatchesMigrations(
  service: Pick<ServiceDefinition, 'name' | 'migrationsDir'>,
  /** Fewer tables than this means the comparison read the wrong place. */
  options: { minTables: number },
): void {
  let postgres: PostgresHandle | undefined;
  let databaseUrl = '';
  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await provisionServiceDatabase(postgres.url, service.name);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await migrateService(service, pool, service.name);
    } finally {
      await pool.end();
    }
  });
  afterAll(() => postgres?.stop());

  describe('schema.prisma and the migrations', () => {
    it('when the migrations have run, then the database has exactly the tables, columns and keys of schema.prisma', async () => {
      const { expected, actual } = await compareSchemaWithDatabase({
        schemaFile: path.join(service.migrationsDir, '..', 'prisma', 'schema.prisma'),
        databaseUrl,
        schema: service.name,
      });
      expect(Object.keys(expected).length).toBeGreaterThan(options.minTables);
      expect(actual).toEqual(expected);
    });
  });
}
