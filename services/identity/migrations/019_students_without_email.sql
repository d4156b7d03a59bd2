-- Young students without e-mail (docs/adr/015-students-without-email.md): an account a teacher
-- makes for a class has a username unique in its tenant and a picture or word password, no email.
-- Identity keeps what it needs of the class service's classes (teachers, join code, members) from
-- its events, and the login cards a teacher prints (their secrets hashed).
alter table users alter column email drop not null;

create table student_logins (
  user_id uuid primary key references users (id) on delete cascade,
  tenant_id uuid not null references tenants (id) on delete cascade,
  username text not null,
  -- picture: one of the fixed pictures; words: two short words
  secret_kind text not null check (secret_kind in ('picture', 'words')),
  -- argon2id PHC string, like credentials.password_hash
  secret_hash text not null,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index student_logins_tenant_username_key on student_logins (tenant_id, lower(username));

-- The class service's classes, from checkpoint.class.v1 (owner and co-teachers, join code).
create table login_classes (
  class_id uuid primary key,
  tenant_id uuid not null,
  teacher_ids uuid[] not null default '{}',
  join_code text not null,
  active boolean not null default true,
  updated_at timestamptz not null default now()
);
create index login_classes_join_code_idx on login_classes (join_code);

create table login_class_members (
  class_id uuid not null,
  student_id uuid not null,
  primary key (class_id, student_id)
);
create index login_class_members_student_id_idx on login_class_members (student_id);

-- A printed login card: its QR holds a random secret, kept here as its SHA-256.
create table login_cards (
  id uuid primary key,
  class_id uuid not null,
  user_id uuid not null references users (id) on delete cascade,
  secret_hash text not null unique,
  created_by uuid,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index login_cards_class_id_idx on login_cards (class_id);
create index login_cards_user_id_idx on login_cards (user_id);
