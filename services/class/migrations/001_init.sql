-- Class: classes (with join codes and archive state), memberships, a local copy of people's names
-- from identity's events, rate-limit counters, and nothing else: the events outbox/inbox are a shared migration
-- of packages/events applied first. Runs with
-- search_path = the service schema.

create table classes (
  id uuid primary key,
  tenant_id uuid not null,
  teacher_id uuid not null,
  name text not null,
  subject text not null,
  period text,
  join_code text not null unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  archived_at timestamptz,
  assessment_count integer not null default 0,
  below_standard integer not null default 0,
  at_standard integer not null default 0,
  above_standard integer not null default 0
);
create index classes_tenant_id_teacher_id_idx on classes (tenant_id, teacher_id);

create table memberships (
  id uuid primary key,
  class_id uuid not null references classes (id) on delete cascade,
  tenant_id uuid not null,
  student_id uuid not null,
  student_tenant_id uuid not null,
  joined_at timestamptz not null default now(),
  unique (class_id, student_id)
);
create index memberships_student_id_idx on memberships (student_id);

create table people (
  user_id uuid primary key,
  tenant_id uuid not null,
  first_name text not null,
  last_name text not null,
  email text not null,
  role text not null,
  updated_at timestamptz not null default now()
);

-- Layout required by rate-limiter-flexible's RateLimiterPostgres (created here, not by the library).
create table rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
