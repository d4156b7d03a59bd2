-- Accommodations (issue 32, item 1): a student's testing accommodations, set once by a teacher of
-- one of their classes or their district's admin, applied to every assessment they take. One row
-- per student; no row is no accommodation. Not who set it: a teacher's erasure must not take the
-- student's accommodations with it (the privacy sweep follows every id a row holds).
create table accommodations (
  student_id      uuid primary key,
  tenant_id       uuid not null,
  read_aloud      boolean not null default false,
  -- Distractors a multiple-choice question shows fewer (0 to 2 of its 3).
  reduced_choices integer not null default 0 check (reduced_choices between 0 and 2),
  -- The time limit multiplied by this (1: as set); no_time_limit: none at all.
  extra_time      double precision not null default 1 check (extra_time >= 1 and extra_time <= 4),
  no_time_limit   boolean not null default false,
  large_text      boolean not null default false,
  high_contrast   boolean not null default false,
  line_guide      boolean not null default false,
  answer_masking  boolean not null default false,
  updated_at      timestamptz not null default now()
);
create index accommodations_tenant_idx on accommodations (tenant_id);
