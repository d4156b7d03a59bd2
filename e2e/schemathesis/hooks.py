# Loaded by e2e/schemathesis/run.ts (SCHEMATHESIS_HOOKS). The two question rules no JSON Schema
# can state (the document's QuestionInput says them in words): a multiple choice question's 4
# options differ from each other (ignoring case and surrounding blanks), and its correct answer is
# one of them; on PUT, options left out are the stored ones, which the document cannot know.
# Schema-valid cases generated for multiple choice are made to keep those rules, so that
# positive_data_acceptance stays strict for these operations: any other refusal still fails it.
# Only positive cases change; negative ones are sent as generated.
import json
import re

import schemathesis

QUESTION_OPERATIONS = {("POST", "/api/assessments/{id}/questions"), ("PUT", "/api/questions/{id}")}
# JavaScript's String.prototype.trim blanks, as packages/service-kit/src/text.ts spells them.
NOT_BLANK = re.compile("[^\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")
MAX_OPTION = 5000
LETTERS = "ABCD"


def _counts(entry):
    """Whether an entry of an options list is an option (domain/questions.ts drops nulls and blanks)."""
    if isinstance(entry, str):
        return NOT_BLANK.search(entry) is not None
    return entry is not None


def _text(entry):
    return entry if isinstance(entry, str) else json.dumps(entry)


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return case
    if (case.operation.method.upper(), case.operation.path) not in QUESTION_OPERATIONS:
        return case
    body = case.body
    if not isinstance(body, dict) or body.get("questionType") != "multiple_choice":
        return case
    options = body.get("options")
    if not isinstance(options, list):
        # Text options, or none (the stored ones on PUT): four made from the generated answer.
        options = [_text(body.get("correctAnswer"))] * 4
    # The generated texts, each behind its own letter so that no two are alike.
    made = list(options)
    positions = [i for i, entry in enumerate(options) if _counts(entry)]
    if len(positions) != 4:  # not schema-valid: the document asks for exactly 4
        return case
    for letter, i in zip(LETTERS, positions):
        made[i] = f"{letter}) {_text(options[i])}"[:MAX_OPTION]
    body["options"] = made
    # The answer is one of them, exactly as sent (the server trims and compares both alike).
    answers = [made[i] for i in positions]
    body["correctAnswer"] = answers[len(_text(body.get("correctAnswer"))) % len(answers)]
    return case
