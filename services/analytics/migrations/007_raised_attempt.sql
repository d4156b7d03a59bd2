-- The practice attempt (from 1) that raised a result's level, from
-- ResultLevelRaised, shown next to the raised level ("raised by practice (2nd try)"). Null when
-- the result was not raised or the attempt was not known.
alter table results add column raised_attempt integer;
