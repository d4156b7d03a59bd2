-- Privacy operations (docs/adr/009-privacy-operations.md): retention period per district, the
-- admins' export/delete requests with the services' answers, and the append-only audit log.

-- How long the district keeps student activity; null = keep.
alter table tenants add column retention_days integer
  check (retention_days is null or retention_days between 30 and 3650);

-- A privacy request: a student's export, a student's deletion, a district's deletion. A deletion
-- keeps only the sha256 of the deleted id (subject_hash), never the id.
create table privacy_requests (
  id uuid primary key,
  kind text not null check (kind in ('export', 'delete_user', 'delete_tenant')),
  -- The requesting district; null once the district itself was deleted.
  tenant_id uuid,
  -- The exported student (exports only).
  subject_id uuid,
  subject_hash text,
  -- The admin who asked; null for the operator's command.
  requested_by uuid,
  expected_services text[] not null,
  created_at timestamptz not null default now()
);
create index privacy_requests_tenant_id_idx on privacy_requests (tenant_id, created_at desc);

-- The services' answers: an export's sections (in parts) or a deletion's confirmation.
create table privacy_request_answers (
  request_id uuid not null references privacy_requests (id) on delete cascade,
  service text not null,
  part integer not null default 0,
  parts integer not null default 1,
  -- A part of the section's JSON text (exports).
  json text,
  -- Rows deleted (deletions).
  rows bigint,
  received_at timestamptz not null default now(),
  primary key (request_id, service, part)
);

-- Who read or changed student data. Append-only: the trigger refuses UPDATE, DELETE and TRUNCATE
-- unless the transaction set checkpoint.audit_maintenance = 'on' (retention, a district's
-- deletion, and replacing a deleted student's id by its pseudonym).
create table audit_log (
  id bigserial primary key,
  at timestamptz not null default now(),
  tenant_id uuid not null,
  actor_id uuid,
  actor_role text not null,
  action text not null check (action in ('read', 'change', 'export', 'delete')),
  resource text not null,
  target_ids text[] not null default '{}',
  request_id text,
  client_address text,
  service text not null
);
create index audit_log_tenant_id_at_idx on audit_log (tenant_id, at desc, id desc);
create index audit_log_target_ids_idx on audit_log using gin (target_ids);

create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('checkpoint.audit_maintenance', true), '') = 'on' then
    if tg_op = 'DELETE' then
      return old;
    end if;
    return new;
  end if;
  raise exception 'audit_log is append-only (% refused)', tg_op using errcode = '42501';
end;
$$;

create trigger audit_log_no_update_delete before update or delete on audit_log
  for each row execute function audit_log_append_only();
create trigger audit_log_no_truncate before truncate on audit_log
  for each statement execute function audit_log_append_only();

-- Sessions of deleted accounts: their rows (which name the user) are deleted, but the gateways must
-- still refuse their access tokens until those expire, so the family ids (random, naming no one)
-- stay here for a day and are listed with the revoked sessions.
create table erased_sessions (
  family_id uuid primary key,
  revoked_at timestamptz not null
);
create index erased_sessions_revoked_at_idx on erased_sessions (revoked_at);

-- When the identity service's retention job last ran (once per interval across replicas).
create table privacy_jobs (
  name text primary key,
  last_run_at timestamptz not null
);
