-- LMS users (LTI 1.3 launches, docs/adr/014-lti.md) mapped to accounts of the district whose LMS
-- registration the launch came through: the platform's issuer and the user's `sub` are unique per
-- district (a platform's `sub` is stable for one user; the same LMS registered by two districts
-- never maps to the other's account). Kept apart from SSO's external_identities: an LMS is not a
-- district's sign-in provider, and an LTI `sub` must never open a sign-in by SSO (or the reverse).
create table lti_identities (
  id uuid primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  user_id uuid not null references users (id) on delete cascade,
  issuer text not null,
  client_id text not null,
  subject text not null,
  created_at timestamptz not null default now(),
  unique (tenant_id, issuer, subject)
);
create index lti_identities_user_id_idx on lti_identities (user_id);
