-- Notification digests (docs/architecture.md, "Notifications"): the switches of Settings as
-- identity publishes them, what happened since each user's last digest, and the mail queue of
-- packages/mail. Unlike the read models these tables are not rebuilt by a replay: a replay adds
-- no digest items for events older than a day, so a rebuild mails nobody about the past.

-- Per user: the three switches (null: never published, the defaults apply: only submissions on),
-- whether the account was removed, and when their last digest went out.
create table notification_settings (
  user_id uuid primary key,
  email_notifications boolean,
  assessment_reminders boolean,
  student_submissions boolean,
  disabled boolean not null default false,
  last_digest_at timestamptz
);

-- What the next digest of `user_id` tells, one row per fact, written by the consumer in the inbox
-- transaction (so each fact is noted once): kind 'submission' (ref = result id, subject = the
-- student, for the class's teacher), 'joined' (ref = class id, subject = the student, for the
-- class's teacher), 'assigned' (ref = assessment id, subject = the student, for each student of
-- the class). Deleted in the digest's transaction.
create table digest_items (
  user_id uuid not null,
  kind text not null check (kind in ('submission', 'joined', 'assigned')),
  ref_id uuid not null,
  subject_id uuid not null,
  occurred_at timestamptz not null,
  primary key (user_id, kind, ref_id, subject_id)
);
create index digest_items_subject_id_idx on digest_items (subject_id);

-- When an assessment was assigned and when it is due (AssessmentAssigned; due_at from the
-- assessment's events, when set): the reminders' query.
alter table assessments add column assigned_at timestamptz;
alter table assessments add column due_at timestamptz;
create index assessments_due_at_idx on assessments (due_at) where due_at is not null;

-- Reminders already sent: one per student and assignment, ever.
create table reminders_sent (
  student_id uuid not null,
  assessment_id uuid not null,
  sent_at timestamptz not null default now(),
  primary key (student_id, assessment_id)
);

-- packages/mail's queue (the same table as identity's 004_email.sql).
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
create index outgoing_mail_due_idx on outgoing_mail (next_attempt_at) where sent_at is null;
