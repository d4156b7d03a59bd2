// Accommodations (migrations/026) and who may read and set a student's: SQL only.
import type pg from 'pg';
import { sqlExecutor, type SqlExecutor } from '@checkpoint/events';
import { inTransaction } from '@checkpoint/service-kit';
import { NO_ACCOMMODATIONS, type Accommodations, type ClassStudentAccommodations } from '../domain/accommodations.ts';

interface Row {
  read_aloud: boolean;
  reduced_choices: number;
  extra_time: number;
  no_time_limit: boolean;
  large_text: boolean;
  high_contrast: boolean;
  line_guide: boolean;
  answer_masking: boolean;
}

const toAccommodations = (r: Row | undefined): Accommodations =>
  r
    ? {
        readAloud: r.read_aloud,
        reducedChoices: r.reduced_choices,
        extraTime: r.no_time_limit ? 'none' : Number(r.extra_time),
        largeText: r.large_text,
        highContrast: r.high_contrast,
        lineGuide: r.line_guide,
        answerMasking: r.answer_masking,
      }
    : { ...NO_ACCOMMODATIONS };

const COLUMNS =
  'read_aloud, reduced_choices, extra_time, no_time_limit, large_text, high_contrast, line_guide, answer_masking';

export type AccommodationsRepository = ReturnType<typeof accommodationsRepository>;
/** One transaction on one pooled connection: the change and its event commit together. */
export type AccommodationsTx = SqlExecutor & { client: pg.PoolClient };

export function accommodationsRepository(pool: pg.Pool) {
  return {
    transaction: <T>(fn: (tx: AccommodationsTx) => Promise<T>): Promise<T> =>
      inTransaction(pool, (client) => fn({ ...sqlExecutor(client), client })),

    /**
     * The class's tenant when the student is in the class and the caller may see them there: a
     * teacher of the class (its owner or a co-teacher) or an admin of its tenant; else undefined.
     */
    async tenantOf(caller: { userId: string; tenantId: string; role: string }, classId: string, studentId: string) {
      const { rows } = await pool.query<{ tenant_id: string }>(
        `select c.tenant_id from classes c
           join memberships m on m.class_id = c.class_id and m.student_id = $3::uuid
          where c.class_id = $1::uuid
            and (case when $4 = 'admin' then c.tenant_id = $5::uuid
                      else (c.teacher_id = $2::uuid and c.tenant_id = $5::uuid) or $2::uuid = any(c.co_teacher_ids) end)`,
        [classId, caller.userId, studentId, caller.role, caller.tenantId],
      );
      return rows[0]?.tenant_id;
    },

    /**
     * The class's tenant when the caller may see its students' accommodations (the same rule as
     * `tenantOf`, without a student); else undefined.
     */
    async classTenantOf(caller: { userId: string; tenantId: string; role: string }, classId: string) {
      const { rows } = await pool.query<{ tenant_id: string }>(
        `select c.tenant_id from classes c
          where c.class_id = $1::uuid
            and (case when $3 = 'admin' then c.tenant_id = $4::uuid
                      else (c.teacher_id = $2::uuid and c.tenant_id = $4::uuid) or $2::uuid = any(c.co_teacher_ids) end)`,
        [classId, caller.userId, caller.role, caller.tenantId],
      );
      return rows[0]?.tenant_id;
    },

    /** The class's students (by last and first name) with their accommodations (none set: all off). */
    async listForClass(classId: string): Promise<ClassStudentAccommodations[]> {
      const { rows } = await pool.query<
        Row & { student_id: string; first_name: string | null; last_name: string | null; stored: boolean }
      >(
        `select m.student_id, p.first_name, p.last_name, acc.student_id is not null as stored, ${COLUMNS.split(', ')
          .map((c) => `acc.${c}`)
          .join(', ')}
           from memberships m
           left join people p on p.user_id = m.student_id
           left join accommodations acc on acc.student_id = m.student_id
          where m.class_id = $1::uuid
          order by lower(coalesce(p.last_name, '')), lower(coalesce(p.first_name, '')), m.student_id`,
        [classId],
      );
      return rows.map((r) => ({
        studentId: r.student_id,
        firstName: r.first_name ?? '',
        lastName: r.last_name ?? '',
        ...toAccommodations(r.stored ? r : undefined),
      }));
    },

    async get(studentId: string): Promise<Accommodations> {
      const { rows } = await pool.query<Row>(`select ${COLUMNS} from accommodations where student_id = $1::uuid`, [
        studentId,
      ]);
      return toAccommodations(rows[0]);
    },

    /** Stores the student's whole set (a set of none is stored too: the row says it was looked at). */
    async put(tx: AccommodationsTx, studentId: string, tenantId: string, a: Accommodations): Promise<Accommodations> {
      const { rows } = await tx.client.query<Row>(
        `insert into accommodations (student_id, tenant_id, ${COLUMNS}, updated_at)
         values ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $10, now())
         on conflict (student_id) do update set
           read_aloud = excluded.read_aloud, reduced_choices = excluded.reduced_choices,
           extra_time = excluded.extra_time, no_time_limit = excluded.no_time_limit,
           large_text = excluded.large_text, high_contrast = excluded.high_contrast,
           line_guide = excluded.line_guide, answer_masking = excluded.answer_masking, updated_at = now()
         returning ${COLUMNS}`,
        [
          studentId,
          tenantId,
          a.readAloud,
          a.reducedChoices,
          a.extraTime === 'none' ? 1 : a.extraTime,
          a.extraTime === 'none',
          a.largeText,
          a.highContrast,
          a.lineGuide,
          a.answerMasking,
        ],
      );
      return toAccommodations(rows[0]);
    },
  };
}
