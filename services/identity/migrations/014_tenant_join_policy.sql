-- Whether a district's students may join only its own classes (docs/security.md). False (the
-- default): they may join another tenant's class by code, whose teacher sees their name only.
-- Sent to the class service as TenantJoinPolicyChanged.
alter table tenants add column students_own_classes_only boolean not null default false;
