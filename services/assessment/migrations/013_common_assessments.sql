-- Common assessments (a district's benchmark): written by a district admin, published to the
-- teachers of chosen schools, grades and subjects, and assigned by each teacher to their classes as
-- a copy whose questions stay as published (assessments.common_assessment_id links the copy).
create table common_assessments (
  id uuid primary key,
  tenant_id uuid not null,
  -- No author column: the privacy sweep of a deleted account follows every uuid naming it, and
  -- would take the district's benchmark (and the classes' copies it links) with its author.
  title text not null,
  description text not null default '',
  topic text not null default '',
  standard text not null default '',
  -- draft: the admin may still change it; published: its questions are locked.
  status text not null default 'draft' check (status in ('draft', 'published')),
  -- Who it is published to: teachers with a class of one of these schools (school sourcedIds),
  -- grades and subjects; an empty list matches every class.
  target_schools text[] not null default '{}',
  target_grades text[] not null default '{}',
  target_subjects text[] not null default '{}',
  published_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index common_assessments_tenant on common_assessments (tenant_id, created_at desc);

-- Its questions, with the standards each is aligned to (copies of the catalogue's items, as
-- question_standards keeps them: identifier, code, uri, frameworkId).
create table common_assessment_questions (
  id uuid primary key,
  common_assessment_id uuid not null references common_assessments (id) on delete cascade,
  tenant_id uuid not null,
  position integer not null,
  question_text text not null,
  question_type text not null,
  options text[] not null default '{}',
  correct_answer text not null,
  accepted_answers text[] not null default '{}',
  points double precision not null,
  standards jsonb not null default '[]'
);
create index common_assessment_questions_parent on common_assessment_questions (common_assessment_id, position);

alter table assessments add column common_assessment_id uuid;
-- One copy per class of a common assessment.
create unique index assessments_common_per_class on assessments (class_id, common_assessment_id)
  where common_assessment_id is not null;

-- The class copy learns the class's school and grades (class events), to match publications.
alter table classes add column school_id text not null default '';
alter table classes add column grades text[] not null default '{}';
