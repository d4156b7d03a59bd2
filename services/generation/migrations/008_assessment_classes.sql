-- The classes an assessment is given to (AssessmentAssigned; an assignment only ever adds), so a
-- teacher of such a class who does not teach the assessment's own class reaches its support
-- material and recommendations (issue 30). Their recommendations are written from the results
-- taken in the classes they teach only: a recommendation is kept per scope, '' for the whole
-- assessment (a teacher of its class), else the sorted ids of the classes it was written for.
create table assessment_classes (
  assessment_id uuid not null,
  class_id uuid not null,
  tenant_id uuid not null,
  primary key (assessment_id, class_id)
);
create index assessment_classes_class_id_idx on assessment_classes (class_id);

alter table recommendations add column scope text not null default '';
alter table recommendations drop constraint recommendations_pkey;
alter table recommendations add primary key (assessment_id, type, scope);
