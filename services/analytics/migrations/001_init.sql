-- Analytics: read models built only from the other services' events (identity, class, assessment,
-- generation). Nothing here is the source of truth: an empty schema and a new consumer group rebuild
-- all of it from the topics. The events inbox is the shared migration of packages/events, applied
-- first. Runs with search_path = the service schema. Times come from the events, never now(), so a
-- replay rebuilds the same rows.

create table people (
  user_id uuid primary key,
  tenant_id uuid not null,
  first_name text not null,
  last_name text not null,
  email text not null,
  role text not null,
  registered_at timestamptz not null
);
create index people_tenant_id_registered_at_idx on people (tenant_id, registered_at desc);
create index people_tenant_id_role_name_idx on people (tenant_id, role, last_name, first_name, user_id);

create table classes (
  class_id uuid primary key,
  tenant_id uuid not null,
  teacher_id uuid not null,
  name text not null,
  subject text not null,
  period text,
  archived boolean not null default false,
  created_at timestamptz not null
);
create index classes_teacher_id_idx on classes (teacher_id);
create index classes_tenant_id_idx on classes (tenant_id);

create table memberships (
  class_id uuid not null,
  student_id uuid not null,
  tenant_id uuid not null,
  joined_at timestamptz not null,
  primary key (class_id, student_id)
);
create index memberships_student_id_idx on memberships (student_id);

create table assessments (
  assessment_id uuid primary key,
  tenant_id uuid not null,
  class_id uuid not null,
  title text not null,
  description text not null default '',
  topic text not null default '',
  standard text not null default '',
  is_active boolean not null default true,
  created_at timestamptz not null
);
create index assessments_class_id_created_at_idx on assessments (class_id, created_at, assessment_id);
create index assessments_tenant_id_idx on assessments (tenant_id);

-- The current questions of each assessment (QuestionsChanged carries the full list).
create table questions (
  assessment_id uuid not null,
  question_id uuid not null,
  position integer not null,
  question_text text not null,
  question_type text not null,
  options text[] not null,
  correct_answer text not null,
  points double precision not null,
  primary key (assessment_id, question_id)
);

create table results (
  result_id uuid primary key,
  tenant_id uuid not null,
  class_id uuid not null,
  assessment_id uuid not null,
  student_id uuid not null,
  earned_points double precision not null,
  total_points double precision not null,
  percentage double precision not null,
  -- The server's level: below | at | above (raised by support practice).
  level text not null,
  submitted_at timestamptz not null
);
create index results_class_id_submitted_at_idx on results (class_id, submitted_at desc, result_id);
create index results_assessment_id_idx on results (assessment_id);
create index results_student_id_submitted_at_idx on results (student_id, submitted_at desc, result_id);
create index results_tenant_id_submitted_at_idx on results (tenant_id, submitted_at desc, result_id);

create table result_answers (
  result_id uuid not null references results (result_id) on delete cascade,
  question_id uuid not null,
  answer text not null,
  correct boolean not null,
  primary key (result_id, question_id)
);

-- Users deleted for good. Events of other topics about them may still arrive (a result submitted
-- just before the deletion): those are dropped, so a deleted student's data never comes back.
create table deleted_users (
  user_id uuid primary key,
  deleted_at timestamptz not null
);

-- Support and enrichment practice completed per student and assessment (generation's events).
create table practice_completions (
  assessment_id uuid not null,
  student_id uuid not null,
  type text not null,
  tenant_id uuid not null,
  attempts integer not null,
  best_score double precision not null,
  last_completed_at timestamptz not null,
  primary key (assessment_id, student_id, type)
);
create index practice_completions_student_id_idx on practice_completions (student_id);

-- Running figures kept with every change, so a district's dashboard and student list read a few rows
-- instead of aggregating a million results or 100,000 people: per tenant, and per student within a
-- tenant. Per tenant: its results (count, sum, by the server's level), its people by role (users;
-- teachers = teacher or admin; students), and its students with results by the band of their
-- average as each student's card shows it (the 80/60 bands of the rounded average, rounded to 6
-- decimals first so that the running sums' float noise cannot move a student across a band).
create table tenant_figures (
  tenant_id uuid primary key,
  results integer not null default 0,
  percentage_sum double precision not null default 0,
  below integer not null default 0,
  at integer not null default 0,
  above integer not null default 0,
  users integer not null default 0,
  teachers integer not null default 0,
  students integer not null default 0,
  students_above integer not null default 0,
  students_at integer not null default 0,
  students_below integer not null default 0
);

create table student_figures (
  tenant_id uuid not null,
  student_id uuid not null,
  results integer not null default 0,
  percentage_sum double precision not null default 0,
  primary key (tenant_id, student_id)
);
create index student_figures_student_id_idx on student_figures (student_id);
