"""Judge-answer schema and parser: both formats, recorded fixtures and malformed variants.

The fixtures in tests/fixtures/judge/ are judge answers written for these tests (three in JSON,
four in section text); every expected number below is read off the fixture text by hand.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from radscope.engine.metrics.crepe import score as crepe_score
from radscope.engine.metrics.vert.parse import ParseError, parse_assessment, parse_count, parse_score
from radscope.engine.metrics.vert.schema import (
    CATEGORIES,
    CATEGORY_KEYS,
    JUDGE_SCHEMA,
    SCORE_PATTERN,
    CategoryErrors,
    JudgeAssessment,
    judge_schema,
)
from radscope.engine.reader.error_words import REXVAL_NAMES

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "judge"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def counts(section: dict[str, CategoryErrors] | None) -> dict[str, int]:
    assert section is not None
    return {key: section[key].count for key in CATEGORY_KEYS}


def zeros(**nonzero: int) -> dict[str, int]:
    return {key: nonzero.get(key, 0) for key in CATEGORY_KEYS}


# --------------------------------------------------------------------------- schema

def _walk(node: object):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def test_schema_is_valid_json_schema_and_requires_every_part():
    Draft202012Validator.check_schema(JUDGE_SCHEMA)
    assert JUDGE_SCHEMA["required"] == ["explanation", "significant_errors",
                                        "insignificant_errors", "matched_findings",
                                        "overall_score"]
    assert JUDGE_SCHEMA["properties"]["significant_errors"]["required"] == list("abcdef")
    assert "overall_score" not in judge_schema(with_score=False)["properties"]


def test_schema_uses_only_grammar_friendly_keywords():
    allowed = {"type", "enum", "properties", "required", "additionalProperties", "items",
               "minItems", "pattern"}
    for node in _walk(JUDGE_SCHEMA):
        if "type" in node:  # a schema node (property maps are walked as plain dicts too)
            assert set(node) <= allowed, set(node) - allowed
            assert node.get("additionalProperties", False) is False


@pytest.mark.parametrize("value,ok", [("0.85", True), ("0.00", True), ("1.00", True),
                                      ("1.01", False), ("0.5", False), (".85", False),
                                      ("0,85", False), ("1", False)])
def test_score_pattern(value, ok):
    validator = Draft202012Validator({"type": "string", "pattern": SCORE_PATTERN})
    assert validator.is_valid(value) is ok


def test_schema_converts_to_a_grammar_llama_cpp_accepts():
    """llama-cpp-python copies a regex "\\." into GBNF, where llama.cpp rejects it; the
    pattern must therefore produce no backslash escape outside JSON string rules."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(json.dumps(JUDGE_SCHEMA))
    score_rule = next(line for line in gbnf.splitlines() if line.startswith("overall-score ::="))
    assert "\\" not in score_rule.replace('"\\""', "")
    assert '[.]' in score_rule


@pytest.mark.parametrize("with_score", [True, False])
def test_llama_cpp_builds_a_grammar_sampler_from_the_schema(with_score):
    """The real check: llama.cpp's own GBNF parser, with the vocabulary of the packaged GGUF."""
    import llama_cpp
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    from radscope.models.resolve import resolve

    path = resolve("gemma3-270m-demo").path
    model = llama_cpp.Llama(str(path), vocab_only=True, verbose=False)
    vocab = llama_cpp.llama_model_get_vocab(model.model)
    gbnf = json_schema_to_gbnf(json.dumps(judge_schema(with_score)))
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, gbnf.encode(), b"root")
    assert sampler  # NULL when llama.cpp rejects the grammar
    llama_cpp.llama_sampler_free(sampler)


def test_categories_match_crepe():
    assert [c.key for c in CATEGORIES] == ["a", "b", "c", "d", "e", "f"]
    assert [c.letter for c in CATEGORIES] == list(crepe_score.CATEGORY_KEYS)
    assert [c.name for c in CATEGORIES] == [REXVAL_NAMES[k] for k in crepe_score.CATEGORY_KEYS]


# --------------------------------------------------------------------------- small readers

@pytest.mark.parametrize("value,expected", [
    (3, 3), (2.0, 2), ("4", 4), ("two", 2), ("No", 0), ("none", 0), ("zero", 0),
    ("N/A", 0), ("Twelve.", 12), (2.5, None), (True, None), ("many", None), (None, None),
])
def test_parse_count(value, expected):
    assert parse_count(value) == expected


@pytest.mark.parametrize("value,expected,n_warnings", [
    (0.7, 0.7, 0),
    ("0.85", 0.85, 0),
    ("85%", 0.85, 1),                # percentage: 85 / 100
    ("85/100", 0.85, 1),             # fraction
    ("8.5 out of 10", 0.85, 1),      # fraction written out
    ("1.20", 1.0, 1),                # out of range: clamped to 1
    (-0.1, 0.0, 1),                  # out of range: clamped to 0
    ("85", 1.0, 1),                  # bare number is not guessed to be a percentage
    ("The score is 0.6 overall", 0.6, 0),
])
def test_parse_score(value, expected, n_warnings):
    score, warnings = parse_score(value)
    assert score == pytest.approx(expected)
    assert len(warnings) == n_warnings


@pytest.mark.parametrize("value", ["high", "", "5/0", float("nan"), [0.5], None])
def test_parse_score_unreadable_is_none(value):
    score, _ = parse_score(value)
    assert score is None


# --------------------------------------------------------------------------- fixtures

def test_fixture_vert_sections_clean():
    a = parse_assessment(fixture("vert_sections_clean.txt"))
    assert a.raw_format == "sections"
    assert a.parse_warnings == []
    assert a.explanation.startswith("The reference describes a small left pleural effusion")
    # (b) 1 omitted cardiomegaly, (d) 1 effusion severity; insignificant (e) 1 comparison.
    assert counts(a.significant) == zeros(b=1, d=1)
    assert counts(a.insignificant) == zeros(e=1)
    assert a.significant["d"].errors == [
        "The left pleural effusion is called moderate instead of small"]
    assert a.matched_count == 2
    assert a.matched_findings == ["Left pleural effusion", "No pneumothorax"]
    assert a.overall_score == pytest.approx(0.55)


def test_fixture_green_compact_words_no_colons_no_blank_lines():
    a = parse_assessment(fixture("green_sections_compact.txt"), expect_score=False)
    assert a.parse_warnings == []
    # "one" / "One" in (a) and (c); "zero", "none", "No errors.", "0" elsewhere.
    assert counts(a.significant) == zeros(a=1, c=1)
    # The body "No clinically insignificant errors." means all six are 0.
    assert counts(a.insignificant) == zeros()
    assert a.matched_count == 3  # "Three."
    # The closing sentence after the blank line is not a finding.
    assert a.matched_findings == ["Consolidation is present", "No pleural effusion",
                                  "Normal cardiomediastinal silhouette"]
    assert a.overall_score is None
    assert "Sure, here is" not in a.explanation


def test_fixture_green_scaffolding_digits_think_and_special_tokens():
    a = parse_assessment(fixture("green_sections_scaffolding.txt"), expect_score=False)
    # The <think> draft ("9. ...") is dropped and the </s> token removed; (1)-(6) map to a-f.
    assert a.matched_count == 3
    assert a.matched_findings[-1] == "Pulmonary edema present"
    assert counts(a.significant) == zeros(b=1, d=1)
    assert counts(a.insignificant) == zeros(c=1)
    assert a.parse_warnings == []


def test_fixture_vert_json_bare():
    a = parse_assessment(fixture("vert_json_bare.json"))
    assert a.raw_format == "json"
    assert a.parse_warnings == []
    assert counts(a.significant) == zeros()
    assert counts(a.insignificant) == zeros(a=1)
    assert a.matched_count == 4 and len(a.matched_findings) == 4
    assert a.overall_score == pytest.approx(0.92)  # the string "0.92"


def test_fixture_vert_json_fenced_count_wins_over_list():
    a = parse_assessment(fixture("vert_json_fenced.md"))
    assert a.raw_format == "json"
    # (a) says count 2 but lists one error: the count is used, the list kept for display.
    assert a.significant["a"] == CategoryErrors(2, [
        "Right pneumothorax is reported but absent from the reference"])
    assert counts(a.significant) == zeros(a=2, b=1)
    assert a.parse_warnings == [
        "significant_errors.a.count: count 2 but 1 item(s) listed; the count is used"]
    assert a.overall_score == pytest.approx(0.4)  # a JSON number is accepted too


def test_fixture_formula_json_embedded_in_prose():
    a = parse_assessment(fixture("formula_json_embedded.txt"))
    assert a.raw_format == "json"
    assert counts(a.significant) == zeros(c=1)
    assert a.matched_count == 1
    assert a.overall_score == pytest.approx(0.33)


def test_fixture_missing_matched_section_is_unavailable_not_zero():
    a = parse_assessment(fixture("vert_sections_missing_matched.txt"))
    assert a.matched_count is None and a.matched_findings == []
    assert a.missing_sections() == ["Matched Findings"]
    assert counts(a.significant) == zeros(b=1, f=1)
    assert counts(a.insignificant) == zeros()  # "No errors."
    assert a.overall_score == pytest.approx(0.85)  # "85%"
    assert any("Matched Findings" in w and "unavailable" in w for w in a.parse_warnings)
    assert any("percentage" in w for w in a.parse_warnings)


# --------------------------------------------------------------------------- malformed text

def test_missing_error_line_counts_zero_with_warning():
    text = fixture("vert_sections_clean.txt").replace(
        "(c) Incorrect location or position of a finding: 0.\n", "", 1)
    a = parse_assessment(text)
    assert counts(a.significant) == zeros(b=1, d=1)
    assert a.parse_warnings == ["[Clinically Significant Errors] (c) line missing; counted as 0"]


def test_missing_significant_section():
    clean = fixture("vert_sections_clean.txt")
    start = clean.index("[Clinically Significant Errors]")
    end = clean.index("[Clinically Insignificant Errors]")
    a = parse_assessment(clean[:start] + clean[end:])
    assert a.significant is None
    assert a.insignificant is not None and a.matched_count == 2
    assert a.overall_score == pytest.approx(0.55)  # VERT survives
    assert any("missing [Clinically Significant Errors]" in w for w in a.parse_warnings)


def test_missing_overall_score_warns_only_when_expected():
    clean = fixture("vert_sections_clean.txt")
    text = clean[:clean.index("[Overall Accuracy Score]")]
    assert parse_assessment(text).overall_score is None
    assert any("Overall Accuracy Score" in w for w in parse_assessment(text).parse_warnings)
    assert parse_assessment(text, expect_score=False).parse_warnings == []


def test_counts_written_as_words():
    text = """[Explanation]: Two errors.
[Clinically Significant Errors]:
(a) False prediction of a finding: two. Left effusion; right nodule
(b) Omission of a finding: No errors.
(c) Incorrect location or position of a finding: none
(d) Incorrect severity of a finding: zero.
(e) Mention of a comparison absent from the reference: Zero errors.
(f) Omission of a comparison describing a change: one error: stable edema not called stable
[Clinically Insignificant Errors]: None.
[Matched Findings]: four. a; b; c; d
[Overall Accuracy Score]: 0.6
"""
    a = parse_assessment(text)
    assert counts(a.significant) == zeros(a=2, f=1)
    assert a.significant["a"].errors == ["Left effusion", "right nodule"]
    assert a.significant["f"].errors == ["stable edema not called stable"]
    assert a.significant["b"].errors == []
    assert counts(a.insignificant) == zeros()
    assert a.matched_count == 4
    assert a.parse_warnings == []


def test_header_variants_bold_case_and_plain_colon():
    text = """## Explanation:
All good.
**Clinically significant errors:**
(a) x: 0.
(b) y: 0.
(c) z: 0.
(d) w: 0.
(e) v: 0.
(f) u: 1. Missing the comparison
CLINICALLY INSIGNIFICANT ERRORS: No
Matched findings: 5.
overall accuracy score: 0.90
"""
    a = parse_assessment(text)
    assert a.explanation == "All good."
    assert counts(a.significant) == zeros(f=1)
    assert counts(a.insignificant) == zeros()
    assert a.matched_count == 5 and a.matched_findings == []
    assert a.overall_score == pytest.approx(0.9)


def test_one_line_answer_with_inline_markers():
    text = ("[Explanation]: Minor issue only. [Clinically Significant Errors]: (a) x: 0. "
            "(b) y: 1. Missed nodule. (c) z: 0. (d) w: 0. (e) v: 0. (f) u: 0. "
            "[Clinically Insignificant Errors]: No errors. [Matched Findings]: 3. a; b; c "
            "[Overall Accuracy Score]: 0.7")
    a = parse_assessment(text)
    assert counts(a.significant) == zeros(b=1)
    assert a.significant["b"].errors == ["Missed nodule"]
    assert a.matched_count == 3 and a.matched_findings == ["a", "b", "c"]
    assert a.overall_score == pytest.approx(0.7)


def test_echoed_template_then_answer_uses_last_sections():
    template = ("[Explanation]:\n<Explanation>\n\n[Matched Findings]:\n"
                "<The number of matched findings>. <Finding 1>; <Finding 2>\n\n")
    a = parse_assessment(template + fixture("vert_sections_clean.txt"))
    assert a.matched_count == 2
    assert any("more than once" in w for w in a.parse_warnings)


def test_matched_body_without_count_is_unavailable():
    # "No pneumothorax" is a finding, not a count of zero: guessing 0 would make GREEN 0.
    text = fixture("vert_sections_clean.txt").replace(
        "2. Left pleural effusion; No pneumothorax.", "No pneumothorax; left pleural effusion.")
    a = parse_assessment(text)
    assert a.matched_count is None
    assert any("cannot read a count" in w for w in a.parse_warnings)


def test_unreadable_error_count_makes_section_unavailable():
    text = fixture("vert_sections_clean.txt").replace(
        "(a) False prediction of a finding: 0.", "(a) False prediction of a finding: The candidate "
        "adds a nodule.", 1)
    a = parse_assessment(text)
    assert a.significant is None
    assert a.insignificant is not None


def test_error_section_prose_without_lines_is_unavailable():
    prose_only = ("[Clinically Significant Errors]: There are a few problems.\n"
                  "[Matched Findings]: 1. x\n[Overall Accuracy Score]: 0.5")
    a = parse_assessment(prose_only)
    assert a.significant is None
    assert any("no (a)-(f) lines" in w for w in a.parse_warnings)
    assert a.matched_count == 1 and a.overall_score == 0.5


def test_nothing_to_score_raises():
    with pytest.raises(ParseError, match="no judge answer found"):
        parse_assessment("I am unable to compare these reports.")
    with pytest.raises(ParseError, match="no error, matched-findings or score section"):
        parse_assessment("[Explanation]: I cannot judge this.")


# --------------------------------------------------------------------------- malformed JSON

def _bare() -> dict:
    return json.loads(fixture("vert_json_bare.json"))


def test_json_missing_key_is_unavailable_with_warning():
    obj = _bare()
    del obj["insignificant_errors"]
    a = parse_assessment(json.dumps(obj))
    assert a.insignificant is None and a.significant is not None
    assert any("insignificant_errors" in w for w in a.parse_warnings)


def test_json_missing_category_and_missing_score():
    obj = _bare()
    del obj["significant_errors"]["c"]
    del obj["overall_score"]
    a = parse_assessment(json.dumps(obj))
    assert counts(a.significant) == zeros()
    assert a.overall_score is None
    assert "significant_errors.c: missing; counted as 0" in a.parse_warnings
    assert any("'overall_score'" in w for w in a.parse_warnings)


def test_json_out_of_range_score_is_clamped():
    obj = _bare()
    obj["overall_score"] = 1.3
    a = parse_assessment(json.dumps(obj))
    assert a.overall_score == 1.0
    assert any("clamped" in w for w in a.parse_warnings)
    obj["overall_score"] = "72%"
    assert parse_assessment(json.dumps(obj)).overall_score == pytest.approx(0.72)


def test_json_count_as_word_and_extra_key_are_tolerated():
    obj = _bare()
    obj["matched_findings"]["count"] = "four"
    obj["confidence"] = "high"
    a = parse_assessment(json.dumps(obj))
    assert a.matched_count == 4
    assert any("'four' read as 4" in w for w in a.parse_warnings)
    assert any("confidence" in w for w in a.parse_warnings)


def test_json_wrong_types_raise_with_paths():
    obj = _bare()
    obj["significant_errors"]["b"]["count"] = "several"
    obj["matched_findings"]["findings"] = "all of them"
    with pytest.raises(ParseError) as info:
        parse_assessment(json.dumps(obj))
    message = str(info.value)
    assert "significant_errors.b.count" in message
    assert "matched_findings.findings" in message


def test_json_negative_count_raises():
    obj = _bare()
    obj["significant_errors"]["a"]["count"] = -1
    with pytest.raises(ParseError, match="negative"):
        parse_assessment(json.dumps(obj))


def test_truncated_json_raises():
    with pytest.raises(ParseError, match="no decodable JSON"):
        parse_assessment(fixture("vert_json_bare.json")[:300])


def test_json_wrapped_in_another_object_is_found():
    wrapped = json.dumps({"result": _bare()})
    assert parse_assessment(wrapped).matched_count == 4


# --------------------------------------------------------------------------- round trip

@pytest.mark.parametrize("name", ["vert_sections_clean.txt", "vert_json_fenced.md",
                                  "vert_sections_missing_matched.txt"])
def test_assessment_round_trips_through_json(name):
    a = parse_assessment(fixture(name))
    data = json.loads(json.dumps(a.to_json()))
    assert JudgeAssessment.from_json(data) == a


def test_json_null_parts_count_as_missing():
    obj = _bare()
    obj["matched_findings"] = None
    obj["overall_score"] = None
    a = parse_assessment(json.dumps(obj))
    assert a.matched_count is None and a.overall_score is None
    assert any("'matched_findings'" in w for w in a.parse_warnings)
    assert any("'overall_score'" in w for w in a.parse_warnings)


def test_matched_findings_as_bullets_and_score_with_extra_numbers():
    text = """[Explanation]: fine
[Clinically Significant Errors]: No errors.
[Clinically Insignificant Errors]: None
[Matched Findings]:
2 matched findings:
- Normal heart size
- Clear lungs
[Overall Accuracy Score]: 0.95, since 2 of 2 findings match
"""
    a = parse_assessment(text)
    assert a.matched_count == 2
    assert a.matched_findings == ["Normal heart size", "Clear lungs"]
    assert a.overall_score == pytest.approx(0.95)
    assert any("several numbers" in w for w in a.parse_warnings)


# --------------------------------------------------------------------------- GREEN's own counts
# GREEN reads each "(x) ..." line (its regex "\([a-f]\) .*" runs to the end of the line, so a
# marker quoted inside a line's text is not a line of its own) and takes the first integer
# that follows ": " and precedes "."; a category without a line counts 0. The expected
# counts below are what that reader gives, worked out by hand from the texts.

_SIGNIFICANT_WITHOUT_A = """[Explanation]:
The candidate misplaces and misgrades the effusion.

[Clinically Significant Errors]:
(b) Omission of a finding: 0.
(c) Incorrect location or position of a finding: 1. {c_error}
(d) Incorrect severity of a finding: 1. {d_error}
(e) Mention of a comparison absent from the reference: 0.
(f) Omission of a comparison describing a change: 0.

[Clinically Insignificant Errors]:
No errors.

[Matched Findings]:
1. Pleural effusion.

[Overall Accuracy Score]: 0.4
"""


@pytest.mark.parametrize("c_error,d_error", [
    # an "(a)" whose text has no count: read as a line, it made the section unavailable
    ("The effusion is placed on the right.",
     "The effusion is called large; the reference grades it as in (a) small."),
    # an "(a)" followed by "1.": read as a line, it gave a = 1 without a word of warning
    ("The effusion is placed on the right, see item (a) 1. in the reference.",
     "The effusion is called large instead of small."),
])
def test_quoted_marker_in_another_line_does_not_replace_a_missing_line(c_error, d_error):
    a = parse_assessment(_SIGNIFICANT_WITHOUT_A.format(c_error=c_error, d_error=d_error))
    assert counts(a.significant) == zeros(c=1, d=1)  # GREEN: a=0 b=0 c=1 d=1 e=0 f=0
    assert a.significant["c"].errors == [c_error.rstrip(".")]
    assert "; ".join(a.significant["d"].errors) == d_error.rstrip(".")
    assert any("(a) line missing" in w for w in a.parse_warnings)


def test_colon_inside_the_category_text_still_gives_the_count():
    text = fixture("vert_sections_clean.txt").replace(
        "(a) False prediction of a finding: 0.",
        "(a) False report: finding in the candidate: 1. Nodule.", 1)
    a = parse_assessment(text)
    assert counts(a.significant) == zeros(a=1, b=1, d=1)  # GREEN: a=1 b=1 c=0 d=1 e=0 f=0
    assert a.significant["a"].errors == ["Nodule"]
    assert counts(a.insignificant) == zeros(e=1)
