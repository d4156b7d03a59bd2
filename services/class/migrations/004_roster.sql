-- Classes of a district's OneRoster import (identity's RosterClassSynced): the class's sourcedId
-- in the roster, unique per tenant (null for the classes teachers create), so a redelivered or
-- repeated sync finds the same class.
alter table classes add column roster_source_id text;
alter table classes add constraint classes_tenant_id_roster_source_id_key unique (tenant_id, roster_source_id);
