-- Retakes and reopening (docs/architecture.md, "Retakes and reopening").
--   * An assessment allows max_attempts attempts per student (1: no retake) and says which
--     attempt counts: the latest submitted, or the best by percentage (a tie: the later one).
--   * A result is one attempt (attempt, from 1). A retake marks the student's result superseded
--     (an earlier attempt, kept with its review) and clears their answers and attempt start, so
--     the student answers afresh; the next submission is the next attempt. At most one result per
--     student and assessment is not superseded: the current attempt's, the one that closes it to
--     answers (migration 002's trigger, redefined below).
--   * counted: the one result per student and assessment that counts, kept by the one rule in
--     data-access/student-attempts.repository.ts (COUNTED_ORDER).
alter table assessments
  add column max_attempts integer not null default 1 check (max_attempts between 1 and 10),
  add column counted_attempt text not null default 'latest' check (counted_attempt in ('latest', 'best'));

alter table results
  add column attempt integer not null default 1 check (attempt >= 1),
  add column superseded boolean not null default false,
  add column counted boolean not null default true;

alter table results drop constraint results_assessment_id_student_id_key;
create unique index results_current_attempt on results (assessment_id, student_id) where not superseded;
create unique index results_attempt on results (assessment_id, student_id, attempt);

create or replace function responses_closed_after_submit() returns trigger
  language plpgsql volatile
  as $$
begin
  perform pg_advisory_xact_lock_shared(submission_lock_key(new.student_id, new.assessment_id));
  if exists (select 1 from results r
              where r.assessment_id = new.assessment_id and r.student_id = new.student_id and not r.superseded) then
    return null;
  end if;
  return new;
end
$$;
