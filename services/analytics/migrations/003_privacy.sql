-- Privacy operations (docs/adr/009-privacy-operations.md): each district's retention period
-- (from identity's TenantRetentionChanged) and when the retention job last ran (once per
-- PRIVACY_RETENTION_INTERVAL_MS across all replicas).
create table privacy_retention (
  tenant_id uuid primary key,
  retention_days integer not null check (retention_days between 30 and 3650),
  updated_at timestamptz not null default now()
);

create table privacy_jobs (
  name text primary key,
  last_run_at timestamptz not null
);

-- Deleted users are remembered by the sha256 of their id, not the id: a deleted student's id is
-- found in no table (late events about them are still dropped: the writers compare hashes).
alter table deleted_users add column user_hash text;
update deleted_users set user_hash = encode(sha256(convert_to(user_id::text, 'UTF8')), 'hex');
alter table deleted_users drop constraint deleted_users_pkey;
alter table deleted_users drop column user_id;
alter table deleted_users alter column user_hash set not null;
alter table deleted_users add primary key (user_hash);
