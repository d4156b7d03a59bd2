// The standards catalogue's tables (migrations/010_standards.sql): frameworks imported from CASE
// packages and their items, with the search the type-ahead uses.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { FrameworkInput, ItemInput } from '../domain/case-package.ts';

export interface FrameworkRecord {
  id: string;
  title: string;
  documentIdentifier: string;
  creator: string;
  version: string;
  uri: string;
  subjects: string[];
  itemCount: number;
  scope: 'district' | 'platform';
  importedAt: string;
  updatedAt: string;
}

export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
}

export interface StandardItemRecord {
  identifier: string;
  code: string;
  statement: string;
  uri: string;
  frameworkId: string;
  frameworkTitle: string;
  educationLevels: string[];
}

export interface SearchFilters {
  /** The caller's tenant: its frameworks and the platform's. */
  tenantId: string;
  q: string;
  grades?: string[];
  subject?: string;
  frameworkId?: string;
  limit: number;
}

/** Rows written per statement (each item is one jsonb element). */
const CHUNK = 2_000;
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

const FRAMEWORK_COLUMNS = `id::text, title, document_identifier, creator, version, uri, subjects, item_count,
  tenant_id is null as platform, imported_at, updated_at`;

interface FrameworkRow {
  id: string;
  title: string;
  document_identifier: string;
  creator: string;
  version: string;
  uri: string;
  subjects: string[];
  item_count: number;
  platform: boolean;
  imported_at: Date;
  updated_at: Date;
}

const toFramework = (r: FrameworkRow): FrameworkRecord => ({
  id: r.id,
  title: r.title,
  documentIdentifier: r.document_identifier,
  creator: r.creator,
  version: r.version,
  uri: r.uri,
  subjects: r.subjects,
  itemCount: r.item_count,
  scope: r.platform ? 'platform' : 'district',
  importedAt: r.imported_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

interface ExistingItem {
  identifier: string;
  code: string;
  statement: string;
  uri: string;
  item_type: string;
  education_levels: string[];
  withdrawn: boolean;
}

const sameItem = (a: ExistingItem, b: ItemInput) =>
  !a.withdrawn &&
  a.code === b.code &&
  a.statement === b.statement &&
  a.uri === b.uri &&
  a.item_type === b.itemType &&
  a.education_levels.length === b.educationLevels.length &&
  a.education_levels.every((g, i) => g === b.educationLevels[i]);

/** `%` and `_` and `\` of a LIKE pattern taken literally. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function standardsRepository(pool: pg.Pool) {
  return {
    /**
     * Imports a framework in one transaction: the framework of (tenant, CFDocument.identifier) is
     * created or updated; items added, updated or left by CFItem identifier; items the package no
     * longer holds withdrawn; withdrawn items back in the package restored.
     */
    async importFramework(
      tenantId: string | null,
      importedBy: string | null,
      input: FrameworkInput,
    ): Promise<{ framework: FrameworkRecord; counts: ImportCounts; created: boolean }> {
      const client = await pool.connect();
      try {
        await client.query('begin');
        // Two imports of one document at once: the second waits for the first's row.
        await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
          `standards:${tenantId ?? NO_TENANT}:${input.documentIdentifier}`,
        ]);
        const found = await client.query<{ id: string }>(
          `select id::text from standard_frameworks
            where coalesce(tenant_id, $1::uuid) = coalesce($2::uuid, $1::uuid) and document_identifier = $3`,
          [NO_TENANT, tenantId, input.documentIdentifier],
        );
        const created = found.rows.length === 0;
        const frameworkId = found.rows[0]?.id ?? randomUUID();
        if (created)
          await client.query(
            `insert into standard_frameworks (id, tenant_id, document_identifier, title, imported_by)
             values ($1, $2, $3, $4, $5)`,
            [frameworkId, tenantId, input.documentIdentifier, input.title, importedBy],
          );
        const existing = new Map(
          (
            await client.query<ExistingItem>(
              `select identifier, code, statement, uri, item_type, education_levels, withdrawn_at is not null as withdrawn
                 from standard_items where framework_id = $1`,
              [frameworkId],
            )
          ).rows.map((r) => [r.identifier, r]),
        );
        const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0, withdrawn: 0 };
        const changed: ItemInput[] = [];
        for (const item of input.items) {
          const before = existing.get(item.identifier);
          if (!before) counts.added++;
          else if (sameItem(before, item)) counts.unchanged++;
          else counts.updated++;
          if (!before || !sameItem(before, item)) changed.push(item);
        }
        for (let i = 0; i < changed.length; i += CHUNK) {
          const rows = changed.slice(i, i + CHUNK).map((it) => ({
            id: randomUUID(),
            identifier: it.identifier,
            code: it.code,
            statement: it.statement,
            uri: it.uri,
            item_type: it.itemType,
            education_levels: it.educationLevels,
          }));
          await client.query(
            `insert into standard_items (id, framework_id, tenant_id, identifier, code, statement, uri, item_type, education_levels)
             select r.id, $2, $3, r.identifier, r.code, r.statement, r.uri, r.item_type,
                    array(select jsonb_array_elements_text(r.education_levels))
               from jsonb_to_recordset($1::jsonb) as r(id uuid, identifier text, code text, statement text, uri text,
                                                       item_type text, education_levels jsonb)
             on conflict (framework_id, identifier) do update
                set code = excluded.code, statement = excluded.statement, uri = excluded.uri,
                    item_type = excluded.item_type, education_levels = excluded.education_levels,
                    withdrawn_at = null, updated_at = now()`,
            [JSON.stringify(rows), frameworkId, tenantId],
          );
        }
        const kept = new Set(input.items.map((i) => i.identifier));
        const gone = [...existing.values()]
          .filter((e) => !e.withdrawn && !kept.has(e.identifier))
          .map((e) => e.identifier);
        counts.withdrawn = gone.length;
        if (gone.length)
          await client.query(
            `update standard_items set withdrawn_at = now(), updated_at = now()
              where framework_id = $1 and identifier = any($2::text[])`,
            [frameworkId, gone],
          );
        const saved = await client.query<FrameworkRow>(
          `update standard_frameworks
              set title = $2, creator = $3, version = $4, uri = $5, subjects = $6, adoption_status = $7,
                  item_count = $8, updated_at = now()
            where id = $1
          returning ${FRAMEWORK_COLUMNS}`,
          [
            frameworkId,
            input.title,
            input.creator,
            input.version,
            input.uri,
            input.subjects,
            input.adoptionStatus,
            input.items.length,
          ],
        );
        await client.query('commit');
        return { framework: toFramework(saved.rows[0]!), counts, created };
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },

    /** The tenant's frameworks and the platform's, by title. */
    async listFrameworks(tenantId: string): Promise<FrameworkRecord[]> {
      const { rows } = await pool.query<FrameworkRow>(
        `select ${FRAMEWORK_COLUMNS} from standard_frameworks
          where tenant_id = $1 or tenant_id is null
          order by title, document_identifier`,
        [tenantId],
      );
      return rows.map(toFramework);
    },

    /**
     * Items not withdrawn of the tenant's and the platform's frameworks: those whose code starts
     * with `q` (case-insensitive) first, by code; then those whose words match, best ranked first.
     */
    async search(f: SearchFilters): Promise<StandardItemRecord[]> {
      const params: unknown[] = [f.tenantId];
      const add = (v: unknown) => `$${params.push(v)}`;
      const filters = ['i.withdrawn_at is null', '(i.tenant_id = $1 or i.tenant_id is null)'];
      if (f.frameworkId) filters.push(`i.framework_id = ${add(f.frameworkId)}::uuid`);
      if (f.grades?.length) filters.push(`i.education_levels && ${add(f.grades)}::text[]`);
      if (f.subject)
        filters.push(
          `exists (select 1 from standard_frameworks sf, unnest(sf.subjects) s
                    where sf.id = i.framework_id and lower(s) = lower(${add(f.subject)}))`,
        );
      const where = filters.join(' and ');
      const limit = add(f.limit);
      const columns = `i.identifier, i.code, i.statement, i.uri, i.framework_id::text as framework_id, i.education_levels`;
      let sql: string;
      if (!f.q) {
        sql = `select ${columns}, 0 as part from standard_items i where ${where} order by lower(i.code), i.identifier limit ${limit}`;
      } else {
        const prefix = add(likePrefix(f.q));
        const words = add(f.q);
        sql = `with prefix as (
                 select ${columns}, 0 as part, 0::real as rank from standard_items i
                  where ${where} and lower(i.code) like ${prefix}
                  order by lower(i.code), i.identifier limit ${limit}),
               query as (select websearch_to_tsquery('english', ${words}) as tsq),
               words as (
                 select ${columns}, 1 as part, ts_rank(i.search, query.tsq) as rank from standard_items i, query
                  where ${where} and i.search @@ query.tsq and numnode(query.tsq) > 0
                  order by rank desc, lower(i.code) limit ${limit})
               select distinct on (identifier, framework_id) * from (select * from prefix union all select * from words) m
                order by identifier, framework_id, part`;
        sql = `select * from (${sql}) found order by part, rank desc, lower(code), identifier limit ${limit}`;
      }
      const { rows } = await pool.query<{
        identifier: string;
        code: string;
        statement: string;
        uri: string;
        framework_id: string;
        education_levels: string[];
      }>(sql, params);
      const titles = new Map<string, string>();
      if (rows.length) {
        const ids = [...new Set(rows.map((r) => r.framework_id))];
        const t = await pool.query<{ id: string; title: string }>(
          'select id::text, title from standard_frameworks where id = any($1::uuid[])',
          [ids],
        );
        for (const r of t.rows) titles.set(r.id, r.title);
      }
      return rows.map((r) => ({
        identifier: r.identifier,
        code: r.code,
        statement: r.statement,
        uri: r.uri,
        frameworkId: r.framework_id,
        frameworkTitle: titles.get(r.framework_id) ?? '',
        educationLevels: r.education_levels,
      }));
    },
  };
}

export type StandardsRepository = ReturnType<typeof standardsRepository>;
