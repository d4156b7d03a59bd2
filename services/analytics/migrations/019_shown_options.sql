-- Reduced answer choices (#32): the options a student with that accommodation was shown on a
-- multiple-choice question, as the result's events carry them (AnswerOutcome.shown_options).
-- null: all of the question's options were shown (every other answer, and those stored before).
alter table result_answers add column shown_options text[];
