-- A save and a submit of the same student and assessment never interleave, so an acknowledged
-- answer is always counted in the result and no answer changes after it:
--   * a submit takes the (student, assessment) lock exclusively before it reads the answers and
--     holds it until its result commits;
--   * every write of a response first takes the same lock shared, then is skipped (the row is
--     not written) when the result exists by then. The save's caller sees no row come back and
--     answers "already submitted".
-- The check is in a volatile function, so its query sees a result committed while it waited.
-- Names resolve through the service's search_path.

create function submission_lock_key(student uuid, assessment uuid) returns bigint
  language sql immutable parallel safe
  return hashtextextended(student::text || assessment::text, 0);

create function responses_closed_after_submit() returns trigger
  language plpgsql volatile
  as $$
begin
  perform pg_advisory_xact_lock_shared(submission_lock_key(new.student_id, new.assessment_id));
  if exists (select 1 from results r where r.assessment_id = new.assessment_id and r.student_id = new.student_id) then
    return null;
  end if;
  return new;
end
$$;

create trigger responses_closed_after_submit
  before insert or update on responses
  for each row execute function responses_closed_after_submit();
