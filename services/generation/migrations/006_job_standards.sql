-- The standards a generation job writes for (AssessmentCreated's GenerationRequest.standards, with
-- their statements): [{identifier, code, statement}]. Every generated item may name only these
-- (docs/adr/012-standards.md). Existing jobs had none.
alter table generation_jobs add column standards jsonb not null default '[]';
