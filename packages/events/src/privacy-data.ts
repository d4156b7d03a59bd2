// Privacy operations over one service's schema (docs/adr/009-privacy-operations.md): finding every
// row that names a person or a tenant, exporting those rows, and deleting them. Generic on purpose:
// it reads the schema from the catalog, so a table added later is covered without anyone
// remembering to list it here.
//
// "Rows about a subject": every row with the subject's id in a uuid, uuid[]/text[] column, inside a
// text column or a json(b) value; then, as a closure, every row naming the primary key (a single
// uuid column) of a row already found: a result's answers, a class's memberships, a tenant's users'
// sessions. Runs inside the caller's transaction (SqlExecutor: a Prisma transaction or pg).
import { createHash } from 'node:crypto';
import type { SqlExecutor } from './db.ts';
import { markOutboxForErasure } from './outbox.ts';

/** Tables never exported nor swept: the event plumbing (handled by markOutboxForErasure) and migrations. */
export const PRIVACY_SKIPPED_TABLES = ['outbox', 'inbox', 'schema_migrations'];

/** Columns an export leaves out (secrets, not facts about the student). */
const REDACTED = /hash|secret|csrf|token|password|private|verifier|nonce/i;

/** At most this many closure rounds (ids found in rows found). */
const MAX_ROUNDS = 8;

interface Column {
  table: string;
  column: string;
  type: 'uuid' | 'text' | 'uuid[]' | 'text[]' | 'json';
  /** The SQL type name (json or jsonb, for casting back). */
  udt: string;
}

export interface FoundRow {
  ctid: string;
  row: Record<string, unknown>;
  /**
   * True when an id is the value of a uuid/text column or an array element: the row is about the
   * subject and is deleted. False when an id only appears inside a longer text or a json value (a
   * roster import's plan, a mail): the row is someone else's record and only the id is scrubbed.
   */
  direct: boolean;
}

export interface FoundRows {
  /** Rows per table, in the order found (as JSON objects). */
  tables: Map<string, FoundRow[]>;
  /** The text, json and array columns of each table (for scrubbing). */
  textColumns: Map<string, Column[]>;
  count: number;
}

export interface CollectOptions {
  /** More tables to leave out (e.g. identity's audit log, handled on its own). */
  skip?: string[];
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function schemaColumns(tx: SqlExecutor, skip: string[]): Promise<Column[]> {
  const rows = await tx.$queryRawUnsafe<{ table: string; column: string; data_type: string; udt_name: string }[]>(
    `select c.table_name as table, c.column_name as column, c.data_type, c.udt_name
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
  );
  const skipped = new Set([...PRIVACY_SKIPPED_TABLES, ...skip]);
  const columns: Column[] = [];
  for (const r of rows) {
    if (skipped.has(r.table)) continue;
    const type =
      r.udt_name === 'uuid'
        ? 'uuid'
        : r.udt_name === 'text' || r.udt_name === 'varchar' || r.udt_name === 'bpchar'
          ? 'text'
          : r.udt_name === '_uuid'
            ? 'uuid[]'
            : r.udt_name === '_text' || r.udt_name === '_varchar'
              ? 'text[]'
              : r.udt_name === 'jsonb' || r.udt_name === 'json'
                ? 'json'
                : undefined;
    if (type) columns.push({ table: r.table, column: r.column, type, udt: r.udt_name });
  }
  return columns;
}

/** Tables whose primary key is one uuid column: their ids feed the closure. */
async function uuidPrimaryKeys(tx: SqlExecutor): Promise<Map<string, string>> {
  const rows = await tx.$queryRawUnsafe<{ table: string; column: string }[]>(
    `select c.relname as table, a.attname as column
       from pg_index i
       join pg_class c on c.oid = i.indrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum = i.indkey[0]
      where i.indisprimary and i.indnatts = 1 and n.nspname = current_schema()
        and format_type(a.atttypid, a.atttypmod) = 'uuid'`,
  );
  return new Map(rows.map((r) => [r.table, r.column]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function exact(column: Column): string | undefined {
  const c = ident(column.column);
  if (column.type === 'uuid') return `${c} = any($2::uuid[])`;
  if (column.type === 'text') return `${c} = any($1::text[])`;
  // An array naming the subject (a roster class's students) is someone else's record: scrubbed.
  return undefined;
}

/** Above this many ids, texts are searched for uuid-shaped words (one pass) rather than each id. */
const MANY_IDS = 50;
const UUID_WORD = `'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'`;

function predicate(column: Column, many: boolean): string {
  const c = ident(column.column);
  if (many && (column.type === 'text' || column.type === 'json' || column.type === 'text[]')) {
    const text = column.type === 'text' ? c : `${c}::text`;
    return `exists (select 1 from regexp_matches(${text}, ${UUID_WORD}, 'g') as m where lower(m[1]) = any($1::text[]))`;
  }
  switch (column.type) {
    case 'uuid':
      return `${c} = any($2::uuid[])`;
    case 'uuid[]':
      return `${c} && $2::uuid[]`;
    case 'text[]':
      return `exists (select 1 from unnest(${c}) as v(x), unnest($1::text[]) as s(id) where strpos(v.x, s.id) > 0)`;
    case 'text':
      return `exists (select 1 from unnest($1::text[]) as s(id) where strpos(${c}, s.id) > 0)`;
    case 'json':
      return `exists (select 1 from unnest($1::text[]) as s(id) where strpos(${c}::text, s.id) > 0)`;
  }
}

/** Finds every row of the current schema about the subjects (ids), with the closure described above. */
export async function collectSubjectRows(
  tx: SqlExecutor,
  subjectIds: string[],
  options: CollectOptions = {},
): Promise<FoundRows> {
  const columns = await schemaColumns(tx, options.skip ?? []);
  const keys = await uuidPrimaryKeys(tx);
  const byTable = new Map<string, Column[]>();
  for (const column of columns) byTable.set(column.table, [...(byTable.get(column.table) ?? []), column]);
  const found: FoundRows = { tables: new Map(), textColumns: new Map(), count: 0 };
  for (const [table, tableColumns] of byTable) {
    found.textColumns.set(
      table,
      tableColumns.filter((c) => c.type !== 'uuid'),
    );
  }
  const seenIds = new Set(subjectIds);
  const seenRows = new Set<string>();
  let frontier = [...subjectIds];
  for (let round = 0; frontier.length > 0 && round < MAX_ROUNDS; round++) {
    const uuids = frontier.filter((id) => UUID.test(id));
    const next: string[] = [];
    for (const [table, tableColumns] of byTable) {
      // uuid columns cannot hold a non-uuid id; skip them when the frontier has none.
      const usable = tableColumns.filter((c) => uuids.length > 0 || (c.type !== 'uuid' && c.type !== 'uuid[]'));
      if (usable.length === 0) continue;
      const many = frontier.length > MANY_IDS;
      const where = usable.map((c) => predicate(c, many)).join(' or ');
      const exacts = usable.map(exact).filter((e) => e !== undefined && (uuids.length > 0 || !e.includes('$2')));
      const direct = exacts.length > 0 ? exacts.join(' or ') : 'false';
      const rows = await tx.$queryRawUnsafe<{ ctid: string; row: string; direct: boolean }[]>(
        `select t.ctid::text as ctid, to_jsonb(t)::text as row, (${direct}) as direct from ${ident(table)} t
          where $1::text[] is not null and $2::uuid[] is not null and (${where})`,
        frontier,
        uuids,
      );
      for (const r of rows) {
        const id = `${table}:${r.ctid}`;
        if (seenRows.has(id)) continue;
        seenRows.add(id);
        const row = JSON.parse(r.row) as Record<string, unknown>;
        found.tables.set(table, [...(found.tables.get(table) ?? []), { ctid: r.ctid, row, direct: r.direct }]);
        found.count++;
        // Only a row about the subject leads further (a mention does not make its children about them).
        if (!r.direct) continue;
        const key = keys.get(table);
        const value = key ? row[key] : undefined;
        if (typeof value === 'string' && !seenIds.has(value)) {
          seenIds.add(value);
          next.push(value);
        }
      }
    }
    frontier = next;
  }
  return found;
}

/** The export document of one service: `{ tables: { name: rows } }`, secret columns left out. */
export function exportDocument(found: FoundRows): { tables: Record<string, Record<string, unknown>[]> } {
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const [table, rows] of found.tables) {
    tables[table] = rows.map(({ row }) => Object.fromEntries(Object.entries(row).filter(([k]) => !REDACTED.test(k))));
  }
  return { tables };
}

/** Cuts a text into parts of at most `maxBytes` UTF-8 bytes (never inside a character). */
export function splitText(text: string, maxBytes = 512 * 1024): string[] {
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (size + n > maxBytes) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts;
}

/**
 * Deletes the rows found, children first where foreign keys say so (a refused delete is retried
 * after the others), then erases the subjects from the outbox. Returns the rows deleted.
 */
export async function deleteFoundRows(tx: SqlExecutor, found: FoundRows, subjectIds: string[]): Promise<number> {
  // Mentions first: the ids are replaced by their pseudonyms in the row's text and json columns
  // (removed from uuid arrays), one statement per row (an update moves the row: its ctid changes).
  for (const [table, rows] of found.tables) {
    const columns = found.textColumns.get(table) ?? [];
    for (const r of rows) {
      if (r.direct) continue;
      const text = JSON.stringify(r.row);
      const ids = subjectIds.filter((id) => text.includes(id));
      if (ids.length === 0 || columns.length === 0) continue;
      const values: unknown[] = [r.ctid];
      const param = (value: unknown) => {
        values.push(value);
        return `$${values.length}`;
      };
      const pairs = ids.map((id) => ({ id, pseudonym: erasedPseudonym(id) }));
      const scrub = (expr: string) =>
        pairs.reduce((acc, p) => `replace(${acc}, ${param(p.id)}::text, ${param(p.pseudonym)}::text)`, expr);
      const sets = columns.map((column) => {
        const c = ident(column.column);
        switch (column.type) {
          case 'text':
            return `${c} = ${scrub(c)}`;
          case 'json':
            return `${c} = (${scrub(`${c}::text`)})::${column.udt}`;
          case 'text[]':
            return `${c} = case when ${c} is null then null else array(select ${scrub('x')} from unnest(${c}) as x) end`;
          default:
            return `${c} = ${pairs
              .filter((p) => UUID.test(p.id))
              .reduce((acc, p) => `array_remove(${acc}, ${param(p.id)}::uuid)`, c)}`;
        }
      });
      await tx.$executeRawUnsafe(`update ${ident(table)} set ${sets.join(', ')} where ctid = $1::tid`, ...values);
    }
  }
  let pending = [...found.tables]
    .map(([table, rows]) => [table, rows.filter((r) => r.direct)] as const)
    .filter(([, rows]) => rows.length > 0)
    .reverse();
  let deleted = 0;
  for (let pass = 0; pending.length > 0; pass++) {
    const refused: (typeof pending)[number][] = [];
    for (const entry of pending) {
      const [table, rows] = entry;
      await tx.$executeRawUnsafe('savepoint privacy_delete');
      try {
        deleted += await tx.$executeRawUnsafe(
          `delete from ${ident(table)} where ctid = any($1::tid[])`,
          rows.map((r) => r.ctid),
        );
        await tx.$executeRawUnsafe('release savepoint privacy_delete');
      } catch (error) {
        await tx.$executeRawUnsafe('rollback to savepoint privacy_delete');
        if ((error as { code?: string }).code !== '23503' && !String(error).includes('23503')) throw error;
        if (pass >= found.tables.size) throw error;
        refused.push(entry);
      }
    }
    pending = refused;
  }
  // Each id is a scan of the outbox: a district's own rows (its id) cover its people's events.
  for (const id of subjectIds.slice(0, 200)) deleted += await markOutboxForErasure(tx, id);
  return deleted;
}

/** Finds and deletes every row about the subjects; returns the rows deleted. */
export async function eraseSubjects(tx: SqlExecutor, subjectIds: string[], options: CollectOptions = {}) {
  return deleteFoundRows(tx, await collectSubjectRows(tx, subjectIds, options), subjectIds);
}

/** The pseudonym kept of an erased id where a record must stay (audit log): sha256 hex. */
export function erasedPseudonym(id: string): string {
  return `erased:${createHash('sha256').update(id).digest('hex').slice(0, 32)}`;
}

/** Sha256 hex of an id: a deleted-subject marker that does not hold the id. */
export function subjectHash(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
