// OIDC login states, used nonces and verified launches: SQL only.
import { inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';

export interface LoginState {
  registrationId: string;
  tenantId: string;
  nonce: string;
  targetLinkUri: string;
}

export interface LaunchRow {
  id: string;
  tenantId: string;
  registrationId: string;
  deploymentId: string;
  lmsUserId: string;
  roles: string[];
  contextId: string | null;
  contextTitle: string | null;
  resourceLinkId: string;
  targetLinkUri: string;
}

export function launchesRepository(pool: pg.Pool) {
  return {
    /** Keeps a login's state (its hash) until `expiresAt`; drops a few expired ones on the way. */
    async saveState(stateHash: string, s: LoginState, expiresAt: Date): Promise<void> {
      await pool.query(
        `with gone as (delete from lti_login_states where state_hash in
                         (select state_hash from lti_login_states where expires_at < now() limit 100))
         insert into lti_login_states (state_hash, registration_id, tenant_id, nonce, target_link_uri, expires_at)
         values ($1, $2, $3, $4, $5, $6)`,
        [stateHash, s.registrationId, s.tenantId, s.nonce, s.targetLinkUri, expiresAt],
      );
    },

    /** Takes a state once: deleted as it is read; undefined when unknown, used or expired. */
    async takeState(stateHash: string): Promise<LoginState | undefined> {
      const { rows } = await pool.query<LoginState & { live: boolean }>(
        `delete from lti_login_states where state_hash = $1
         returning registration_id as "registrationId", tenant_id as "tenantId", nonce,
                   target_link_uri as "targetLinkUri", expires_at > now() as live`,
        [stateHash],
      );
      const row = rows[0];
      if (!row?.live) return undefined;
      const { live: _live, ...state } = row;
      return state;
    },

    /**
     * Uses the id_token's nonce and records the launch in one transaction: 'replayed' (nothing
     * written) when the nonce was used already.
     */
    async recordLaunch(launch: LaunchRow, nonce: string, nonceExpiresAt: Date): Promise<'recorded' | 'replayed'> {
      return inTransaction(pool, async (client) => {
        await client.query('delete from lti_used_nonces where expires_at < now() and registration_id = $1', [
          launch.registrationId,
        ]);
        const used = await client.query(
          `insert into lti_used_nonces (registration_id, nonce, expires_at) values ($1, $2, $3)
           on conflict do nothing`,
          [launch.registrationId, nonce, nonceExpiresAt],
        );
        if (used.rowCount === 0) return 'replayed';
        await client.query(
          `insert into lti_launches (id, tenant_id, registration_id, deployment_id, lms_user_id, roles, context_id,
                                     context_title, resource_link_id, target_link_uri)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            launch.id,
            launch.tenantId,
            launch.registrationId,
            launch.deploymentId,
            launch.lmsUserId,
            launch.roles,
            launch.contextId,
            launch.contextTitle,
            launch.resourceLinkId,
            launch.targetLinkUri,
          ],
        );
        return 'recorded';
      });
    },
  };
}

export type LaunchesRepository = ReturnType<typeof launchesRepository>;
