-- One-off republishing of events after a contract gained a field (tenant_kind in UserRegistered /
-- UserUpdated): a row here means that backfill was done, so it runs once per database.
create table event_backfills (
  name text primary key,
  done_at timestamptz not null default now()
);
