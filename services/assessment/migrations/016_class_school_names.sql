-- The class copy keeps its school's name too (ClassCreated/ClassUpdated carry it), so the district
-- admin picks a common assessment's schools by name (GET /api/common-assessments/targets).
alter table classes add column school_name text not null default '';
