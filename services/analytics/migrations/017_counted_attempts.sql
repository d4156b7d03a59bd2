-- Retakes (docs/architecture.md, "Retakes and reopening"): results holds only the result that
-- counts of each student and assessment (ResultSubmitted with counted, CountedResultChanged
-- replacing it, ResultWithdrawn removing it), so every figure, grid, mastery evidence and item
-- statistic follows the counted attempt with no filter. attempt: which attempt it is (from 1).
alter table results add column attempt integer not null default 1 check (attempt >= 1);
