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

