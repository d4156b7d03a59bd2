-- One-time sign-ins opened by a verified LTI launch (docs/adr/014-lti.md): the browser redeems the
-- token at a first-party URL (/api/auth/lti/handoff) within a minute or two, once; only its SHA-256
-- is kept. The redemption sets the ordinary session cookies and goes to `return_to` (a path of the app).
create table lti_handoffs (
  token_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  return_to text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index lti_handoffs_user_id_idx on lti_handoffs (user_id);
create index lti_handoffs_expires_at_idx on lti_handoffs (expires_at);
