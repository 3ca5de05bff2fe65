"""The registered ``crepe`` metric on the bundled model: batching, details, corpus, failures."""
import json

import numpy as np
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.crepe.score import CrepeCounts
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.results import result_dict
from radscope.engine.runs.runner import run_batch
from tests.reference.summary import stored_corpus

PAIRS = [
    ReportPair("a", "Small left pleural effusion. Heart size is normal.",
               "Small left pleural effusion. Heart size is normal."),
    ReportPair("b", "No acute cardiopulmonary process.",
               "Large right pneumothorax. Moderate pulmonary edema."),
    ReportPair("c", "Moderate cardiomegaly. No pneumothorax.", "Normal chest radiograph."),
]


@pytest.fixture
def metric():
    # Named explicitly: the default ("auto") is the rules reader under --extractor rules.
    ctx = RuntimeContext(options={"encoder_threads": 2, "crepe_model": "crepe-minilm-demo"})
    m = production().get("crepe").build(ctx)
    yield m
    ctx.close()


def test_batched_scores_equal_one_at_a_time(metric):
    batched = metric.score_pairs(PAIRS)
    single = [metric.score_pairs([p])[0] for p in PAIRS]
    # Per-row int8 scales and calls of one token length: neighbours cannot change a value.
    assert [r.score for r in batched] == [r.score for r in single]
    for r in batched:
        assert r.error is None
        counts = CrepeCounts.from_json(r.details)
        # score = sum of the six clipped counts; each clipped count = max(raw, 0)
        np.testing.assert_allclose(counts.as_array(), np.maximum(r.details["raw"], 0.0))
        assert r.score == pytest.approx(sum(counts.counts.values()))


def test_details_round_trip_and_corpus_means_are_recomputed(metric):
    results = metric.score_pairs(PAIRS)
    stored = [json.loads(json.dumps(result_dict(metric, r))) for r in results]
    corpus = stored_corpus(metric, stored)
    expected_total = np.mean([r.score for r in results])
    assert corpus["n_pairs"] == 3
    assert corpus["mean_total"] == pytest.approx(expected_total)
    for key in "ABCDEF":
        assert corpus["mean_counts"][key] == pytest.approx(
            np.mean([r.details["counts"][key] for r in results]))


def test_model_info_and_signature_name_the_model_and_provider(metric):
    info = metric.model()
    assert info.id == "crepe-minilm-demo" and info.demo_grade and info.source == "bundled"
    assert "CPUExecutionProvider" in info.device and info.detail["precision"] == "int8"
    sig = metric.signature()
    assert sig.startswith("crepe|v:1|model:crepe-minilm-demo|sha:")
    assert "|precision:int8|" in sig and "|batch:32|" in sig and "|softplus:no|" in sig


def test_unexported_model_fails_per_pair_with_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("RADSCOPE_MODELS", str(tmp_path))
    ctx = RuntimeContext(options={"crepe_model": "crepe-biomedbert"})
    run = run_batch(PAIRS[:2], ["crepe"], ctx, registry=production())
    for row in run.rows:
        result = row["metrics"]["crepe"]
        assert result["score"] is None
        assert "radscope models export crepe-biomedbert" in result["error"]
    assert run.summary["metrics"]["crepe"]["n_errors"] == 2
    assert "sha:unavailable" in run.summary["metrics"]["crepe"]["signature"]
