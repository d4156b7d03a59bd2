// NRPS (docs/adr/014-lti.md): the membership URL of an LMS course linked to a class, and what its
// last roster sync did. SQL only.
import type pg from 'pg';

/** A course linked to a class, with what the roster sync needs. */
export interface RosterLink {
  registrationId: string;
  contextId: string;
  tenantId: string;
  classId: string;
  contextTitle: string | null;
  membershipsUrl: string | null;
  rosterSyncedAt: string | null;
  rosterSyncOutcome: RosterSyncOutcome | null;
}

/** What the last sync did (counts and a refusal's code only: no person). */
export interface RosterSyncOutcome {
  ok: boolean;
  added: number;
  kept: number;
  skipped: number;
  error?: string | undefined;
}

const COLUMNS = `registration_id as "registrationId", context_id as "contextId", tenant_id as "tenantId",
  class_id as "classId", context_title as "contextTitle", memberships_url as "membershipsUrl",
  to_char(roster_synced_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "rosterSyncedAt",
  roster_sync_outcome as "rosterSyncOutcome"`;

export function rostersRepository(pool: pg.Pool) {
  return {
    /** The membership URL an instructor's launch of the course gave (the latest one wins). */
    async setMembershipsUrl(registrationId: string, contextId: string, url: string): Promise<void> {
      await pool.query(
        `update lti_context_links set memberships_url = $3
          where registration_id = $1 and context_id = $2 and memberships_url is distinct from $3`,
        [registrationId, contextId, url],
      );
    },

    /** The link of one course of a registration. */
    async byContext(registrationId: string, contextId: string): Promise<RosterLink | undefined> {
      const { rows } = await pool.query<RosterLink>(
        `select ${COLUMNS} from lti_context_links where registration_id = $1 and context_id = $2`,
        [registrationId, contextId],
      );
      return rows[0];
    },

    /** The courses linked to a class of the tenant (usually one). */
    async byClass(tenantId: string, classId: string): Promise<RosterLink[]> {
      const { rows } = await pool.query<RosterLink>(
        `select ${COLUMNS} from lti_context_links where tenant_id = $1 and class_id = $2 order by created_at, context_id`,
        [tenantId, classId],
      );
      return rows;
    },

    async recordSync(registrationId: string, contextId: string, outcome: RosterSyncOutcome): Promise<void> {
      await pool.query(
        `update lti_context_links set roster_synced_at = now(), roster_sync_outcome = $3::jsonb
          where registration_id = $1 and context_id = $2`,
        [registrationId, contextId, JSON.stringify(outcome)],
      );
    },
  };
}

export type RostersRepository = ReturnType<typeof rostersRepository>;
