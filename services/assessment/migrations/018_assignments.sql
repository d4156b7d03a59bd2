-- One assessment, many classes; a class or chosen students of it (docs/architecture.md,
-- "Assigning"): each row gives the assessment to the members of one class, or only to the
-- students listed (whole_class false: student_ids only; true: every member, later joiners too). A student takes
-- it through the first of their classes it is assigned to. whole_class is its own column, not an
-- empty list: erasing the last chosen student (the privacy sweep takes ids out of arrays) must
-- leave nobody, not the whole class. An assessment's own class (class_id)
-- stays its home: its teacher's list, its edit page.
create table assessment_assignments (
  assessment_id uuid not null references assessments (id) on delete cascade,
  class_id uuid not null,
  tenant_id uuid not null,
  whole_class boolean not null,
  student_ids uuid[] not null default '{}',
  assigned_at timestamptz not null default now(),
  primary key (assessment_id, class_id)
);
create index assessment_assignments_class on assessment_assignments (class_id);

-- Every assessment assigned before: to its whole class, from when it was.
insert into assessment_assignments (assessment_id, class_id, tenant_id, whole_class, assigned_at)
select id, class_id, tenant_id, true, assigned_at from assessments where assigned_at is not null;
