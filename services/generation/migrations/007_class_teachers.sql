-- Who teaches each class (issue 30, item 8): its owner and co-teachers from ClassCreated /
-- ClassUpdated (co_teacher_ids), gone with ClassDeleted. A teacher of an assessment's class reaches
-- its generation state, practice and recommendations; an assessment whose class has no row here
-- (classes not changed since this table came) keeps the rule of its creator (assessments.teacher_id).
create table class_teachers (
  class_id uuid primary key,
  tenant_id uuid not null,
  teacher_id uuid not null,
  co_teacher_ids uuid[] not null default '{}'
);
