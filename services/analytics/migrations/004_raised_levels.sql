-- One level per result (docs/adr/005): next to the level a result holds now (`level`), the
-- level its score gave at submission and what raised it since. ResultLevelRaised (support practice
-- at mastery) sets both; they stay null for a result that was never raised. Every screen and export
-- shows `level` and, when raised, "raised to … by practice" beside the original score.
alter table results add column original_level text;
alter table results add column raised_by text;
-- Rows raised before this migration: only support practice raises, and only below to at, so an
-- 'at' result scored under 80 % was raised. (A rebuild from the topics sets them from the events.)
update results set original_level = 'below', raised_by = 'practice' where level = 'at' and percentage < 80;
