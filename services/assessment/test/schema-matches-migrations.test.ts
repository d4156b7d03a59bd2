// Prisma Migrate cannot run here (docs/adr/002-sql-migrations-with-prisma-client.md): the SQL
// migrations are the truth, and this proves prisma/schema.prisma describes the same tables,
// columns, types, defaults and keys.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSchemaWithDatabase } from '@checkpoint/testkit';
import { startAssessmentService, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startAssessmentService();
});
afterAll(() => h?.stop());

describe('schema.prisma and the migrations', () => {
  it('when the migrations have run, then the database has exactly the tables, columns and keys of schema.prisma', async () => {
    const { expected, actual } = await compareSchemaWithDatabase({
      schemaFile: path.join(import.meta.dirname, '..', 'prisma', 'schema.prisma'),
      databaseUrl: h.serviceDbUrl,
      schema: 'assessment',
    });
    expect(Object.keys(expected).length).toBeGreaterThan(2);
    expect(actual).toEqual(expected);
  });
});
