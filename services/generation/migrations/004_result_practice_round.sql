-- A retry of result-based practice ("Try Again") writes it again: the round counts them, so each
-- round draws other items than the last where the lesson allows, in another order.
alter table result_practice add column round integer not null default 0;
