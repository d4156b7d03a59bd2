-- The last state of a rostered class sent also keeps its school (sourcedId and name) and grades,
-- so that a change of only those is sent on the next import. Null: sent before this migration
-- (not known; such a state is not compared on them).
alter table roster_classes add column school_id text;
alter table roster_classes add column school_name text;
alter table roster_classes add column grades text[] not null default '{}';
