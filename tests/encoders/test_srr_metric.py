"""The registered ``srr`` metric on the bundled model: utterances, unions, views, corpus."""
import json

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.results import result_dict
from radscope.models.srr_labels import split_status
from tests.reference.summary import stored_corpus

REPORT = "FINDINGS:\n1. Small left pleural effusion.\n2. No pneumothorax.\nHeart size is normal."


def _metric(**options):
    # The encoder named explicitly: the default ("auto") is the rules reader (--extractor rules).
    return production().get("srr").build(RuntimeContext(options={
        "encoder_threads": 2, "srr_model": "srr-minilm-demo", **options}))


def test_report_labels_are_the_union_of_utterance_labels():
    metric = _metric()
    result = metric.score_pairs([ReportPair("x", REPORT, REPORT)])[0]
    utterances = result.details["utterances"]["reference"]
    # Header and list numbers are stripped by engine.io.reports.split_utterances.
    assert [u["text"] for u in utterances] == ["Small left pleural effusion.", "No pneumothorax.",
                                               "Heart size is normal."]
    union = sorted({label for u in utterances for label in u["labels"]})
    assert result.details["reference_labels"] == union
    assert "Simple pleural effusion (Present)" in union
    assert result.score == 1.0  # identical reports
    assert result.details["leaf"]["f1"] == 1.0 and result.details["upper"]["f1"] == 1.0


def test_missing_finding_lowers_f1_by_the_set_formula():
    metric = _metric()
    ref = "Small left pleural effusion. Moderate cardiomegaly."
    result = metric.score_pairs([ReportPair("y", ref, "Small left pleural effusion.")])[0]
    d = result.details
    ref_set, cand_set = set(d["reference_labels"]), set(d["candidate_labels"])
    both = ref_set & cand_set
    # true F1 = 2|R n C| / (|R| + |C|)
    assert result.score == pytest.approx(2 * len(both) / (len(ref_set) + len(cand_set)))
    assert "Cardiomegaly (Present)" in d["leaf"]["only_reference"]
    assert result.score < 1.0


def test_present_view_drops_statuses_and_absent_findings():
    metric = _metric(srr_view="present")
    result = metric.score_pairs([ReportPair("z", REPORT, "No pleural effusion.")])[0]
    leaf = result.details["leaf"]
    assert leaf["view"] == "present"
    assert all(split_status(label)[1] is None for label in leaf["reference"])
    assert "Simple pleural effusion" in leaf["reference"] and leaf["candidate"] == []
    assert result.score == 0.0


def test_corpus_from_stored_results_has_every_average():
    metric = _metric()
    pairs = [ReportPair(str(i), REPORT, c) for i, c in enumerate(
        [REPORT, "Small left pleural effusion.", "Large right pneumothorax."])]
    results = metric.score_pairs(pairs)
    stored = [json.loads(json.dumps(result_dict(metric, r))) for r in results]
    corpus = stored_corpus(metric, stored)
    for level in ("leaf", "upper"):
        agg = corpus[level]
        assert agg["n_reports"] == 3
        for avg in ("weighted", "micro", "macro", "samples"):
            assert set(agg[avg]) == {"precision", "recall", "f1"}
    # samples F1 = mean of the per-pair F1 values
    assert corpus["leaf"]["samples"]["f1"] == pytest.approx(sum(r.score for r in results) / 3)
    assert corpus["leaf"]["level"] == "leaves_with_statuses"
    assert corpus["upper"]["level"] == "upper_with_statuses"
