-- An assessment's window (docs/architecture.md, "Open and close times"): students may open and
-- answer it from opens_at and until closes_at (either null: no bound), by the database's clock.
-- After closes_at no answer is saved; each attempt with saved answers and no result is submitted
-- for its student by the service's close sweep (or by the student), so what was saved counts.
alter table assessments add column opens_at timestamptz;
alter table assessments add column closes_at timestamptz;
alter table assessments add constraint assessments_window_order check (opens_at is null or closes_at is null or closes_at > opens_at);
-- The close sweep's lookup: assessments whose window has closed.
create index assessments_closes_at on assessments (closes_at) where closes_at is not null;
