// LTI platform registrations: SQL only. Every read and change by an admin names the tenant.
import type pg from 'pg';
import type { Registration, RegistrationInput } from '../api/registrations.schemas.ts';

export interface StoredRegistration extends Registration {
  tenantId: string;
}

export const REGISTRATION_COLUMNS = `id, tenant_id as "tenantId", issuer, client_id as "clientId", deployment_ids as "deploymentIds",
  jwks_url as "jwksUrl", auth_url as "authorizationUrl", token_url as "tokenUrl",
  admin_role_from_lms as "adminRoleFromLms",
  to_char(created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
  to_char(updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "updatedAt"`;

export function registrationsRepository(pool: pg.Pool) {
  return {
    async list(tenantId: string): Promise<StoredRegistration[]> {
      const { rows } = await pool.query<StoredRegistration>(
        `select ${REGISTRATION_COLUMNS} from lti_registrations where tenant_id = $1 order by created_at, id`,
        [tenantId],
      );
      return rows;
    },

    async find(tenantId: string, id: string): Promise<StoredRegistration | undefined> {
      const { rows } = await pool.query<StoredRegistration>(
        `select ${REGISTRATION_COLUMNS} from lti_registrations where tenant_id = $1 and id = $2`,
        [tenantId, id],
      );
      return rows[0];
    },

    /**
     * The registrations a login names (any district): by issuer and client id when it gives one (an
     * issuer such as Canvas's cloud one is shared by every customer), else by issuer alone (at most
     * two: more than one is ambiguous).
     */
    async forLogin(issuer: string, clientId: string | undefined): Promise<StoredRegistration[]> {
      const { rows } =
        clientId === undefined
          ? await pool.query<StoredRegistration>(
              `select ${REGISTRATION_COLUMNS} from lti_registrations where issuer = $1 order by created_at, id limit 2`,
              [issuer],
            )
          : await pool.query<StoredRegistration>(
              `select ${REGISTRATION_COLUMNS} from lti_registrations where issuer = $1 and client_id = $2`,
              [issuer, clientId],
            );
      return rows;
    },

    async byId(id: string): Promise<StoredRegistration | undefined> {
      const { rows } = await pool.query<StoredRegistration>(
        `select ${REGISTRATION_COLUMNS} from lti_registrations where id = $1`,
        [id],
      );
      return rows[0];
    },

    /** Inserts; undefined when the issuer and client id are registered already. */
    async insert(tenantId: string, id: string, r: RegistrationInput): Promise<StoredRegistration | undefined> {
      const { rows } = await pool.query<StoredRegistration>(
        `insert into lti_registrations (id, tenant_id, issuer, client_id, deployment_ids, jwks_url, auth_url, token_url,
                                        admin_role_from_lms)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (issuer, client_id) do nothing
         returning ${REGISTRATION_COLUMNS}`,
        [
          id,
          tenantId,
          r.issuer,
          r.clientId,
          r.deploymentIds,
          r.jwksUrl,
          r.authorizationUrl,
          r.tokenUrl,
          r.adminRoleFromLms,
        ],
      );
      return rows[0];
    },

    /** Updates the tenant's registration; 'missing' when it has none of that id, 'taken' when another has the issuer and client id. */
    async update(
      tenantId: string,
      id: string,
      r: RegistrationInput,
    ): Promise<StoredRegistration | 'missing' | 'taken'> {
      try {
        const { rows } = await pool.query<StoredRegistration>(
          `update lti_registrations set issuer = $3, client_id = $4, deployment_ids = $5, jwks_url = $6, auth_url = $7,
                  token_url = $8, admin_role_from_lms = $9, updated_at = now()
            where tenant_id = $1 and id = $2
            returning ${REGISTRATION_COLUMNS}`,
          [
            tenantId,
            id,
            r.issuer,
            r.clientId,
            r.deploymentIds,
            r.jwksUrl,
            r.authorizationUrl,
            r.tokenUrl,
            r.adminRoleFromLms,
          ],
        );
        return rows[0] ?? 'missing';
      } catch (err) {
        if ((err as { code?: string }).code === '23505') return 'taken';
        throw err;
      }
    },

    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rowCount } = await pool.query('delete from lti_registrations where tenant_id = $1 and id = $2', [
        tenantId,
        id,
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}

export type RegistrationsRepository = ReturnType<typeof registrationsRepository>;
