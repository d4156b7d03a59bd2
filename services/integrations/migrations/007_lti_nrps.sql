-- Names and Role Provisioning Services (docs/adr/014-lti.md, "Rosters from the LMS (NRPS)").
-- The course's membership URL, as the platform gave it in an instructor's launch (its
-- namesroleservice claim), kept with the link of that course to its class; and what the last sync
-- of the course's members into the class did (counts only: no person is named here).
alter table lti_context_links add column memberships_url text;
alter table lti_context_links add column roster_synced_at timestamptz;
alter table lti_context_links add column roster_sync_outcome jsonb;
create index lti_context_links_tenant_class_idx on lti_context_links (tenant_id, class_id);
