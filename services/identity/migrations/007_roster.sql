-- OneRoster CSV imports (a district's roster): each upload is validated into a plan that an admin
-- previews and then applies in the background; the rows that failed validation are kept to be read
-- and downloaded. roster_users / roster_classes map the file's sourcedIds to this service's users
-- and to the classes synced to the class service, so that re-importing a file changes nothing.
create table roster_imports (
  id uuid primary key,
  tenant_id uuid not null,
  created_by uuid not null,
  mode text not null check (mode in ('bulk', 'delta')),
  status text not null check (status in ('previewed', 'running', 'done', 'failed')),
  -- The validated rows (users, classes with their members, deletions), as applied.
  plan jsonb not null,
  -- Per file: new, updated, unchanged, deleted, invalid.
  counts jsonb not null,
  error_count integer not null default 0,
  progress_done integer not null default 0,
  progress_total integer not null default 0,
  failure text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index roster_imports_tenant_id_created_at_idx on roster_imports (tenant_id, created_at desc);

create table roster_import_errors (
  import_id uuid not null references roster_imports (id) on delete cascade,
  seq integer not null,
  file text not null,
  line integer not null,
  source_id text,
  field text,
  message text not null,
  primary key (import_id, seq)
);

create table roster_users (
  tenant_id uuid not null,
  source_id text not null,
  -- No foreign key to users: a mapping whose user is gone is ignored and replaced (roster.repository.ts).
  user_id uuid not null unique,
  primary key (tenant_id, source_id)
);

-- The last state of each class sent to the class service (RosterClassSynced): an unchanged class
-- is not sent again.
create table roster_classes (
  tenant_id uuid not null,
  source_id text not null,
  title text not null,
  subject text not null,
  period text,
  teacher_user_ids uuid[] not null default '{}',
  student_user_ids uuid[] not null default '{}',
  active boolean not null default true,
  synced_at timestamptz not null default now(),
  primary key (tenant_id, source_id)
);
