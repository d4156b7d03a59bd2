-- Each district's join policy (from identity's TenantJoinPolicyChanged; docs/security.md): when
-- own_classes_only is true, its students cannot join a class of another tenant by code. No row =
-- allowed (the default). changed_at is the event's time: an older event never undoes a newer one.
create table tenant_join_policies (
  tenant_id uuid primary key,
  own_classes_only boolean not null,
  changed_at timestamptz not null
);
