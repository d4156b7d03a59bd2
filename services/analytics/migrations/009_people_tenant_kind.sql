-- The kind of each person's tenant (identity's tenant_kind: district, school or individual), so
-- that a teacher's views and exports show a student of another district or school (joined by code)
-- by name only, as the class service's member list does (docs/security.md). Null until an
-- event carrying it arrives.
alter table people add column tenant_kind text;
