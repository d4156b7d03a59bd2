-- LTI Assignment and Grade Services (docs/adr/014-lti.md, "Scores to the LMS (AGS)"): the line
-- item of each student's resource link, the results that count, and the queue of scores posted to
-- the platform. Runs with search_path = integrations.

-- A student's resource-link launch that carried the AGS claim and a Checkpoint assessment (the
-- custom `checkpoint_assessment_id`): their scores for that assessment go to that line item.
-- Personal data (user_id, lms_user_id): in the student's export and erasure.
create table lti_ags_links (
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  resource_link_id text not null,
  user_id uuid not null,
  tenant_id uuid not null,
  deployment_id text not null,
  assessment_id uuid not null,
  lineitem_url text not null,
  lineitems_url text,
  scopes text[] not null,
  lms_user_id text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (registration_id, resource_link_id, user_id)
);
create index lti_ags_links_assessment_user_idx on lti_ags_links (assessment_id, user_id);
create index lti_ags_links_user_id_idx on lti_ags_links (user_id);

-- The result of a student that counts for an assessment (assessment's ResultSubmitted,
-- CountedResultChanged, ResultRegraded, ResultWithdrawn): what a line item linked later receives,
-- and what a regrade of that result changes.
create table lti_counted_results (
  assessment_id uuid not null,
  user_id uuid not null,
  tenant_id uuid not null,
  class_id uuid not null,
  result_id uuid not null,
  earned_points double precision not null,
  total_points double precision not null,
  pending_count integer not null,
  scored_at timestamptz not null,
  primary key (assessment_id, user_id)
);
create index lti_counted_results_result_id_idx on lti_counted_results (result_id);
create index lti_counted_results_user_id_idx on lti_counted_results (user_id);

-- Which class an assessment belongs to, and who teaches each class (assessment's and class's
-- events): a teacher sees and resends the scores of their classes' assessments only.
create table lti_assessment_classes (
  assessment_id uuid primary key,
  tenant_id uuid not null,
  class_id uuid not null
);
create table lti_class_teachers (
  class_id uuid primary key,
  tenant_id uuid not null,
  teacher_ids uuid[] not null
);

-- Scores waiting for, or given to, the platform's score service ({lineitem}/scores). At most one
-- unsent score per student and line item: a newer one replaces it (a score of an older timestamp
-- never replaces a newer one). `pending` waits for next_attempt_at (exponential backoff after a
-- failure, last_error says why); `failed` gave up (attempts used up, or an address the egress rules
-- refuse) until a teacher resends it; `sent` keeps the newest one sent per student and line item.
create table lti_score_queue (
  id uuid primary key,
  tenant_id uuid not null,
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  lineitem_url text not null,
  user_id uuid not null,
  lms_user_id text not null,
  assessment_id uuid not null,
  class_id uuid not null,
  result_id uuid,
  score_given double precision,
  score_maximum double precision,
  activity_progress text not null,
  grading_progress text not null,
  score_timestamp timestamptz not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  sent_at timestamptz,
  created_at timestamptz not null default clock_timestamp(),
  updated_at timestamptz not null default now()
);
create unique index lti_score_queue_unsent_key on lti_score_queue (registration_id, lineitem_url, user_id)
  where status <> 'sent';
create index lti_score_queue_due_idx on lti_score_queue (next_attempt_at, created_at) where status = 'pending';
create index lti_score_queue_assessment_idx on lti_score_queue (assessment_id, created_at);
create index lti_score_queue_tenant_failed_idx on lti_score_queue (tenant_id, updated_at) where status = 'failed';
create index lti_score_queue_user_id_idx on lti_score_queue (user_id);
