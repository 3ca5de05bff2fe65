"""RadSEM stage 3 and the stage-2 schema; tags are built by hand, expected values derived below."""
from __future__ import annotations

import json

import pytest

from radscope.engine.metrics.radsem.schema import (
    REWRITE_SCHEMA,
    TAG_SCHEMA,
    RadsemPair,
    RadsemTags,
    UnmatchedSentence,
    tag_problems,
)
from radscope.engine.metrics.radsem.score import (
    RULE_ABSENT,
    RULE_ALL_MATCHED,
    RULE_F1,
    RULE_PARTIAL_PENALTY,
    RadsemScore,
    pair_weight,
    score_tags,
)
from tests.reference.radsem import tags_from_model_json


def pair(ref: str, gen: str, normality: str = "abnormal", anatomical: str = "equivalent",
         asserted: str | None = None, negated: str | None = None,
         details: str | None = None) -> RadsemPair:
    return RadsemPair(ref, gen, normality, anatomical, asserted, negated, details)


def unmatched(side: str, sentence: str, normality: str = "abnormal") -> UnmatchedSentence:
    return UnmatchedSentence(side, sentence, normality)


# ------------------------------------------------------------------ weights


@pytest.mark.parametrize(("relations", "details", "expected"), [
    (("equivalent", None, None), None, 1.0),
    (("equivalent", "equivalent", None), "equivalent", 1.0),
    (("part-whole", None, None), None, 1 / 3),
    (("part-whole", "part-whole", None), None, 1 / 9),
    (("part-whole", "part-whole", "part-whole"), None, 1 / 27),
    (("equivalent", "equivalent", None), "partial", 0.75),
    (("equivalent", "equivalent", None), "none", 0.5),
    (("part-whole", "equivalent", "part-whole"), "none", 1 / 9 * 0.5),
    (("part-whole", "part-whole", "part-whole"), "partial", 1 / 27 * 0.75),
    (("equivalent", None, None), "something else", 1.0),  # unknown details -> factor 1
])
def test_pair_weight(relations, details, expected):
    anatomical, asserted, negated = relations
    tagged = pair("r", "g", "abnormal", anatomical, asserted, negated, details)
    assert pair_weight(tagged) == pytest.approx(expected)


# ------------------------------------------------------------------ worked examples


def test_paper_l3_chest_example():
    abnormal = [pair(f"Ref abnormal {i}.", f"Gen abnormal {i}.") for i in range(4)]
    normal = [pair(f"Ref normal {i}.", f"Gen normal {i}.", "normal") for i in range(15)]
    missing = [unmatched("Ref", f"Missed abnormal {i}.") for i in range(2)]
    extra = [unmatched("Gen", f"Extra normal {i}.", "normal") for i in range(2)]
    result = score_tags(RadsemTags(abnormal + normal, missing + extra))
    # abnormal: M 4, U_ref 2 -> 8 / (8 + 2) = 0.800
    assert result.abnormal.matched == 4.0 and result.abnormal.unmatched_ref == 2
    assert round(result.abnormal.f1, 3) == 0.800
    # normal: M 15, U_gen 2 -> 30 / 32 = 0.9375
    assert result.normal.matched == 15.0 and result.normal.unmatched_gen == 2
    assert round(result.normal.f1, 3) == 0.938
    # final: 0.9 * 0.8 + 0.1 * 0.9375 = 0.81375
    assert round(result.score, 3) == 0.814
    assert result.abnormal.rule == result.normal.rule == RULE_F1


def test_partial_weights_with_nothing_unmatched_then_one_unmatched():
    pairs = [pair("Ref a.", "Gen a."), pair("Ref b.", "Gen b.", anatomical="part-whole")]
    result = score_tags(RadsemTags(pairs, []))
    # q = (1 + 1/3) / 2 = 2/3, lambda = 0.25 / sqrt(2); 1 - lambda * (1/3) = 0.94107
    assert result.abnormal.mean_pair_weight == pytest.approx(2 / 3)
    assert result.abnormal.rule == RULE_PARTIAL_PENALTY
    assert round(result.score, 3) == 0.941
    # One unmatched Ref: M = 1 + 1/3 = 4/3 -> (8/3) / (8/3 + 1) = 8/11 = 0.7273
    result = score_tags(RadsemTags(pairs, [unmatched("Ref", "Ref c.")]))
    assert result.abnormal.matched == pytest.approx(4 / 3)
    assert round(result.score, 3) == 0.727


def test_all_weights_one_and_nothing_unmatched_scores_one():
    result = score_tags(RadsemTags([pair("A.", "B."), pair("C.", "D.", "normal")], []))
    assert result.score == 1.0
    assert result.abnormal.rule == result.normal.rule == RULE_ALL_MATCHED


# ------------------------------------------------------------------ matching rules


def test_many_to_many_pairs_cannot_inflate_matched_mass():
    # R1 pairs with three Gen sentences at weight 1; R1 can still only be matched once: M = 1.
    # With one unmatched Ref: 2 / (2 + 1) = 0.667 (a plain weight sum would give 6 / 7).
    pairs = [pair("R1.", "G1."), pair("R1.", "G2."), pair("R1.", "G3.")]
    result = score_tags(RadsemTags(pairs, [unmatched("Ref", "R2.")]))
    assert result.abnormal.matched == pytest.approx(1.0)
    assert result.score == pytest.approx(2 / 3)
    assert sum(p.flow for p in result.pairs) == pytest.approx(1.0)


def test_max_flow_finds_the_best_assignment():
    # R1-G1, R1-G2, R2-G1 all weight 1: R1->G2 and R2->G1 match both, M = 2 (a greedy R1->G1
    # would give 1). One unmatched Gen: 4 / (4 + 1) = 0.8.
    pairs = [pair("R1.", "G1."), pair("R1.", "G2."), pair("R2.", "G1.")]
    result = score_tags(RadsemTags(pairs, [unmatched("Gen", "G3.")]))
    assert result.abnormal.matched == pytest.approx(2.0)
    assert result.score == pytest.approx(0.8)
    assert [p.flow for p in result.pairs] == pytest.approx([0.0, 1.0, 1.0])


def test_duplicate_text_pairs_keep_the_highest_weight():
    pairs = [pair("R1.", "G1.", anatomical="part-whole"), pair(" R1. ", "G1."),
             pair("R1.", "G1.", details="none")]
    # Kept: pair 1 (weight 1). With one unmatched Gen: M = 1 -> 2 / 3 (keeping the first,
    # weight 1/3, would give (2/3) / (2/3 + 1) = 0.4).
    result = score_tags(RadsemTags(pairs, [unmatched("Gen", "G2.")]))
    assert result.abnormal.n_pairs == 1
    assert result.score == pytest.approx(2 / 3)
    assert [p.counted for p in result.pairs] == [False, True, False]
    assert result.pairs[0].reason == "duplicate of pair 1"
    assert result.pairs[2].reason == "duplicate of pair 1"
    # Nothing unmatched: the one distinct pair has weight 1 -> 1.0, no partial penalty.
    assert score_tags(RadsemTags(pairs, [])).score == 1.0


def test_duplicate_ties_keep_the_earliest():
    pairs = [pair("R1.", "G1.", details="partial"), pair("R1.", "G1.", details="partial")]
    result = score_tags(RadsemTags(pairs, []))
    assert [p.counted for p in result.pairs] == [True, False]
    # n = 1, q = 0.75, lambda = 0.25 -> 1 - 0.25 * 0.25 = 0.9375
    assert result.score == pytest.approx(0.9375)


def test_same_text_on_both_sides_is_two_nodes():
    result = score_tags(RadsemTags([pair("Heart size normal.", "Heart size normal.", "normal")],
                                   [unmatched("Ref", "Lungs clear.", "normal")]))
    # M = 1, U_ref = 1 -> 2 / 3
    assert result.normal.matched == pytest.approx(1.0)
    assert result.score == pytest.approx(2 / 3)


def test_only_normal_report_uses_the_normal_class_alone():
    pairs = [pair("Lungs clear.", "Lungs are clear.", "normal"),
             pair("Heart normal.", "Normal heart.", "normal")]
    result = score_tags(RadsemTags(pairs, []))
    assert not result.abnormal.present and result.abnormal.f1 is None
    assert result.abnormal.rule == RULE_ABSENT
    assert result.score == 1.0  # renormalised weight 0.1 / 0.1, not 0.1
    result = score_tags(RadsemTags(pairs, [unmatched("Gen", "Bones normal.", "normal")]))
    # M 2, U_gen 1 -> 4 / 5
    assert result.score == pytest.approx(0.8)


def test_class_present_through_unmatched_sentences_only():
    # Abnormal: nothing matched, one unmatched Ref -> 0 / 1 = 0; normal: one weight-1 pair -> 1.
    result = score_tags(RadsemTags([pair("Lungs clear.", "Lungs clear.", "normal")],
                                   [unmatched("Ref", "Small effusion.")]))
    assert result.abnormal.present and result.abnormal.f1 == 0.0
    # 0.9 * 0 + 0.1 * 1 = 0.1
    assert result.score == pytest.approx(0.1)


def test_empty_tags_score_zero():
    result = score_tags(RadsemTags())
    assert result.score == 0.0
    assert not result.abnormal.present and not result.normal.present


def test_invalid_items_are_ignored():
    pairs = [pair("R1.", "G1.", normality="Normal"), pair("   ", "G2."),
             pair("R3.", "G3.", "unclear")]
    items = [unmatched("Ref", "X.", "unknown"), unmatched("reference", "Y.")]
    result = score_tags(RadsemTags(pairs, items))
    assert result.score == 0.0
    assert not any(p.counted for p in result.pairs)
    assert "not one of" in result.pairs[0].reason and result.pairs[1].reason == "empty sentence"
    assert result.ignored_unmatched == [0, 1]
    # Next to one valid weight-1 abnormal pair the invalid ones change nothing.
    result = score_tags(RadsemTags(pairs + [pair("R4.", "G4.")], items))
    assert result.score == 1.0 and result.abnormal.n_pairs == 1


def test_score_round_trips_through_json():
    pairs = [pair("R1.", "G1.", anatomical="part-whole"), pair("R1.", "G2.", details="partial"),
             pair("N1.", "N1.", "normal"), pair("R1.", "G1.", "bad")]
    result = score_tags(RadsemTags(pairs, [unmatched("Gen", "G3."), unmatched("Ref", "Z.", "x")]))
    assert RadsemScore.from_json(json.loads(json.dumps(result.to_json()))) == result


# ------------------------------------------------------------------ schema and tags


VALID = {
    "pairs": [
        {"ref_sentence": "Right lower lobe consolidation.",
         "gen_sentence": "Right lung consolidation.",
         "normality": "abnormal", "anatomical_relationship": "part-whole",
         "asserted_abnormality_relationship": "equivalent",
         "negated_abnormality_relationship": None,
         "details_of_abnormality_relationship": "none"},
        {"ref_sentence": "Heart size normal.", "gen_sentence": "Normal heart size.",
         "normality": "normal", "anatomical_relationship": "equivalent",
         "asserted_abnormality_relationship": None, "negated_abnormality_relationship": None,
         "details_of_abnormality_relationship": None},
    ],
    "unmatched_sentences": [
        {"sentence_is_from": "Gen", "sentence": "Left effusion.", "normality": "abnormal"}],
}


def test_tag_schema_shape():
    assert set(TAG_SCHEMA["properties"]) == {"pairs", "unmatched_sentences"}
    assert TAG_SCHEMA["required"] == ["pairs", "unmatched_sentences"]
    assert TAG_SCHEMA["additionalProperties"] is False
    item = TAG_SCHEMA["properties"]["pairs"]["items"]
    assert len(item["required"]) == 7
    assert {"type": "null"} in item["properties"]["details_of_abnormality_relationship"]["anyOf"]
    assert REWRITE_SCHEMA["required"] == ["sentences"]


def test_schema_accepts_valid_output_with_jsonschema():
    import jsonschema

    jsonschema.validate(VALID, TAG_SCHEMA)
    jsonschema.validate({"sentences": ["Heart normal.", "Lungs clear."]}, REWRITE_SCHEMA)
    bad = json.loads(json.dumps(VALID))
    bad["pairs"][0]["normality"] = "Normal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, TAG_SCHEMA)


def test_schema_converts_to_a_llama_cpp_grammar():
    from llama_cpp import llama_grammar as grammar_module

    grammar = grammar_module.json_schema_to_gbnf(json.dumps(TAG_SCHEMA))
    assert '"\\"part-whole\\""' in grammar
    assert "| null" in grammar
    assert "root ::=" in grammar_module.json_schema_to_gbnf(json.dumps(REWRITE_SCHEMA))


def test_from_model_json_strict():
    tags = tags_from_model_json(VALID)
    assert tags.pairs[0].negated_abnormality_relationship is None
    assert tags.to_json() == VALID
    fenced = "```json\n" + json.dumps(VALID) + "\n```"
    assert tags_from_model_json(fenced) == tags
    bad = json.loads(json.dumps(VALID))
    bad["pairs"][1]["normality"] = "Normal"
    with pytest.raises(ValueError, match=r"pairs\[1\]\.normality"):
        tags_from_model_json(bad)
    bad = json.loads(json.dumps(VALID))
    del bad["unmatched_sentences"][0]["sentence"]
    with pytest.raises(ValueError, match=r"unmatched_sentences\[0\]\.sentence: missing"):
        tags_from_model_json(bad)
    with pytest.raises(ValueError, match="unexpected key 'notes'"):
        tags_from_model_json({**VALID, "notes": "x"})
    with pytest.raises(ValueError, match="not valid JSON"):
        tags_from_model_json("{pairs: [")


def test_tag_problems_lists_every_problem():
    problems = tag_problems({"pairs": [{"ref_sentence": "a", "gen_sentence": 3}],
                             "unmatched_sentences": "x"})
    assert "pairs[0].gen_sentence: expected a string, got 3" in problems
    assert "pairs[0].normality: missing" in problems
    assert "unmatched_sentences: expected an array, got str" in problems
    assert tag_problems(VALID) == []


def test_from_model_json_lenient_then_scored():
    data = json.loads(json.dumps(VALID))
    data["pairs"][1]["normality"] = "Normal"  # unusable: the scorer ignores this pair
    data["pairs"].append("not an object")
    tags = tags_from_model_json(data, strict=False)
    assert len(tags.pairs) == 2
    result = score_tags(tags)
    # Abnormal only: pair weight (1/3) * 0.5 = 1/6; M = 1/6, U_gen 1 ->
    # (1/3) / (1/3 + 1) = 0.25. The normal pair does not count, so the normal class is absent.
    assert result.abnormal.matched == pytest.approx(1 / 6)
    assert result.score == pytest.approx(0.25)
    assert not result.normal.present
    assert score_tags(tags_from_model_json(["not", "a", "dict"], strict=False)).score == 0.0


def test_tags_round_trip_through_json():
    tags = tags_from_model_json(VALID)
    assert RadsemTags.from_json(json.loads(json.dumps(tags.to_json()))) == tags
