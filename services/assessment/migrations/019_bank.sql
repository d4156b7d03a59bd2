-- The item bank (#30 item 1, docs/architecture.md "The item bank"): questions teachers keep to
-- find again and add to any assessment. An item is a teacher's content, not student data.
-- Adding items to an assessment copies them into `questions`: editing or deleting an item later
-- never changes an assessment (nor the results that point at its questions).
--
-- visibility: private (its author only), school (teachers sharing a school with the author: the
-- schools of the author's classes when it was shared, kept in school_ids), district (every
-- teacher of the tenant). Individual accounts keep private items only (people.tenant_kind).
create table bank_items (
  id uuid primary key,
  tenant_id uuid not null,
  author_id uuid not null,
  visibility text not null check (visibility in ('private', 'school', 'district')),
  school_ids text[] not null default '{}',
  question_text text not null,
  question_type text not null,
  options text[] not null default '{}',
  correct_answer text not null,
  accepted_answers text[] not null default '{}',
  points double precision not null default 1,
  subject text not null default '',
  grade text not null default '',
  -- The free-text labels of the assessment it came from (or given with it).
  topic text not null default '',
  standard text not null default '',
  -- Copies of the CASE items it is aligned to: [{identifier, code, uri, frameworkId}].
  standards jsonb not null default '[]',
  -- What the standard filter matches, lower case: the identifiers and codes of `standards` and the
  -- `standard` label.
  standard_keys text[] not null default '{}',
  -- The question it was saved from (none: written for the bank); no foreign key, the question may go.
  source_question_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search tsvector generated always as (
    setweight(to_tsvector('english', question_text), 'A')
      || setweight(to_tsvector('english', topic || ' ' || standard), 'B')
      || setweight(to_tsvector('simple', subject), 'C')
  ) stored
);
-- Newest first within a tenant (the listing without words, and the order of every search).
create index bank_items_tenant_recent on bank_items (tenant_id, updated_at desc, id desc);
create index bank_items_author_recent on bank_items (tenant_id, author_id, updated_at desc, id desc);
create index bank_items_type_recent on bank_items (tenant_id, question_type, updated_at desc, id desc);
create index bank_items_subject_recent on bank_items (tenant_id, lower(subject), updated_at desc, id desc);
create index bank_items_grade_recent on bank_items (tenant_id, grade, updated_at desc, id desc);
create index bank_items_search on bank_items using gin (search);
create index bank_items_standard_keys on bank_items using gin (standard_keys);

-- The kind of the person's tenant (district, school, individual; empty: not told yet), from
-- UserRegistered/UserUpdated: an individual account's bank is private only.
alter table people add column tenant_kind text not null default '';
