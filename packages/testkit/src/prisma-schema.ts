// Prisma Migrate cannot run here (docs/adr/002-sql-migrations-with-prisma-client.md), so each service's SQL migrations are the truth
// and its test proves prisma/schema.prisma describes the same tables: columns, types, nullability,
// defaults, primary keys, unique keys and foreign keys.
import { readFile } from 'node:fs/promises';
import pg from 'pg';

interface Column {
  column: string;
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}
interface Table {
  columns: Column[];
  primaryKey: string[];
  uniques: string[][];
  foreignKeys: string[];
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Boolean: 'bool',
  DateTime: 'timestamp',
  Bytes: 'bytea',
  Json: 'jsonb',
  Float: 'float8',
};
const NATIVE_TYPES: Record<string, string> = {
  Uuid: 'uuid',
  Timestamptz: 'timestamptz',
  VarChar: 'varchar',
  Text: 'text',
};

/** A small reader for the subset of the Prisma schema language this service uses. */
/** `@default(uuid())` and the like are filled in by Prisma Client, not by the database. */
function hasDatabaseDefault(attrs: string): boolean {
  return /@default\(/.test(attrs) && !/@default\((uuid|cuid|nanoid|ulid)\(/.test(attrs);
}

export function readPrismaSchema(source: string): Map<string, Table> {
  const models = [...source.matchAll(/^model (\w+) \{\n([\s\S]*?)\n\}/gm)];
  const modelNames = new Set(models.map((m) => m[1]!));
  const tables = new Map<string, Table>();
  for (const [, name, body] of models) {
    const lines = body!
      .split('\n')
      .map((l) => l.replace(/\/\/.*$/, '').trim())
      .filter(Boolean);
    const columnOf = new Map<string, string>();
    const table: Table = { columns: [], primaryKey: [], uniques: [], foreignKeys: [] };
    let tableName = name!;
    const blockAttrs: string[] = [];
    for (const line of lines) {
      if (line.startsWith('@@')) {
        blockAttrs.push(line);
        continue;
      }
      const [field, rawType, ...rest] = line.split(/\s+/);
      const attrs = rest.join(' ');
      const baseType = rawType!.replace(/[?[\]]/g, '');
      if (modelNames.has(baseType)) {
        const rel = /fields: \[([^\]]+)\], references: \[([^\]]+)\](?:, onDelete: (\w+))?/.exec(attrs);
        if (rel) {
          const target =
            source.match(new RegExp(`model ${baseType} \\{[\\s\\S]*?@@map\\("(\\w+)"\\)`))?.[1] ?? baseType;
          table.foreignKeys.push(
            `(${rel[1]}) -> ${target}(${rel[2]}) on delete ${(rel[3] ?? 'NoAction').toLowerCase()}`,
          );
        }
        continue;
      }
      const column = /@map\("(\w+)"\)/.exec(attrs)?.[1] ?? field!;
      columnOf.set(field!, column);
      const native = /@db\.(\w+)/.exec(attrs)?.[1];
      // `Unsupported("tsvector")`: a column Prisma Client does not read, of the type named.
      const unsupported = /^Unsupported\("(\w+)"\)$/.exec(baseType)?.[1];
      let type = unsupported ?? (native ? NATIVE_TYPES[native]! : SCALAR_TYPES[baseType]!);
      if (rawType!.endsWith('[]')) type = `_${type}`;
      table.columns.push({ column, type, nullable: rawType!.endsWith('?'), hasDefault: hasDatabaseDefault(attrs) });
      if (/@id\b/.test(attrs)) table.primaryKey = [column];
      if (/@unique\b/.test(attrs)) table.uniques.push([column]);
    }
    const cols = (list: string) => list.split(',').map((f) => columnOf.get(f.trim()) ?? f.trim());
    for (const attr of blockAttrs) {
      const map = /^@@map\("(\w+)"\)/.exec(attr);
      if (map) tableName = map[1]!;
      const id = /^@@id\(\[([^\]]+)\]\)/.exec(attr);
      if (id) table.primaryKey = cols(id[1]!);
      const unique = /^@@unique\(\[([^\]]+)\]\)/.exec(attr);
      if (unique) table.uniques.push(cols(unique[1]!));
    }
    // Relation fields name Prisma fields; translate them to columns now that all are known.
    table.foreignKeys = table.foreignKeys.map((fk) =>
      fk.replace(/^\(([^)]+)\)/, (_, f: string) => `(${cols(f).join(',')})`),
    );
    tables.set(tableName, table);
  }
  return tables;
}

export async function readDatabase(client: pg.Client, schema: string): Promise<Map<string, Table>> {
  const tables = new Map<string, Table>();
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `select table_name, column_name, udt_name, is_nullable, column_default
       from information_schema.columns where table_schema = $1 and table_name <> 'schema_migrations'
      order by table_name, ordinal_position`,
    [schema],
  );
  for (const c of columns.rows) {
    const t = tables.get(c.table_name) ?? { columns: [], primaryKey: [], uniques: [], foreignKeys: [] };
    t.columns.push({
      column: c.column_name,
      type: c.udt_name,
      nullable: c.is_nullable === 'YES',
      hasDefault: c.column_default !== null,
    });
    tables.set(c.table_name, t);
  }
  const constraints = await client.query<{
    table_name: string;
    contype: string;
    columns: string[];
    target: string | null;
    target_columns: string[] | null;
    on_delete: string;
  }>(
    `select rel.relname as table_name, con.contype,
            array(select att.attname from unnest(con.conkey) with ordinality k(n, i)
                  join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.n order by k.i)::text[] as columns,
            frel.relname as target,
            case when con.confrelid <> 0 then array(select att.attname from unnest(con.confkey) with ordinality k(n, i)
                  join pg_attribute att on att.attrelid = con.confrelid and att.attnum = k.n order by k.i)::text[] end as target_columns,
            con.confdeltype as on_delete
       from pg_constraint con
       join pg_class rel on rel.oid = con.conrelid
       join pg_namespace ns on ns.oid = rel.relnamespace
       left join pg_class frel on frel.oid = con.confrelid
      where ns.nspname = $1 and con.contype in ('p', 'u', 'f') and rel.relname <> 'schema_migrations'`,
    [schema],
  );
  const onDelete: Record<string, string> = {
    a: 'noaction',
    r: 'restrict',
    c: 'cascade',
    n: 'setnull',
    d: 'setdefault',
  };
  for (const c of constraints.rows) {
    const t = tables.get(c.table_name)!;
    if (c.contype === 'p') t.primaryKey = c.columns;
    if (c.contype === 'u') t.uniques.push(c.columns);
    if (c.contype === 'f')
      t.foreignKeys.push(
        `(${c.columns.join(',')}) -> ${c.target}(${c.target_columns!.join(',')}) on delete ${onDelete[c.on_delete]}`,
      );
  }
  return tables;
}

export const normalizeSchema = (tables: Map<string, Table>) =>
  Object.fromEntries(
    [...tables.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => [
        name,
        {
          columns: [...t.columns].sort((a, b) => a.column.localeCompare(b.column)),
          primaryKey: t.primaryKey,
          uniques: t.uniques.map((u) => u.join(',')).sort(),
          foreignKeys: [...t.foreignKeys].sort(),
        },
      ]),
  );

/**
 * Both sides of the comparison, normalized: what `schemaFile` declares and what the database schema
 * `schema` at `databaseUrl` holds (the migrations' bookkeeping table aside).
 */
export async function compareSchemaWithDatabase(options: { schemaFile: string; databaseUrl: string; schema: string }) {
  const expected = normalizeSchema(readPrismaSchema(await readFile(options.schemaFile, 'utf8')));
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    return { expected, actual: normalizeSchema(await readDatabase(client, options.schema)) };
  } finally {
    await client.end();
  }
}
