-- The kind of each person's tenant (identity's tenant_kind: district, school or individual), so that
-- the Free Trial limits (3 classes, 50 students) apply to teachers of an individual tenant only. Null until an
-- event carrying it arrives: such a teacher counts as Free Trial.
alter table people add column tenant_kind text;
