-- Standards frameworks imported from 1EdTech CASE packages (CFDocument + CFItems), and the
-- standards an assessment and each of its questions are aligned to (docs/adr/012-standards.md).
--
-- A framework belongs to one tenant (a district imports its state's frameworks), or to none:
-- tenant_id null is a platform framework, imported by the operator's CLI for every tenant.
-- Re-importing a package updates its items by CFItem identifier; an item the new package no
-- longer holds is withdrawn (withdrawn_at set), never deleted, so old alignments stay readable.
create table standard_frameworks (
  id uuid primary key,
  tenant_id uuid,
  -- CFDocument.identifier
  document_identifier text not null,
  title text not null,
  creator text not null default '',
  version text not null default '',
  uri text not null default '',
  subjects text[] not null default '{}',
  adoption_status text not null default '',
  item_count integer not null default 0,
  imported_by uuid,
  imported_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One framework per CFDocument per tenant (and one platform-wide).
create unique index standard_frameworks_document_key
  on standard_frameworks (coalesce(tenant_id, '00000000-0000-0000-0000-000000000000'::uuid), document_identifier);

create table standard_items (
  id uuid primary key,
  framework_id uuid not null references standard_frameworks (id) on delete cascade,
  tenant_id uuid,
  -- CFItem.identifier
  identifier text not null,
  -- CFItem.humanCodingScheme, e.g. CCSS.Math.Content.6.RP.A.1
  code text not null,
  statement text not null,
  uri text not null default '',
  item_type text not null default '',
  education_levels text[] not null default '{}',
  withdrawn_at timestamptz,
  updated_at timestamptz not null default now(),
  search tsvector generated always as (
    setweight(to_tsvector('simple', code), 'A') || setweight(to_tsvector('english', statement), 'B')
  ) stored,
  unique (framework_id, identifier)
);
create index standard_items_tenant_code on standard_items (tenant_id, lower(code) text_pattern_ops);
create index standard_items_identifier on standard_items (identifier);
create index standard_items_search on standard_items using gin (search);

-- The standards a teacher chose when creating the assessment (copies: what was chosen stays
-- readable if the framework is re-imported or withdrawn).
create table assessment_standards (
  assessment_id uuid not null references assessments (id) on delete cascade,
  tenant_id uuid not null,
  position integer not null,
  identifier text not null,
  code text not null,
  uri text not null default '',
  statement text not null default '',
  framework_id uuid,
  primary key (assessment_id, identifier)
);

-- Each question's alignment (zero or more standards), copied in the same way.
create table question_standards (
  question_id uuid not null references questions (id) on delete cascade,
  tenant_id uuid not null,
  identifier text not null,
  code text not null,
  uri text not null default '',
  framework_id uuid,
  primary key (question_id, identifier)
);
create index question_standards_tenant on question_standards (tenant_id);
