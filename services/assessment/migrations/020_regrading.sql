-- Grading by hand (docs/architecture.md, "Grading by hand"): the teacher of the class may give any
-- answer of a result other points (0 to the question's points) and written feedback, and write
-- feedback on the whole result. Each answer's points, feedback and "waiting for review" mark live
-- in the result's review (results.questions, one object per question: earnedPoints, feedback,
-- pending); the result's totals follow by the one rule (domain/scoring.ts).
--
-- review_short_answers: a short answer that matches neither the key nor an accepted answer is not
-- scored at submission but waits for the teacher (pending, 0 points until reviewed).
alter table assessments add column review_short_answers boolean not null default false;

alter table results
  add column feedback text check (feedback is null or char_length(feedback) <= 5000),
  add column pending_review integer not null default 0 check (pending_review >= 0),
  add column regraded_at timestamptz;
create index results_pending_review on results (assessment_id) where pending_review > 0;

-- Every change of a mark or of feedback, as it was made: who, when, the points before (null: the
-- answer was waiting for review) and after, and the feedback written. question_id null: the
-- result's overall feedback. Student data: exported and erased with the student (the generic
-- sweep finds student_id), deleted with its result and by the retention period.
create table result_regrades (
  id uuid primary key,
  result_id uuid not null references results (id) on delete cascade,
  tenant_id uuid not null,
  assessment_id uuid not null,
  student_id uuid not null,
  question_id uuid,
  graded_by uuid not null,
  old_points double precision,
  new_points double precision,
  feedback text check (feedback is null or char_length(feedback) <= 5000),
  created_at timestamptz not null default now()
);
create index result_regrades_result on result_regrades (result_id, created_at);
create index result_regrades_created_at on result_regrades (created_at);
create index result_regrades_student on result_regrades (student_id);
