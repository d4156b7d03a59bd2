-- A welcome link (docs/adr/010-oneroster-import.md): an account created by a roster import gets a
-- mail whose link sets its first password, valid 7 days (a reset link is valid an hour).
alter table email_tokens drop constraint if exists email_tokens_purpose_check;
alter table email_tokens add constraint email_tokens_purpose_check
  check (purpose in ('verify', 'signup', 'reset', 'invite', 'welcome'));
