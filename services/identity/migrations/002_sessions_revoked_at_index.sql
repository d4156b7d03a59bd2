-- The gateway asks every few seconds which sessions were revoked lately (their access tokens stop
-- working before they expire): an index on revoked_at keeps that a small range scan.
create index sessions_revoked_at_idx on sessions (revoked_at);
