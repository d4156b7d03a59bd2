-- A level raised by practice records which practice attempt raised it (from
-- 1), so a teacher can tell a first-try mastery from a third. Null for a result that was never
-- raised, and for results raised before this migration (the attempt was not known then).
alter table results add column raised_attempt integer;
alter table results add constraint results_raised_attempt_check check (
  raised_attempt is null or (raised_attempt >= 1 and raised_by is not null)
);
