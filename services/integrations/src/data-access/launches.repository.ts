// OIDC login states, used nonces and verified launches: SQL only.
import { inTransaction } from '@checkpoint/service-kit';
import type pg from 'pg';

export interface LoginState {
  registrationId: string;
  tenantId: string;
  nonce: string;
  targetLinkUri: string;
  /** SHA-256 of the browser binding cookie's value set at login; null when none was set. */
  bindingHash: string | null;
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
         insert into lti_login_states (state_hash, registration_id, tenant_id, nonce, target_link_uri, expires_at,
                                       binding_hash)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [stateHash, s.registrationId, s.tenantId, s.nonce, s.targetLinkUri, expiresAt, s.bindingHash],
      );
    },

    /** Takes a state once: deleted as it is read; undefined when unknown, used or expired. */
    async takeState(stateHash: string): Promise<LoginState | undefined> {
      const { rows } = await pool.query<LoginState & { live: boolean }>(
        `delete from lti_login_states where state_hash = $1
         returning registration_id as "registrationId", tenant_id as "tenantId", nonce,
                   target_link_uri as "targetLinkUri", binding_hash as "bindingHash", expires_at > now() as live`,
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

    /** The account the launch signed in and the class it reached. */
    async attach(launchId: string, userId: string, classId: string | null): Promise<void> {
      await pool.query('update lti_launches set user_id = $2, class_id = $3 where id = $1', [
        launchId,
        userId,
        classId,
      ]);
    },

    /** The class linked to a registration's LMS course. */
    async linkedClass(registrationId: string, contextId: string): Promise<string | undefined> {
      const { rows } = await pool.query<{ classId: string }>(
        `select class_id as "classId" from lti_context_links where registration_id = $1 and context_id = $2`,
        [registrationId, contextId],
      );
      return rows[0]?.classId;
    },

    /**
     * The course's class, made by `create` when the course has none yet: one launch at a time per
     * course (an advisory lock held while `create` runs), so two first launches make one class.
     */
    async linkOrCreate(
      link: { registrationId: string; contextId: string; tenantId: string; contextTitle: string | null },
      create: () => Promise<string>,
    ): Promise<{ classId: string; created: boolean }> {
      return inTransaction(pool, async (client) => {
        await client.query(`select pg_advisory_xact_lock(hashtextextended($1, 0))`, [
          `lti-context:${link.registrationId}:${link.contextId}`,
        ]);
        const found = await client.query<{ classId: string }>(
          `select class_id as "classId" from lti_context_links where registration_id = $1 and context_id = $2`,
          [link.registrationId, link.contextId],
        );
        if (found.rows[0]) return { classId: found.rows[0].classId, created: false };
        const classId = await create();
        await client.query(
          `insert into lti_context_links (registration_id, context_id, tenant_id, class_id, context_title)
           values ($1, $2, $3, $4, $5)`,
          [link.registrationId, link.contextId, link.tenantId, classId, link.contextTitle],
        );
        return { classId, created: true };
      });
    },
  };
}

export type LaunchesRepository = ReturnType<typeof launchesRepository>;
