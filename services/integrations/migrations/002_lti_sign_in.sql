-- Sign-in from a launch and the LMS course's class (docs/adr/014-lti.md).

-- Whether the district lets the LMS's Administrator role make a Checkpoint district admin (off:
-- an LMS administrator is a teacher in Checkpoint).
alter table lti_registrations add column admin_role_from_lms boolean not null default false;

-- The state's browser binding: the SHA-256 of the value of a cookie set at login (SameSite=None,
-- path /api/lti only); checked at launch when the browser sends it back (null: none was set).
alter table lti_login_states add column binding_hash text;

-- The Checkpoint account a launch signed in, and the class it reached (personal data: swept with
-- the user by the privacy operations, which find rows by the user id).
alter table lti_launches add column user_id uuid;
alter table lti_launches add column class_id uuid;
create index lti_launches_user_id_idx on lti_launches (user_id);

-- An LMS course (context) linked to the Checkpoint class created at its first instructor launch.
-- Keyed by the registration, which belongs to one district: a launch of district A can only ever
-- reach a link of A's registrations, hence A's class.
create table lti_context_links (
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  context_id text not null,
  tenant_id uuid not null,
  class_id uuid not null,
  context_title text,
  created_at timestamptz not null default now(),
  primary key (registration_id, context_id)
);
create index lti_context_links_tenant_id_idx on lti_context_links (tenant_id);
