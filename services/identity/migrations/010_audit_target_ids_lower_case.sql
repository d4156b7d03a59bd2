-- Ids in audit entries in one spelling (docs/adr/009-privacy-operations.md): a call may name an id
-- in upper case (the services look ids up in any case), and entries kept it as sent, so the audit
-- query, a student's export and the pseudonymisation of a deleted student (which look for the id
-- in lower case) missed them. Entries are now written with UUIDs in lower case; this puts those
-- written before in the same form. An id whose person was deleted meanwhile (a deletion request
-- kept its hash) becomes its pseudonym, as it would have then.
select set_config('checkpoint.audit_maintenance', 'on', true);

update audit_log a set
  target_ids = array(
    select case
             when t !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then t
             when exists (select 1 from privacy_requests r
                           where r.subject_hash = encode(sha256(convert_to(lower(t), 'UTF8')), 'hex'))
               then 'erased:' || substr(encode(sha256(convert_to(lower(t), 'UTF8')), 'hex'), 1, 32)
             else lower(t)
           end
      from unnest(a.target_ids) with ordinality as x(t, n) order by n)
where exists (select 1 from unnest(a.target_ids) as x(t)
               where t <> lower(t) and t ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');
