"""One rule for pairs without findings, the same in every metric that reads findings
(engine.eligibility.readable; docs/security.md, "Pairs without findings").

Before: "Ok." against "Ok." gave RadSEM 0.0, CLEAR 1.0 and CREPE "cannot read"; "NaN" against
"No effusion." gave CLEAR 1.0, CREPE 0 errors, RadSEM 0.0; a report that states only normal
findings is a report with findings, scored by each metric's own definition.
"""
from __future__ import annotations

import pytest

from radscope.engine.api import Scorer
from radscope.engine.eligibility.readable import finding_rule, pair_unreadable
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
                f"cannot read: {side} report makes no statement about a patient: no finding, "
                "device, normal or abnormal word, change or verdict the reader knows"), (
                reference, candidate, name, result)
        # Word overlap compares wording, not findings: it keeps its number.
        assert record["metrics"]["bleu"]["error"] is None and record["metrics"]["rouge"]["error"] is None


def test_normal_only_reports_are_scored_by_each_metrics_own_definition(scorer):
    """Normal statements are findings: nothing is refused, and nothing is replaced. The same
    normal report scores full agreement; two that state different normal findings get each
    metric's own value (RadSEM and SRR-BERT compare the normal statements, as their reference
    code does; CLEAR compares the presence of its 13 conditions, all absent in both)."""
    scores = scorer.score([r for r, _ in NORMAL_ONLY], [c for _, c in NORMAL_ONLY])
    for pair, record in zip(NORMAL_ONLY, scores.records, strict=True):
        for name in FINDING_METRICS:
            result = record["metrics"][name]
            assert result["error"] is None and result["score"] is not None, (pair, name, result)
    same = scores.records[0]["metrics"]
    assert {name: same[name]["score"] for name in FINDING_METRICS} == BEST
    different = scores.records[1]["metrics"]  # "No effusion." / "Lungs are clear."
    assert different["clear"]["score"] == 1.0 and different["crepe"]["score"] == 0.0
    assert different["radsem"]["score"] == 0.0  # two unmatched normal statements (spec step 4)


def test_a_pair_with_an_abnormal_finding_is_scored_as_before(scorer):
    record = scorer.score(["No pleural effusion."], ["Small left pleural effusion."]).records[0]
    for name in FINDING_METRICS:
        result = record["metrics"][name]
        assert result["error"] is None
        assert result["score"] != BEST[name], (name, result)


def test_the_rule_leaves_non_english_text_to_an_llm_judge_and_skips_word_overlap():
    french = ReportPair("p", "Absence d'épanchement pleural.", "Poumons clairs, pas de pneumothorax.")
    assert pair_unreadable(french, "any") is None and finding_rule([french], "any") == [french]
    nothing = ReportPair("p", "Ok.", "Ok.")
    assert pair_unreadable(nothing, "latin") is None and finding_rule([nothing], "latin") == [nothing]
