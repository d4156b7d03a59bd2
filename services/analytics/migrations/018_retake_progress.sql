-- Live progress of retakes and reopenings (issue 30 item 6; docs/architecture.md, "Retakes and
-- reopening"). attempt_progress stands for the student's latest attempt while it is not the
-- attempt of the result kept in results (the counted one): attempt says which attempt it is;
-- answered and started_at are null until the student saves an answer of it (a retake granted,
-- not started); submitted_at is set when that attempt was submitted and does not count (results
-- keeps the counted one), so the live view shows its submission. A row of an attempt not later
-- than the kept result's is no progress (the reads and writes compare the attempts).
alter table attempt_progress
  add column attempt integer not null default 1 check (attempt >= 1),
  add column submitted_at timestamptz,
  alter column answered drop not null,
  alter column started_at drop not null;
