-- Co-teachers (issue 30, item 8): teachers the owner added to the class, who do everything its
-- teacher does except deleting the class or removing the owner. Ids of people (this service's
-- `people` copy: teachers of the owner's tenant, or, for an individual account, of another
-- individual account). Carried by ClassCreated/ClassUpdated (co_teacher_ids) to the services that
-- copy classes. The plan limits count the owner's classes only (teacher_id).
alter table classes add column co_teacher_ids uuid[] not null default '{}';
create index classes_co_teacher_ids_idx on classes using gin (co_teacher_ids);
