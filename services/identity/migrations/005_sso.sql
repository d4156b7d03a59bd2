-- SSO per district (docs/adr/008-district-sso.md): one OpenID Connect connection per district,
-- its client secret sealed with AES-256-GCM under SECRETS_KEY (format "v1:<key id>:<iv>:<sealed>"),
-- a display name for the sign-in button, an on/off switch, and the kind derived from the issuer
-- (google: `hd` checked; entra: `tid` checked; generic). Rows written before this migration keep a
-- plain secret until the service seals it at start.

-- A second connection of one tenant was never reachable (the first by creation time won): keep that one.
delete from sso_connections s
 using sso_connections older
 where older.tenant_id = s.tenant_id
   and (older.created_at, older.id) < (s.created_at, s.id);
drop index sso_connections_tenant_id_idx;
alter table sso_connections add constraint sso_connections_tenant_id_key unique (tenant_id);

alter table sso_connections
  add column kind text not null default 'generic' check (kind in ('google', 'entra', 'generic')),
  add column display_name text not null default '',
  add column enabled boolean not null default true,
  add column updated_at timestamptz not null default now();

update sso_connections
   set kind = case
     when issuer = 'https://accounts.google.com' then 'google'
     when issuer ~ '^https://login\.microsoftonline\.com/[0-9a-fA-F-]{36}/v2\.0/?$' then 'entra'
     else 'generic'
   end;
update sso_connections s set display_name = t.name from tenants t where t.id = s.tenant_id and s.display_name = '';

-- A sign-in the provider started (IdP-initiated) may name a page of the app to land on.
alter table oidc_flows add column return_to text;

-- The provider vouched for the address (email_verified, plus hd/tid where the kind needs them):
-- the account made from this sign-up starts verified.
alter table pending_signups add column email_verified boolean not null default false;
