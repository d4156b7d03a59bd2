-- The integrations service (docs/adr/014-lti.md): the LTI 1.3 tool's signing keys, each
-- district's LMS registrations, the OIDC login states waiting for their launch, the nonces already
-- used, and the launches received. Runs with search_path = integrations.

-- The tool's RS256 key pairs, as identity keeps its own (signing_keys): the newest active one
-- signs; a retired one stays published in /api/lti/jwks until what it signed has expired.
create table tool_keys (
  kid text primary key,
  algorithm text not null,
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);

-- A platform (LMS) registered by hand by a district's admin. A launch names its issuer and client
-- id, which find exactly one registration, hence one district.
create table lti_registrations (
  id uuid primary key,
  tenant_id uuid not null,
  issuer text not null,
  client_id text not null,
  deployment_ids text[] not null,
  jwks_url text not null,
  auth_url text not null,
  token_url text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint lti_registrations_issuer_client_key unique (issuer, client_id)
);
create index lti_registrations_tenant_id_idx on lti_registrations (tenant_id);

-- OIDC login initiations waiting for their launch: the state (its SHA-256 only) is single-use and
-- short-lived; the nonce is the one the id_token must carry.
create table lti_login_states (
  state_hash text primary key,
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  tenant_id uuid not null,
  nonce text not null,
  target_link_uri text not null,
  expires_at timestamptz not null
);
create index lti_login_states_expires_at_idx on lti_login_states (expires_at);

-- Nonces of accepted id_tokens, kept until the token expired: a second launch with one is a replay.
create table lti_used_nonces (
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  nonce text not null,
  expires_at timestamptz not null,
  primary key (registration_id, nonce)
);
create index lti_used_nonces_expires_at_idx on lti_used_nonces (expires_at);

-- Verified resource-link launches: who launched (the LMS user id and roles, personal data of the
-- district) from which course.
create table lti_launches (
  id uuid primary key,
  tenant_id uuid not null,
  registration_id uuid not null references lti_registrations (id) on delete cascade,
  deployment_id text not null,
  lms_user_id text not null,
  roles text[] not null,
  context_id text,
  context_title text,
  resource_link_id text not null,
  target_link_uri text not null,
  launched_at timestamptz not null default now()
);
create index lti_launches_tenant_id_idx on lti_launches (tenant_id, launched_at);

-- Privacy operations (docs/adr/009-privacy-operations.md): each district's retention period and
-- when the retention job last ran.
create table privacy_retention (
  tenant_id uuid primary key,
  retention_days integer not null check (retention_days between 30 and 3650),
  updated_at timestamptz not null default now()
);

create table privacy_jobs (
  name text primary key,
  last_run_at timestamptz not null
);
