-- Per-assessment practice (support-completion) is scored on a shared, fixed set of items and can
-- raise the student's level: its submits are counted per student, assessment and type, and
-- bounded, so the score is no oracle for the key (docs/security.md, "Result practice").
create table practice_attempts (
  assessment_id uuid not null,
  tenant_id uuid not null,
  student_id uuid not null,
  type text not null,
  attempts integer not null default 0,
  updated_at timestamptz not null default now(),
  primary key (assessment_id, student_id, type)
);
