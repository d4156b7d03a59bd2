-- checkpoint:no-transaction
-- Housekeeping drops the rows of sessions that ended over a day ago, in batches, every hour. Rows
-- of rotated refresh tokens stay until their family ends, so at a district's scale this table is
-- large: without an index on expires_at every batch would scan all of it. Built concurrently, so
-- that sign-ins and refreshes go on meanwhile (a failed build's leftover is dropped by the runner).
create index concurrently if not exists sessions_expires_at_idx on sessions (expires_at);
