-- Mastery of standards over time (docs/architecture.md, "Mastery of standards"; docs/adr/012).
-- question_standards: each question's alignment as QuestionsChanged last carried it (copies).
-- mastery_evidence: one row per result and aligned standard: the points the result earned on the
-- standard's aligned questions it scored, over their points (score 0–100), with its time.
-- student_mastery: the running mastery (decaying average, src/domain/mastery.ts) of each student and
-- standard within each class, recomputed from that student's evidence whenever it changes.
-- class_mastery_figures: per class and standard, its students' count, score sum and levels, moved
-- with every student_mastery change, so the district view reads one row per class and standard.
-- All of it is rebuilt by replay like the rest of the read model.

create table question_standards (
  assessment_id uuid not null,
  question_id uuid not null,
  identifier text not null,
  code text not null,
  uri text not null default '',
  framework_id text not null default '',
  primary key (assessment_id, question_id, identifier)
);

create table mastery_evidence (
  result_id uuid not null,
  identifier text not null,
  code text not null,
  tenant_id uuid not null,
  student_id uuid not null,
  class_id uuid not null,
  assessment_id uuid not null,
  earned double precision not null,
  total double precision not null check (total > 0),
  score double precision not null check (score between 0 and 100),
  submitted_at timestamptz not null,
  primary key (result_id, identifier)
);
create index mastery_evidence_student_idx on mastery_evidence (student_id, class_id, identifier, submitted_at, result_id);
create index mastery_evidence_assessment_idx on mastery_evidence (assessment_id);
create index mastery_evidence_tenant_time_idx on mastery_evidence (tenant_id, submitted_at);

create table student_mastery (
  class_id uuid not null,
  student_id uuid not null,
  identifier text not null,
  tenant_id uuid not null,
  code text not null,
  score double precision not null,
  level text not null check (level in ('below', 'at', 'above')),
  evidence_count integer not null,
  last_evidence_at timestamptz not null,
  primary key (class_id, student_id, identifier)
);
create index student_mastery_student_idx on student_mastery (student_id);

create table class_mastery_figures (
  class_id uuid not null,
  identifier text not null,
  tenant_id uuid not null,
  code text not null,
  students integer not null default 0,
  score_sum double precision not null default 0,
  below integer not null default 0,
  at integer not null default 0,
  above integer not null default 0,
  primary key (class_id, identifier)
);
create index class_mastery_figures_tenant_idx on class_mastery_figures (tenant_id, identifier);
