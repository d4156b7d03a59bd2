-- One level per result (docs/adr/005-one-level-name-per-result.md): a result keeps the level its
-- score gave at submission next to the level it holds now. Support practice at mastery (a
-- support completion scoring at least 80 %) raises below to at; the result then records what it
-- was and what raised it, so every screen can show
-- "50 % · raised to At Standard by practice" instead of recomputing a level from the percentage.
-- Both are null for a result that was never raised.
alter table results add column original_level text;
alter table results add column raised_by text;
alter table results add constraint results_raised_check check (
  (original_level is null and raised_by is null)
  or (original_level in ('below', 'at', 'above') and raised_by in ('practice'))
);
-- Results raised before this migration: only support practice raises, and only below to at, so an
-- 'at' result scored under 80 % was raised.
update results set original_level = 'below', raised_by = 'practice'
 where performance_level = 'at' and percentage < 80;
