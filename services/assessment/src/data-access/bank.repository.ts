// The item bank's SQL (bank_items, migrations/019): who sees an item is one predicate (`SEEN`),
// the search its filters on the indexes of the migration. No rule is decided here
// (domain/bank.use-case.ts decides who may share, edit and delete).
import { uuidv7 } from '@checkpoint/service-kit';
import type pg from 'pg';

export type Visibility = 'private' | 'school' | 'district';

export interface BankStandard {
  identifier: string;
  code: string;
  uri: string;
  frameworkId: string | null;
}

export interface BankItemFields {
  visibility: Visibility;
  schoolIds: string[];
  questionText: string;
  questionType: string;
  options: string[];
  correctAnswer: string;
  acceptedAnswers: string[];
  points: number;
  subject: string;
  grade: string;
  topic: string;
  standard: string;
  standards: BankStandard[];
}

export interface BankItemRecord extends BankItemFields {
  id: string;
  tenantId: string;
  authorId: string;
  authorName: string;
  sourceQuestionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Who is looking: their tenant, their id, whether they are an admin, and their schools. */
export interface Viewer {
  tenantId: string;
  userId: string;
  admin: boolean;
  schools: string[];
}

export interface BankSearch {
  q?: string | undefined;
  type?: string | undefined;
  /** Lower case: an identifier, a code or the standard label. */
  standard?: string | undefined;
  subject?: string | undefined;
  grade?: string | undefined;
  visibility?: Visibility | undefined;
  mine?: boolean | undefined;
  offset: number;
  /** Rows to read (the page and one more, to tell whether another page follows). */
  limit: number;
}

interface ItemSqlRow {
  id: string;
  tenant_id: string;
  author_id: string;
  author_name: string | null;
  visibility: Visibility;
  school_ids: string[];
  question_text: string;
  question_type: string;
  options: string[];
  correct_answer: string;
  accepted_answers: string[];
  points: number;
  subject: string;
  grade: string;
  topic: string;
  standard: string;
  standards: BankStandard[];
  source_question_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const toItem = (r: ItemSqlRow): BankItemRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  authorId: r.author_id,
  authorName: r.author_name?.trim() ?? '',
  visibility: r.visibility,
  schoolIds: r.school_ids,
  questionText: r.question_text,
  questionType: r.question_type,
  options: r.options,
  correctAnswer: r.correct_answer,
  acceptedAnswers: r.accepted_answers,
  points: Number(r.points),
  subject: r.subject,
  grade: r.grade,
  topic: r.topic,
  standard: r.standard,
  standards: r.standards,
  sourceQuestionId: r.source_question_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const ITEM_COLUMNS = `b.id::text, b.tenant_id::text, b.author_id::text,
  (select p.first_name || ' ' || p.last_name from people p where p.user_id = b.author_id) as author_name,
  b.visibility, b.school_ids, b.question_text, b.question_type, b.options, b.correct_answer, b.accepted_answers,
  b.points, b.subject, b.grade, b.topic, b.standard, b.standards, b.source_question_id::text, b.created_at, b.updated_at`;

/**
 * The items `$1` (tenant), `$2` (user), `$3` (admin), `$4` (schools) may see: their own; the
 * district's; their school's (an item shared with a school they teach in); an admin sees every
 * shared item of the tenant.
 */
const SEEN = `b.tenant_id = $1::uuid and (
  b.author_id = $2::uuid
  or b.visibility = 'district'
  or (b.visibility = 'school' and ($3::boolean or b.school_ids && $4::text[]))
)`;

const seenParams = (v: Viewer) => [v.tenantId, v.userId, v.admin, v.schools];

const standardKeys = (f: Pick<BankItemFields, 'standards' | 'standard'>) => [
  ...new Set(
    [...f.standards.flatMap((s) => [s.identifier, s.code]), f.standard]
      .map((k) => k.trim().toLowerCase())
      .filter(Boolean),
  ),
];

export type BankRepository = ReturnType<typeof bankRepository>;

export function bankRepository(pool: pg.Pool) {
  return {
    /** The schools of the user's classes (roster school ids, none empty). */
    async schoolsOf(tenantId: string, userId: string): Promise<string[]> {
      const { rows } = await pool.query<{ school_id: string }>(
        `select distinct school_id from classes
          where tenant_id = $1::uuid and (teacher_id = $2::uuid or $2::uuid = any(co_teacher_ids)) and school_id <> ''
          order by school_id`,
        [tenantId, userId],
      );
      return rows.map((r) => r.school_id);
    },

    /** The kind of the user's tenant as identity last told it ('' when not told). */
    async tenantKindOf(userId: string): Promise<string> {
      const { rows } = await pool.query<{ tenant_kind: string }>(
        'select tenant_kind from people where user_id = $1::uuid',
        [userId],
      );
      return rows[0]?.tenant_kind ?? '';
    },

    /** The grades of a class's copy (for an item saved from one of its questions). */
    async classGrades(classId: string): Promise<string[]> {
      const { rows } = await pool.query<{ grades: string[] }>('select grades from classes where class_id = $1::uuid', [
        classId,
      ]);
      return rows[0]?.grades ?? [];
    },

    async insert(
      item: BankItemFields & { tenantId: string; authorId: string; sourceQuestionId: string | null },
    ): Promise<string> {
      const id = uuidv7();
      await pool.query(
        `insert into bank_items (id, tenant_id, author_id, visibility, school_ids, question_text, question_type, options,
           correct_answer, accepted_answers, points, subject, grade, topic, standard, standards, standard_keys,
           source_question_id)
         values ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::jsonb, $17,
           $18::uuid)`,
        [
          id,
          item.tenantId,
          item.authorId,
          item.visibility,
          item.schoolIds,
          item.questionText,
          item.questionType,
          item.options,
          item.correctAnswer,
          item.acceptedAnswers,
          item.points,
          item.subject,
          item.grade,
          item.topic,
          item.standard,
          JSON.stringify(item.standards),
          standardKeys(item),
          item.sourceQuestionId,
        ],
      );
      return id;
    },

    /** One item the viewer may see; undefined otherwise. */
    async findSeen(viewer: Viewer, id: string): Promise<BankItemRecord | undefined> {
      const { rows } = await pool.query<ItemSqlRow>(
        `select ${ITEM_COLUMNS} from bank_items b where ${SEEN} and b.id = $5::uuid`,
        [...seenParams(viewer), id],
      );
      return rows[0] ? toItem(rows[0]) : undefined;
    },

    /** The items among `ids` the viewer may see (any order). */
    async findManySeen(viewer: Viewer, ids: readonly string[]): Promise<BankItemRecord[]> {
      const { rows } = await pool.query<ItemSqlRow>(
        `select ${ITEM_COLUMNS} from bank_items b where ${SEEN} and b.id = any($5::uuid[])`,
        [...seenParams(viewer), [...ids]],
      );
      return rows.map(toItem);
    },

    /** Rewrites an item's fields; false when it is gone. */
    async update(id: string, fields: BankItemFields): Promise<boolean> {
      const { rowCount } = await pool.query(
        `update bank_items set visibility = $2, school_ids = $3, question_text = $4, question_type = $5, options = $6,
           correct_answer = $7, accepted_answers = $8, points = $9, subject = $10, grade = $11, topic = $12,
           standard = $13, standards = $14::jsonb, standard_keys = $15, updated_at = now()
         where id = $1::uuid`,
        [
          id,
          fields.visibility,
          fields.schoolIds,
          fields.questionText,
          fields.questionType,
          fields.options,
          fields.correctAnswer,
          fields.acceptedAnswers,
          fields.points,
          fields.subject,
          fields.grade,
          fields.topic,
          fields.standard,
          JSON.stringify(fields.standards),
          standardKeys(fields),
        ],
      );
      return (rowCount ?? 0) > 0;
    },

    async delete(id: string): Promise<void> {
      await pool.query('delete from bank_items where id = $1::uuid', [id]);
    },

    /**
     * A page of the items the viewer may see that match, newest first. Words use the stored
     * `search` tsvector (GIN); each filter has an index led by the tenant (migrations/019), so
     * a page reads about its own rows whichever the planner starts from (bench/README.md, "Bank search").
     */
    async search(viewer: Viewer, s: BankSearch): Promise<BankItemRecord[]> {
      const params: unknown[] = seenParams(viewer);
      const where = [SEEN];
      const add = (sql: (n: string) => string, value: unknown) => {
        params.push(value);
        where.push(sql(`$${params.length}`));
      };
      if (s.q) add((n) => `b.search @@ websearch_to_tsquery('english', ${n})`, s.q);
      if (s.type) add((n) => `b.question_type = ${n}`, s.type);
      if (s.standard) add((n) => `b.standard_keys @> array[${n}::text]`, s.standard);
      if (s.subject) add((n) => `lower(b.subject) = lower(${n})`, s.subject);
      if (s.grade) add((n) => `b.grade = ${n}`, s.grade);
      if (s.visibility) add((n) => `b.visibility = ${n}`, s.visibility);
      if (s.mine) where.push('b.author_id = $2::uuid');
      params.push(s.limit, s.offset);
      const { rows } = await pool.query<ItemSqlRow>(
        `select ${ITEM_COLUMNS} from bank_items b where ${where.join(' and ')}
          order by b.updated_at desc, b.id desc limit $${params.length - 1} offset $${params.length}`,
        params,
      );
      return rows.map(toItem);
    },
  };
}
