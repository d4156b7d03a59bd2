-- Grading by hand (assessment's ResultRegraded; docs/architecture.md, "Grading by hand"): an
-- answer may earn part of its points, and a short answer may wait for the teacher's review.
-- earned_points null: the answer earns its question's points when correct, else none (as every
-- answer stored before this migration, and each of ResultSubmitted). pending: waiting for review,
-- no evidence of mastery until the teacher marks it.
alter table result_answers
  add column earned_points double precision,
  add column pending boolean not null default false;
