-- Co-teachers (issue 30, item 8): the class's co-teachers from ClassCreated/ClassUpdated
-- (co_teacher_ids). A co-teacher does with the class's assessments everything its teacher does.
alter table classes add column co_teacher_ids uuid[] not null default '{}';
create index classes_co_teacher_ids_idx on classes using gin (co_teacher_ids);
