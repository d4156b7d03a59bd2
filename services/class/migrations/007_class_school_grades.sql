-- A class's school and grades (docs/adr/010-oneroster-import.md): from a district's roster
-- (identity's RosterClassSynced: the school's org sourcedId and name, classes.csv grades), empty
-- for a class a teacher creates by hand. Common assessments are published to teachers by them.
alter table classes add column school_id text not null default '';
alter table classes add column school_name text not null default '';
alter table classes add column grades text[] not null default '{}';
