-- Saving an answer no longer locks the assessment row. A foreign key check takes a KEY SHARE lock
-- on the referenced row, and every answer of every student references the same assessment: at the
-- end of a lesson the whole class was queueing on one row, each lock a WAL record. The key was
-- redundant: the save checks that the question belongs to the assessment, and deleting an
-- assessment still deletes its answers through questions (on delete cascade, twice).
alter table responses drop constraint responses_assessment_id_fkey;
