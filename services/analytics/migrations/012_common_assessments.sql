-- The roll-up of a district's common assessments (GET /api/common-assessments/{id}/report): each
-- class's school (class events), which assessments are a class's copy of which common assessment
-- (AssessmentCreated.common_assessment_id), and the standards of those copies' questions
-- (QuestionsChanged), so results and answers group by school, class and standard.
create table class_schools (
  class_id uuid primary key,
  tenant_id uuid not null,
  school_id text not null default '',
  school_name text not null default '',
  grades text[] not null default '{}'
);
create index class_schools_tenant on class_schools (tenant_id);

create table common_assessment_copies (
  assessment_id uuid primary key,
  common_assessment_id uuid not null,
  tenant_id uuid not null,
  class_id uuid not null
);
create index common_assessment_copies_common on common_assessment_copies (tenant_id, common_assessment_id);

create table common_question_standards (
  assessment_id uuid not null references common_assessment_copies (assessment_id) on delete cascade,
  question_id uuid not null,
  tenant_id uuid not null,
  identifier text not null,
  code text not null,
  primary key (assessment_id, question_id, identifier)
);
