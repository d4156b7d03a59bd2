-- Authoring: a short answer may list accepted alternatives besides its key (each
-- compared after the same normalisation as the key), and questions keep their order in
-- `position`, which a teacher now changes. The lifecycle (draft, assigned, closed) is derived
-- from assigned_at and is_active, so it needs no column.
alter table questions add column accepted_answers text[] not null default '{}';
