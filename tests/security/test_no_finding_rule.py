"""One rule for pairs without findings, the same in every metric that reads findings
(engine.eligibility.readable; docs/security.md, "Pairs without findings").

Before: "Ok." against "Ok." gave RadSEM 0.0, CLEAR 1.0 and CREPE "cannot read"; "NaN" against
"No effusion." gave CLEAR 1.0, CREPE 0 errors, RadSEM 0.0; two normal reports worded
differently disagreed in VERT, SRR-BERT and RadSEM.
"""
from __future__ import annotations

import pytest

from radscope.engine.api import Scorer
from radscope.engine.eligibility.readable import NORMAL_ONLY_KEY, normal_only, pair_unreadable
from radscope.engine.io.reports import ReportPair

FINDING_METRICS = ("clear", "crepe", "vert", "srr", "radsem")
BEST = {"clear": 1.0, "crepe": 0.0, "vert": 1.0, "srr": 1.0, "radsem": 1.0}
SAYS_NOTHING = [("Ok.", "Ok.", "reference"), ("NaN", "No effusion.", "reference"),
                ("See prior report.", "See prior report.", "reference"),
                ("Small left pleural effusion.", "Ok.", "candidate")]
NORMAL_ONLY = [("No effusion.", "No effusion."), ("No effusion.", "Lungs are clear."),
               ("Normal chest radiograph.", "No acute cardiopulmonary process."),
               ("Lungs are clear. Heart size normal.", "No pleural effusion or pneumothorax.")]


@pytest.fixture(scope="module")
def scorer():
    with Scorer([*FINDING_METRICS, "bleu", "rouge"], extractor="rules", workers=1) as scorer:
        yield scorer


def test_a_report_that_states_no_finding_cannot_be_read_by_any_finding_metric(scorer):
    scores = scorer.score([r for r, _, _ in SAYS_NOTHING], [c for _, c, _ in SAYS_NOTHING])
    for (reference, candidate, side), record in zip(SAYS_NOTHING, scores.records, strict=True):
        for name in FINDING_METRICS:
            result = record["metrics"][name]
            assert result["score"] is None and result["error"] == (
                f"cannot read: {side} report states no finding, not even a normal one (nothing a "
                "finding metric can compare)"), (reference, candidate, name, result)
        # Word overlap compares wording, not findings: it keeps its number.
        assert record["metrics"]["bleu"]["error"] is None and record["metrics"]["rouge"]["error"] is None


def test_two_reports_that_only_state_normality_agree_in_every_metric(scorer):
    scores = scorer.score([r for r, _ in NORMAL_ONLY], [c for _, c in NORMAL_ONLY])
    for pair, record in zip(NORMAL_ONLY, scores.records, strict=True):
        for name in FINDING_METRICS:
            result = record["metrics"][name]
            assert result["error"] is None and result["score"] == BEST[name], (pair, name, result)
            assert "agree" in result[NORMAL_ONLY_KEY]


def test_a_pair_with_an_abnormal_finding_is_scored_as_before(scorer):
    record = scorer.score(["No pleural effusion."], ["Small left pleural effusion."]).records[0]
    for name in FINDING_METRICS:
        result = record["metrics"][name]
        assert result["error"] is None and NORMAL_ONLY_KEY not in result
        assert result["score"] != BEST[name], (name, result)


def test_the_rule_leaves_non_english_text_to_an_llm_judge_and_skips_word_overlap():
    french = ReportPair("p", "Absence d'épanchement pleural.", "Poumons clairs, pas de pneumothorax.")
    assert pair_unreadable(french, "any") is None and not normal_only(french, "any")
    nothing = ReportPair("p", "Ok.", "Ok.")
    assert pair_unreadable(nothing, "latin") is None and not normal_only(
        ReportPair("p", "No effusion.", "Lungs clear."), "latin")
