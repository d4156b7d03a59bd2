-- Email: verified addresses, one-time email links, and the outgoing mail queue (packages/mail).
-- Existing accounts stay unverified (email_verified_at null); the demo seed sets it for its own.

alter table users add column email_verified_at timestamptz;

-- A district may turn password sign-in off (its members then sign in through its provider only).
alter table tenants add column password_sign_in boolean not null default true;

-- One-time links sent by mail: the link carries a 32-byte random token (base64url), the table only
-- its SHA-256 (hex). Used once: used_at is set by the statement that redeems it.
create table email_tokens (
  token_hash text primary key,
  purpose text not null check (purpose in ('verify', 'signup', 'reset', 'invite')),
  user_id uuid references users (id) on delete cascade,
  tenant_id uuid references tenants (id) on delete cascade,
  email text not null,
  payload jsonb not null default '{}',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index email_tokens_user_id_idx on email_tokens (user_id);
create index email_tokens_expires_at_idx on email_tokens (expires_at);

-- Mail written in the business transaction and delivered by the sender loop of packages/mail.
create table outgoing_mail (
  id uuid primary key,
  "to" text not null,
  subject text not null,
  text text not null,
  html text,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error text
);
-- The sender's query: unsent rows that are due.
create index outgoing_mail_due_idx on outgoing_mail (next_attempt_at) where sent_at is null;
