-- LTI Dynamic Registration (docs/adr/014-lti.md): the one-time links a district's admin (or the
-- operator) makes for their LMS's admin, PUBLIC_URL/api/lti/register?rt=<token>. Only the token's
-- SHA-256 is kept; the link names the district the registration is for, is used once (deleted in
-- the transaction that stores the registration) and not after it expires.
create table lti_registration_links (
  token_hash text primary key,
  tenant_id uuid not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index lti_registration_links_tenant_id_idx on lti_registration_links (tenant_id);
create index lti_registration_links_expires_at_idx on lti_registration_links (expires_at);
