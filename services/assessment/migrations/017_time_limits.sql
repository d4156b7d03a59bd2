-- A time limit per attempt (docs/architecture.md, "Time limits"): when set, a student's attempt
-- starts when they first open the questions (attempt_starts, the database's clock) and takes
-- answers until started_at + time_limit_seconds; then the close sweep submits what was saved.
alter table assessments add column time_limit_seconds integer
  check (time_limit_seconds is null or time_limit_seconds between 60 and 86400);

create table attempt_starts (
  assessment_id uuid not null references assessments (id) on delete cascade,
  student_id uuid not null,
  tenant_id uuid not null,
  started_at timestamptz not null default now(),
  primary key (assessment_id, student_id)
);
create index attempt_starts_started_at on attempt_starts (started_at);
create index attempt_starts_student on attempt_starts (student_id);
