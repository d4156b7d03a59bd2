-- An email change (PUT /api/auth/user) is pending until the link mailed to the NEW address is
-- opened: the link is an email_tokens row of purpose 'email_change' (user_id = the account that
-- asked, email = the new address). The account's sign-in address changes only when it is redeemed.
alter table email_tokens drop constraint if exists email_tokens_purpose_check;
alter table email_tokens add constraint email_tokens_purpose_check
  check (purpose in ('verify', 'signup', 'reset', 'invite', 'welcome', 'email_change'));
