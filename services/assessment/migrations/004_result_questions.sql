-- What the result page lists per question, kept as it was scored at submission: the question's
-- text, type, options, key and points, the student's answer (null when none) and whether it was
-- right. A teacher may edit or delete questions afterwards; the result's score is not scored
-- again, so its review must not be either (a corrected key would otherwise mark an answer right
-- next to a score that counted it wrong). Null for results submitted before this column: their
-- review is built from the current questions and the stored answers.
alter table results add column questions jsonb;
