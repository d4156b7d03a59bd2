// Migrations are hand-written SQL (Prisma Migrate's engine cannot be downloaded here): this test
// proves the migrated database and prisma/schema.prisma describe the same tables and columns.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

interface Column {
  type: string;
  nullable: boolean;
}

const SCALARS: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Boolean: 'bool',
  DateTime: 'timestamptz',
  Json: 'jsonb',
  Bytes: 'bytea',
};
const NATIVE: Record<string, string> = { Uuid: 'uuid', VarChar: 'varchar', Text: 'text', Timestamptz: 'timestamptz' };

/** Tables → columns → (Postgres udt name, nullable) as schema.prisma declares them. */
function parsePrismaSchema(source: string): Record<string, Record<string, Column>> {
  const models = [...source.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(models.map((m) => m[1]));
  const tables: Record<string, Record<string, Column>> = {};
  for (const [, name, body] of models) {
    const columns: Record<string, Column> = {};
    let table = name!;
    for (const raw of body!.split('\n')) {
      const line = raw.trim();
      const map = /^@@map\("([^"]+)"\)/.exec(line);
      if (map) table = map[1]!;
      const field = /^(\w+)\s+(\w+)(\[\]|\?)?(.*)$/.exec(line);
      if (!field || line.startsWith('//') || line.startsWith('@@')) continue;
      const [, fieldName, type, modifier, attrs] = field as unknown as [
        string,
        string,
        string,
        string | undefined,
        string,
      ];
      if (modelNames.has(type)) continue; // relation field
      const column = /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? fieldName;
      const native = /@db\.(\w+)/.exec(attrs)?.[1];
      let udt = (native && NATIVE[native]) ?? SCALARS[type] ?? `unknown:${type}`;
      if (modifier === '[]') udt = `_${udt}`;
      columns[column] = { type: udt, nullable: modifier === '?' };
    }
    tables[table] = columns;
  }
  return tables;
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

describe('database schema', () => {
  it('when the migrations have run, then every table and column matches schema.prisma', async () => {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'prisma', 'schema.prisma');
    const expected = parsePrismaSchema(await readFile(file, 'utf8'));
    const { rows } = await h.db.query<{
      table_name: string;
      column_name: string;
      udt_name: string;
      is_nullable: string;
    }>(
      `select table_name, column_name, udt_name, is_nullable from information_schema.columns
        where table_schema = 'identity' and table_name <> 'schema_migrations' order by table_name, ordinal_position`,
    );
    const actual: Record<string, Record<string, Column>> = {};
    for (const r of rows)
      (actual[r.table_name] ??= {})[r.column_name] = { type: r.udt_name, nullable: r.is_nullable === 'YES' };
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    expect(actual).toEqual(expected);
  });
});
