-- LTI Deep Linking 2.0 and resource links that open an assessment (docs/adr/014-lti.md, "Deep
-- linking").

-- A deep-linking launch names no resource link; the message type says which launch it was.
alter table lti_launches alter column resource_link_id drop not null;
alter table lti_launches add column message_type text not null default 'LtiResourceLinkRequest';

-- A teacher's pending deep-linking request: what the platform asked (its return URL and opaque
-- data) is kept here, never given to the browser to send back. Bound to the district and the
-- account the launch signed in; used once (deleted as the response is made, or as the prepared
-- response is delivered); not after it expires. The signed response waits here (response_jwt) for
-- the browser to fetch the auto-submitting form, once.
create table lti_deep_link_requests (
  id uuid primary key,
  tenant_id uuid not null,
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  user_id uuid not null,
  class_id uuid,
  deployment_id text not null,
  return_url text not null,
  data text,
  response_jwt text,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index lti_deep_link_requests_user_id_idx on lti_deep_link_requests (user_id);
create index lti_deep_link_requests_tenant_id_idx on lti_deep_link_requests (tenant_id);
create index lti_deep_link_requests_expires_at_idx on lti_deep_link_requests (expires_at);

-- What the tool knows of Checkpoint's assessments, from the assessment service's events
-- (AssessmentCreated, AssessmentUpdated, QuestionsChanged, AssessmentDeleted): a teacher's list to
-- pick from, the title and points of a content item, and where a resource link lands.
create table lti_assessments (
  assessment_id uuid primary key,
  tenant_id uuid not null,
  class_id uuid not null,
  teacher_id uuid not null,
  title text not null,
  total_points numeric not null default 0,
  updated_at timestamptz not null default now()
);
create index lti_assessments_teacher_idx on lti_assessments (tenant_id, teacher_id);
create index lti_assessments_class_idx on lti_assessments (class_id);
