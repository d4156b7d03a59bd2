-- A student's "reduced answer choices" accommodation (the assessment service's
-- AccommodationsChanged, issue 32): the practice this service serves shows that student the key
-- and fewer distractors, as their assessments do. Only the one setting practice needs is kept.
create table student_accommodations (
  student_id uuid primary key,
  tenant_id uuid not null,
  reduced_choices integer not null check (reduced_choices >= 0),
  updated_at timestamptz not null default now()
);
