-- Co-teachers invited by an address no teacher account of the class's tenant has yet (issue 30,
-- item 8). The owner's invitation is kept here, by address (lower case), while identity mails the
-- district's invitation (CoTeacherInvited); the account's UserRegistered (same tenant and address, a
-- teacher) makes it a co-teacher and removes the row. refused: identity answered
-- CoTeacherInvitationRefused (the owner sees it and withdraws it). Pending and refused rows count
-- towards the class's most co-teachers.
create table co_teacher_invitations (
  id uuid primary key,
  class_id uuid not null references classes (id) on delete cascade,
  tenant_id uuid not null,
  email text not null,
  invited_by uuid not null,
  refused boolean not null default false,
  created_at timestamptz not null default now(),
  unique (class_id, email)
);
create index co_teacher_invitations_tenant_email_idx on co_teacher_invitations (tenant_id, email);
