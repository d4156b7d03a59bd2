-- How many rows of a deleted user the read model erased (docs/adr/009). The read-model consumer
-- and the privacy consumer both handle UserDeleted, in either order: whichever deletes the rows
-- adds their number here, and the privacy consumer reports it in its SubjectDataErased answer
-- (it used to report only what was left to its own sweep: 0 when the read model came first).
alter table deleted_users add column erased_rows integer not null default 0;
