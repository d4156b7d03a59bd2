-- The classes each assessment is given to (AssessmentAssigned, one per class; docs/architecture.md,
-- "Assigning"): every member of the class, or only the students chosen there (only_chosen). A
-- class's grid and a student's reminders follow these rows, not the assessment's own class alone.
create table assessment_classes (
  assessment_id uuid not null,
  class_id uuid not null,
  tenant_id uuid not null,
  only_chosen boolean not null default false,
  student_ids uuid[] not null default '{}',
  assigned_at timestamptz not null,
  primary key (assessment_id, class_id)
);
create index assessment_classes_class_id_idx on assessment_classes (class_id);

-- What was assigned before: to its own class, wholly.
insert into assessment_classes (assessment_id, class_id, tenant_id, assigned_at)
select assessment_id, class_id, tenant_id, assigned_at from assessments where assigned_at is not null;
