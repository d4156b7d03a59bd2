-- The admin dashboard's people counts agree with the district's Users page: a removed
-- (disabled) account is no longer counted, and "teachers" are the accounts whose role is teacher
-- (admins were counted as teachers too). people.disabled follows identity's UserUpdated.disabled;
-- the running figures are counted again from the people rows once, here.
alter table people add column disabled boolean not null default false;

update tenant_figures f
   set users = coalesce(p.users, 0), teachers = coalesce(p.teachers, 0), students = coalesce(p.students, 0)
  from (select t.tenant_id,
               count(pe.user_id) filter (where not pe.disabled)::int as users,
               count(pe.user_id) filter (where not pe.disabled and pe.role = 'teacher')::int as teachers,
               count(pe.user_id) filter (where not pe.disabled and pe.role = 'student')::int as students
          from tenant_figures t left join people pe on pe.tenant_id = t.tenant_id
         group by t.tenant_id) p
 where p.tenant_id = f.tenant_id;
