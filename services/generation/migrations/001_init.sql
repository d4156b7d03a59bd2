-- Generation: local copies of assessments (from assessment events), class memberships (from class
-- events) and submitted results; generation jobs; cached practice material and recommendations;
-- rate-limit counters; nothing else: the events outbox/inbox are a shared migration of packages/events
-- applied first. Runs with search_path = the service schema.
-- No foreign keys between the copies: events of different topics arrive in any order.

create table assessments (
  id uuid primary key,
  tenant_id uuid not null,
  class_id uuid not null,
  teacher_id uuid not null,
  title text not null,
  description text not null default '',
  topic text not null default '',
  standard text not null default '',
  content text not null default '',
  -- The current questions (QuestionsChanged), as [{id, text, type, options, correctAnswer, points}].
  questions jsonb not null default '[]',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index assessments_class_id_idx on assessments (class_id);

create table class_members (
  class_id uuid not null,
  student_id uuid not null,
  tenant_id uuid not null,
  primary key (class_id, student_id)
);

-- queued -> running -> succeeded | failed (-> queued on retry). lease_id guards completion after
-- a stale job was claimed again.
create table generation_jobs (
  id uuid primary key,
  assessment_id uuid not null unique,
  tenant_id uuid not null,
  teacher_id uuid not null,
  status text not null,
  provider text not null,
  question_type text not null,
  question_count integer not null,
  attempts integer not null default 0,
  error_reason text,
  error_message text,
  next_run_at timestamptz not null default now(),
  lease_id uuid,
  locked_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index generation_jobs_runnable_idx on generation_jobs (next_run_at) where status in ('queued', 'running');

create table practice_materials (
  assessment_id uuid not null,
  type text not null,
  tenant_id uuid not null,
  provider text not null,
  reading text not null,
  -- [{id, question, type, options, correctAnswer}]
  questions jsonb not null,
  created_at timestamptz not null default now(),
  primary key (assessment_id, type)
);

create table results (
  id uuid primary key,
  assessment_id uuid not null,
  tenant_id uuid not null,
  class_id uuid not null,
  student_id uuid not null,
  percentage double precision not null,
  level text not null,
  -- [{questionId, answer, correct}]
  answers jsonb not null,
  submitted_at timestamptz not null default now()
);
create index results_assessment_id_idx on results (assessment_id);

-- Result-based practice: built once from the result's wrong answers; the latest attempt.
create table result_practice (
  result_id uuid primary key,
  assessment_id uuid not null,
  tenant_id uuid not null,
  type text not null,
  provider text not null,
  reading text not null,
  questions jsonb not null,
  attempt_answers jsonb,
  attempt_score integer,
  attempted_at timestamptz,
  created_at timestamptz not null default now()
);
create index result_practice_assessment_id_idx on result_practice (assessment_id);

-- Teacher guidance; regenerated when the results it was based on change (basis).
create table recommendations (
  assessment_id uuid not null,
  type text not null,
  tenant_id uuid not null,
  basis text not null,
  provider text not null,
  text text not null,
  generated_at timestamptz not null default now(),
  primary key (assessment_id, type)
);

-- Layout required by rate-limiter-flexible's RateLimiterPostgres (created here, not by the library).
create table rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
