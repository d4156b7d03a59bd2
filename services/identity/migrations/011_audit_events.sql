-- Audit entries for the district's own administration (docs/adr/009-privacy-operations.md):
-- invitations sent, accepted and revoked, and roster imports applied. `event` names what happened
-- (null for an entry of an audited route, which its resource says), `details` its facts
-- (an invited address and role, an import's id and counts). Names are not stored: the log is read
-- with the names people have then (a renamed or deleted person reads as they are now).
alter table audit_log add column event text;
alter table audit_log add column details jsonb not null default '{}'::jsonb;
