-- Practice material follows the lesson: the basis is a digest of what it was written from (title,
-- topic, content, questions), and material whose basis no longer matches is written again. Rows
-- from before have no basis ('') and are rewritten on their next read.
alter table practice_materials add column basis text not null default '';
