-- Live progress of attempts not yet submitted (AttemptProgressed): how many questions each student
-- has answered, never what. A row stands for an attempt in progress: the result (ResultSubmitted)
-- replaces it, and the reads show a student with a result as submitted whatever is here.
create table attempt_progress (
  assessment_id uuid not null,
  student_id uuid not null,
  tenant_id uuid not null,
  class_id uuid not null,
  answered integer not null,
  question_count integer not null,
  started_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (assessment_id, student_id)
);
create index attempt_progress_class_id_idx on attempt_progress (class_id);
create index attempt_progress_student_id_idx on attempt_progress (student_id);
create index attempt_progress_tenant_id_updated_at_idx on attempt_progress (tenant_id, updated_at);
