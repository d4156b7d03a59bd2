// One-time LTI Dynamic Registration links and the registration they lead to: SQL only.
import { inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';
import type { RegistrationInput } from '../api/registrations.schemas.ts';
import { REGISTRATION_COLUMNS, type StoredRegistration } from './registrations.repository.ts';

export function registrationLinksRepository(pool: pg.Pool) {
  return {
    /** Keeps a new link's token hash for the district (links expired for a day are swept on the way). */
    async insert(tenantId: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await pool.query(`delete from lti_registration_links where expires_at < now() - interval '1 day'`);
      await pool.query('insert into lti_registration_links (token_hash, tenant_id, expires_at) values ($1, $2, $3)', [
        tokenHash,
        tenantId,
        expiresAt,
      ]);
    },

    /** The district of a link not used and not expired; undefined otherwise. */
    async findLive(tokenHash: string): Promise<string | undefined> {
      const { rows } = await pool.query<{ tenantId: string }>(
        'select tenant_id as "tenantId" from lti_registration_links where token_hash = $1 and expires_at > now()',
        [tokenHash],
      );
      return rows[0]?.tenantId;
    },

    /**
     * Uses the link and stores the registration in one transaction: 'link_gone' when the link was
     * used (or expired) meanwhile, 'taken' when the issuer and client id are registered already;
     * in both cases nothing is written and the link stays as it was.
     */
    async useAndRegister(
      tokenHash: string,
      id: string,
      r: RegistrationInput,
    ): Promise<StoredRegistration | 'link_gone' | 'taken'> {
      return inTransaction(pool, async (client) => {
        const link = await client.query<{ tenantId: string }>(
          `delete from lti_registration_links where token_hash = $1 and expires_at > now()
           returning tenant_id as "tenantId"`,
          [tokenHash],
        );
        const tenantId = link.rows[0]?.tenantId;
        if (!tenantId) return 'link_gone';
        const { rows } = await client.query<StoredRegistration>(
          `insert into lti_registrations (id, tenant_id, issuer, client_id, deployment_ids, jwks_url, auth_url, token_url)
           values ($1, $2, $3, $4, $5, $6, $7, $8)
           on conflict (issuer, client_id) do nothing
           returning ${REGISTRATION_COLUMNS}`,
          [id, tenantId, r.issuer, r.clientId, r.deploymentIds, r.jwksUrl, r.authorizationUrl, r.tokenUrl],
        );
        if (!rows[0]) throw new Taken();
        return rows[0];
      }).catch((err: unknown) => {
        if (err instanceof Taken) return 'taken' as const;
        throw err;
      });
    },
  };
}

/** Rolls the transaction back (the link stays unused) when the pair is registered already. */
class Taken extends Error {}

export type RegistrationLinksRepository = ReturnType<typeof registrationLinksRepository>;
