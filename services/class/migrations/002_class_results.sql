-- Each student's results per class (from the assessment service's ResultSubmitted and
-- ResultLevelRaised), so that the class's below/at/above counts follow every student's latest level.
create table class_results (
  result_id uuid primary key,
  class_id uuid not null references classes (id) on delete cascade,
  assessment_id uuid not null,
  student_id uuid not null,
  level text not null,
  submitted_at timestamptz not null
);
create index class_results_class_id_student_id_idx on class_results (class_id, student_id);
create index class_results_assessment_id_idx on class_results (assessment_id);
