"""Scores from judge assessments: formulas, the headline per variant, detection F1, ensembles.

Expected values are derived by hand in the comments (M matched, S significant, I insignificant).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from radscope.engine.metrics.vert.parse import parse_assessment
from radscope.engine.metrics.vert.score import (
    VARIANTS,
    DetectionF1,
    JudgeScores,
    category_counts,
    compute_scores,
    detection_f1,
    formula,
    green,
    green_f1,
)
from tests.reference.vert import ensemble_corpus, ensemble_mean

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "judge"


def scores_of(name: str, **kwargs) -> JudgeScores:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    return compute_scores(parse_assessment(text, **kwargs))


# --------------------------------------------------------------------------- formulas

def test_formulas_by_hand():
    # M=2, S=2, I=1: GREEN 2/4; F1 4/6; formula 2/(2 + 4 + 0.5) = 4/13.
    assert green(2, 2) == pytest.approx(0.5)
    assert green_f1(2, 2) == pytest.approx(2 / 3)
    assert formula(2, 2, 1) == pytest.approx(4 / 13)
    # No errors at all: every ratio is 1, insignificant errors only lower the formula.
    assert green(3, 0) == green_f1(3, 0) == formula(3, 0, 0) == 1.0
    assert formula(3, 0, 2) == pytest.approx(3 / 4)  # 3 / (3 + 0 + 1)


def test_zero_matched_is_zero_for_all_ratios():
    # GREEN's convention (M = 0 -> 0 even without errors); F1 and formula share it, which also
    # settles their 0/0 case.
    assert green(0, 0) == green_f1(0, 0) == formula(0, 0, 0) == 0.0
    assert green(0, 4) == green_f1(0, 4) == formula(0, 4, 1) == 0.0


# --------------------------------------------------------------------------- recorded answers

def test_scores_vert_sections_clean():
    s = scores_of("vert_sections_clean.txt")
    # M=2 (two findings), S=1+1 (b, d), I=1 (e).
    assert s.matched == 2 and s.error_count == 2 and s.total_error_count == 3
    assert s.green == pytest.approx(0.5)          # 2 / (2 + 2)
    assert s.green_f1 == pytest.approx(2 / 3)     # 4 / (4 + 2)
    assert s.formula == pytest.approx(4 / 13)     # 2 / (2 + 4 + 0.5)
    assert s.vert == pytest.approx(0.55)
    assert s.unavailable == {}


def test_scores_green_compact():
    s = scores_of("green_sections_compact.txt", expect_score=False)
    # M=3 ("Three"), S=1+1 (a, c), I=0.
    assert s.green == pytest.approx(0.6)          # 3 / 5
    assert s.green_f1 == pytest.approx(0.75)      # 6 / 8
    assert s.formula == pytest.approx(3 / 7)      # 3 / (3 + 4)
    assert s.headline("green") == pytest.approx(0.6)
    assert s.headline("vert") is None
    assert "unparsable" in s.headline_error("vert")


def test_scores_scaffolding_fixture():
    s = scores_of("green_sections_scaffolding.txt", expect_score=False)
    # M=3, S=1+1 (b, d), I=1 (c): formula 3 / (3 + 4 + 0.5) = 0.4.
    assert s.green == pytest.approx(0.6)
    assert s.formula == pytest.approx(0.4)
    assert s.total_error_count == 3


def test_scores_json_bare():
    s = scores_of("vert_json_bare.json")
    # M=4, S=0, I=1: GREEN 1, F1 1, formula 4 / 4.5.
    assert s.green == 1.0 and s.green_f1 == 1.0
    assert s.formula == pytest.approx(8 / 9)
    assert s.error_count == 0 and s.total_error_count == 1
    assert s.vert == pytest.approx(0.92)


def test_scores_use_the_count_not_the_list_length():
    s = scores_of("vert_json_fenced.md")
    # (a) count 2 with one listed error, (b) 1: S=3 (the list would give 2 and GREEN 1/3).
    assert s.error_count == 3
    assert s.green == pytest.approx(0.25)          # 1 / (1 + 3)
    assert s.green_f1 == pytest.approx(0.4)        # 2 / (2 + 3)
    assert s.formula == pytest.approx(1 / 7)       # 1 / (1 + 6)


def test_formula_headline_prefers_the_judges_own_number():
    s = scores_of("formula_json_embedded.txt")
    # M=1, S=1, I=0: computed formula 1/(1+2) = 1/3; the judge wrote "0.33".
    assert s.formula == pytest.approx(1 / 3)
    assert s.headline("formula") == pytest.approx(0.33)
    text = (FIXTURES / "formula_json_embedded.txt").read_text(encoding="utf-8")
    without = text.replace(', "overall_score": "0.33"', "")
    fallback = compute_scores(parse_assessment(without))
    assert fallback.vert is None
    assert fallback.headline("formula") == pytest.approx(1 / 3)


def test_missing_section_makes_dependent_scores_unavailable():
    s = scores_of("vert_sections_missing_matched.txt")
    assert s.vert == pytest.approx(0.85)
    assert s.headline("vert") == s.headline("rubric") == pytest.approx(0.85)
    assert s.green is None and s.green_f1 is None and s.formula is None and s.matched is None
    assert s.error_count == 2 and s.total_error_count == 2  # b + f; insignificant "No errors"
    assert "Matched Findings" in s.unavailable["green"]
    assert s.headline("green") is None
    assert "Matched Findings" in s.headline_error("green")
    assert s.headline_error("vert") is None


def test_every_variant_has_a_headline_and_unknown_is_an_error():
    s = scores_of("vert_sections_clean.txt")
    assert {v: s.headline(v) for v in VARIANTS} == pytest.approx(
        {"vert": 0.55, "rubric": 0.55, "green": 0.5, "formula": 0.55})
    with pytest.raises(ValueError):
        s.headline("bleu")  # type: ignore[arg-type]


def test_judge_scores_round_trip():
    s = scores_of("vert_sections_missing_matched.txt")
    assert JudgeScores.from_json(json.loads(json.dumps(s.to_json()))) == s


# --------------------------------------------------------------------------- detection F1

def test_category_counts_kinds():
    a = parse_assessment((FIXTURES / "vert_sections_clean.txt").read_text(encoding="utf-8"))
    assert category_counts(a) == {"a": 0, "b": 1, "c": 0, "d": 1, "e": 0, "f": 0}
    assert category_counts(a, "both") == {"a": 0, "b": 1, "c": 0, "d": 1, "e": 1, "f": 0}
    missing = parse_assessment(
        (FIXTURES / "vert_sections_missing_matched.txt").read_text(encoding="utf-8"))
    missing.insignificant = None
    assert category_counts(missing, "both") is None


def test_detection_f1_by_hand():
    human = [{"a": 1, "b": 0, "c": 2}, {"a": 0, "b": 1}, {"d": 1.5}]
    model = [{"a": 2, "b": 0, "c": 1}, {"a": 0, "b": 0, "e": 1}, {"d": 1}]
    result = detection_f1(human, model)
    per = result.per_category
    # a: pair 1 h=1 g=2 -> TP 1, FP 1, FN 0; F1 = 2/(2+1+0) = 2/3; P 1/2; R 1.
    assert (per["a"].tp, per["a"].fp, per["a"].fn) == (1, 1, 0)
    assert per["a"].f1 == pytest.approx(2 / 3)
    assert per["a"].precision == pytest.approx(0.5) and per["a"].recall == 1.0
    # b: pair 2 h=1 g=0 -> TP 0, FP 0, FN 1; F1 0; precision 0/0 -> 0.
    assert (per["b"].tp, per["b"].fp, per["b"].fn) == (0, 0, 1)
    assert per["b"].f1 == 0.0 and per["b"].precision == 0.0
    # c: pair 1 h=2 g=1 -> TP 1, FN 1; F1 = 2/3; recall 1/2.
    assert per["c"].f1 == pytest.approx(2 / 3) and per["c"].recall == pytest.approx(0.5)
    # d: pair 3 h=1.5 g=1 -> TP 1, FN 0.5; F1 = 2/(2+0.5) = 0.8 (fractional human counts).
    assert per["d"].f1 == pytest.approx(0.8)
    # e: pair 2 h=0 g=1 -> FP 1; F1 0.   f: nothing anywhere -> 0/0 -> 0.
    assert per["e"].f1 == 0.0 and per["f"].f1 == 0.0
    # overall: TP 3, FP 2, FN 2.5 -> F1 = 6/10.5 = 4/7; P 3/5; R 3/5.5.
    assert (result.overall.tp, result.overall.fp, result.overall.fn) == (3, 2, 2.5)
    assert result.overall.f1 == pytest.approx(4 / 7)
    assert result.overall.precision == pytest.approx(0.6)
    assert result.overall.recall == pytest.approx(3 / 5.5)
    assert result.n_pairs == 3
    assert DetectionF1.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_detection_f1_rejects_bad_input():
    with pytest.raises(ValueError, match="2 human"):
        detection_f1([{}, {}], [{}])
    with pytest.raises(ValueError, match="unknown categories"):
        detection_f1([{"A": 1}], [{"a": 1}])
    with pytest.raises(ValueError, match="negative"):
        detection_f1([{"a": -1}], [{"a": 1}])


# --------------------------------------------------------------------------- ensembles

def test_ensemble_mean_skips_unavailable_judges():
    assert ensemble_mean([0.6, None, 0.8]) == pytest.approx(0.7)   # (0.6 + 0.8) / 2
    assert ensemble_mean([None, None]) is None
    assert ensemble_mean([0.6, None, 0.8], min_judges=3) is None
    assert ensemble_mean([]) is None


def test_ensemble_corpus_pair_by_pair():
    # judge 1: [0.5, None, 1.0], judge 2: [0.7, None, 0.0] -> [0.6, None, 0.5]
    result = ensemble_corpus([[0.5, None, 1.0], [0.7, None, 0.0]])
    assert result[0] == pytest.approx(0.6) and result[1] is None
    assert result[2] == pytest.approx(0.5)
    with pytest.raises(ValueError):
        ensemble_corpus([[0.5], [0.5, 0.6]])
