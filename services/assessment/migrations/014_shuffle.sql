-- Per-student order (docs/architecture.md, "Shuffled order"): when set, each student sees the
-- questions, or each multiple-choice question's options, in an order of their own, stable across
-- reloads (derived from the assessment, student and question ids; nothing stored per student).
-- Answers are stored as option text and questions by id, so scoring, review, statistics and
-- exports do not depend on the order.
alter table assessments add column shuffle_questions boolean not null default false;
alter table assessments add column shuffle_options boolean not null default false;
