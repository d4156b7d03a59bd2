-- Assessment: local copies of classes, memberships and people (from class and identity events),
-- assessments with their generation state, questions, students' responses and scored results,
-- and nothing else: the events outbox/inbox are a shared migration
-- of packages/events applied first. Runs with search_path = the service schema.

create table classes (
  class_id uuid primary key,
  tenant_id uuid not null,
  teacher_id uuid not null,
  name text not null,
  subject text not null,
  archived boolean not null default false,
  updated_at timestamptz not null default now()
);
create index classes_tenant_id_teacher_id_idx on classes (tenant_id, teacher_id);

create table memberships (
  class_id uuid not null,
  student_id uuid not null,
  tenant_id uuid not null,
  joined_at timestamptz not null default now(),
  primary key (class_id, student_id)
);
create index memberships_student_id_idx on memberships (student_id);

create table people (
  user_id uuid primary key,
  tenant_id uuid not null,
  first_name text not null,
  last_name text not null,
  updated_at timestamptz not null default now()
);

create table assessments (
  id uuid primary key,
  tenant_id uuid not null,
  class_id uuid not null,
  teacher_id uuid not null,
  title text not null,
  description text not null default '',
  topic text not null,
  standard text not null,
  due_date timestamptz,
  is_active boolean not null default true,
  assigned_at timestamptz,
  content_to_assess text not null,
  question_type text not null,
  number_of_questions integer not null,
  generation_status text not null,
  generation_provider text,
  generation_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index assessments_tenant_id_teacher_id_idx on assessments (tenant_id, teacher_id);
create index assessments_class_id_idx on assessments (class_id);

create table questions (
  id uuid primary key,
  assessment_id uuid not null references assessments (id) on delete cascade,
  tenant_id uuid not null,
  position integer not null,
  question_text text not null,
  question_type text not null,
  options text[] not null,
  correct_answer text not null,
  points double precision not null default 1,
  created_at timestamptz not null default now()
);
create index questions_assessment_id_position_idx on questions (assessment_id, position);

create table responses (
  id uuid primary key,
  assessment_id uuid not null references assessments (id) on delete cascade,
  question_id uuid not null references questions (id) on delete cascade,
  student_id uuid not null,
  tenant_id uuid not null,
  answer text not null,
  -- The browser's sequence number of the save: a late replay of an older save never wins.
  client_seq bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (question_id, student_id)
);
create index responses_assessment_id_student_id_idx on responses (assessment_id, student_id);

create table results (
  id uuid primary key,
  assessment_id uuid not null references assessments (id) on delete cascade,
  tenant_id uuid not null,
  class_id uuid not null,
  student_id uuid not null,
  total_points double precision not null,
  earned_points double precision not null,
  percentage double precision not null,
  performance_level text not null,
  correct_answers integer not null,
  incorrect_answers integer not null,
  total_questions integer not null,
  submitted_at timestamptz not null default now(),
  -- One submitted result per student per assessment.
  unique (assessment_id, student_id)
);
create index results_student_id_idx on results (student_id);
