-- Layout required by rate-limiter-flexible's RateLimiterPostgres (created here, not by the
-- library): the per-teacher and per-address limits on creating assessments, shared by every
-- instance of the service.
create table rate_limits (
  key varchar(255) primary key,
  points integer not null default 0,
  expire bigint
);
