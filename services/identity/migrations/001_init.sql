-- Identity: tenants, users, credentials, sessions (refresh tokens), signing keys, SSO,
-- rate-limit counters, and nothing else: the events outbox/inbox are a shared migration
-- of packages/events applied first. Runs with search_path = the service schema.

create table tenants (
  id uuid primary key,
  name text not null,
  kind text not null check (kind in ('district', 'school', 'individual')),
  email_domains text[] not null default '{}',
  created_at timestamptz not null default now()
);
create index tenants_email_domains_idx on tenants using gin (email_domains);

create table sso_connections (
  id uuid primary key,
  tenant_id uuid not null references tenants (id) on delete cascade,
  issuer text not null,
  client_id text not null,
  client_secret text not null,
  email_domains text[] not null default '{}',
  created_at timestamptz not null default now()
);
create index sso_connections_tenant_id_idx on sso_connections (tenant_id);
create index sso_connections_email_domains_idx on sso_connections using gin (email_domains);

create table users (
  id uuid primary key,
  tenant_id uuid not null references tenants (id),
  email text not null,
  first_name text not null,
  last_name text not null,
  role text not null check (role in ('student', 'teacher', 'admin')),
  profile_image_url text,
  preferences jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  disabled_at timestamptz
);
-- Case-insensitive uniqueness even if a writer forgets to lower-case.
create unique index users_email_lower_key on users (lower(email));
create index users_tenant_id_idx on users (tenant_id);

create table credentials (
  user_id uuid primary key references users (id) on delete cascade,
  password_hash text not null,
  updated_at timestamptz not null default now()
);

create table external_identities (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  issuer text not null,
  subject text not null,
  email text,
  created_at timestamptz not null default now(),
  unique (issuer, subject)
);
create index external_identities_user_id_idx on external_identities (user_id);

create table sessions (
  id uuid primary key,
  family_id uuid not null,
  user_id uuid not null references users (id) on delete cascade,
  token_hash text not null unique,
  csrf text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  expires_at timestamptz not null,
  rotated_at timestamptz,
  revoked_at timestamptz,
  successor_id uuid
);
create index sessions_family_id_idx on sessions (family_id);
create index sessions_user_id_idx on sessions (user_id);

create table signing_keys (
  kid text primary key,
  algorithm text not null,
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now(),
  retired_at timestamptz
);

create table oidc_flows (
  id text primary key,
  state text not null,
  nonce text not null,
  code_verifier text not null,
  connection_id uuid,
  expires_at timestamptz not null
);

create table pending_signups (
  token_hash text primary key,
  issuer text not null,
  subject text not null,
  email text not null,
  first_name text not null,
  last_name text not null,
  profile_image_url text,
  tenant_id uuid,
  expires_at timestamptz not null
);

-- Layout required by rate-limiter-flexible's RateLimiterPostgres (created here, not by the library).
create table rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
