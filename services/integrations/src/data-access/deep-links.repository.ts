// Pending deep-linking requests and the tool's copy of Checkpoint's assessments (from the
// assessment service's events): SQL only (docs/adr/014-lti.md, "Deep linking").
import type pg from 'pg';

export interface DeepLinkRequest {
  id: string;
  tenantId: string;
  registrationId: string;
  userId: string;
  classId: string | null;
  deploymentId: string;
  returnUrl: string;
  /** The platform's opaque `data` as JSON text, echoed in the response (null: none was sent). */
  data: string | null;
}

export interface KnownAssessment {
  id: string;
  tenantId: string;
  classId: string;
  teacherId: string;
  title: string;
  totalPoints: number;
}

const REQUEST_COLUMNS = `id, tenant_id as "tenantId", registration_id as "registrationId", user_id as "userId",
  class_id as "classId", deployment_id as "deploymentId", return_url as "returnUrl", data`;
const ASSESSMENT_COLUMNS = `assessment_id as id, tenant_id as "tenantId", class_id as "classId",
  teacher_id as "teacherId", title, total_points::float8 as "totalPoints"`;

export function deepLinksRepository(pool: pg.Pool) {
  return {
    /** Keeps a pending request until `expiresAt`; drops a few expired ones on the way. */
    async save(r: DeepLinkRequest, expiresAt: Date): Promise<void> {
      await pool.query(
        `with gone as (delete from lti_deep_link_requests where id in
                         (select id from lti_deep_link_requests where expires_at < now() limit 100))
         insert into lti_deep_link_requests (id, tenant_id, registration_id, user_id, class_id, deployment_id,
                                             return_url, data, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [r.id, r.tenantId, r.registrationId, r.userId, r.classId, r.deploymentId, r.returnUrl, r.data, expiresAt],
      );
    },

    /** A live, unanswered request of this account of this district; undefined otherwise. */
    async pending(id: string, tenantId: string, userId: string): Promise<DeepLinkRequest | undefined> {
      const { rows } = await pool.query<DeepLinkRequest>(
        `select ${REQUEST_COLUMNS} from lti_deep_link_requests
          where id = $1 and tenant_id = $2 and user_id = $3 and expires_at > now() and response_jwt is null`,
        [id, tenantId, userId],
      );
      return rows[0];
    },

    /**
     * Stores the signed response on a live, unanswered request of this account (once: a second
     * answer finds it answered). False when there was no such request.
     */
    async answer(id: string, tenantId: string, userId: string, jwt: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `update lti_deep_link_requests set response_jwt = $4
          where id = $1 and tenant_id = $2 and user_id = $3 and expires_at > now() and response_jwt is null`,
        [id, tenantId, userId, jwt],
      );
      return rowCount === 1;
    },

    /** Takes the answered request's response once (deleted as it is read). */
    async takeResponse(
      id: string,
      tenantId: string,
      userId: string,
    ): Promise<{ returnUrl: string; jwt: string } | undefined> {
      const { rows } = await pool.query<{ returnUrl: string; jwt: string }>(
        `delete from lti_deep_link_requests
          where id = $1 and tenant_id = $2 and user_id = $3 and expires_at > now() and response_jwt is not null
          returning return_url as "returnUrl", response_jwt as jwt`,
        [id, tenantId, userId],
      );
      return rows[0];
    },

    /** The district's assessment (undefined: unknown to the tool, or another district's). */
    async assessment(tenantId: string, id: string): Promise<KnownAssessment | undefined> {
      const { rows } = await pool.query<KnownAssessment>(
        `select ${ASSESSMENT_COLUMNS} from lti_assessments where tenant_id = $1 and assessment_id = $2`,
        [tenantId, id],
      );
      return rows[0];
    },

    /** A teacher's assessments of the district, those of `classId` first, then by title. */
    async ofTeacher(tenantId: string, teacherId: string, classId: string | null): Promise<KnownAssessment[]> {
      const { rows } = await pool.query<KnownAssessment>(
        `select ${ASSESSMENT_COLUMNS} from lti_assessments where tenant_id = $1 and teacher_id = $2
          order by (class_id = $3) desc nulls last, lower(title), assessment_id limit 500`,
        [tenantId, teacherId, classId],
      );
      return rows;
    },
  };
}

export type DeepLinksRepository = ReturnType<typeof deepLinksRepository>;
