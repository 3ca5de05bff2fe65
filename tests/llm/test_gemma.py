"""The three pipelines end to end on the real offline judge (Gemma 3 270M base, demo-grade).

The judge's opinions are meaningless; what is checked is that a real model's constrained
answers flow through every stage into well-formed, signed, demo-labelled results.
"""
import pytest

from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from tests.llm.test_pipelines_tiny import (
    INJECTION,
    assert_clear_structure,
    assert_radsem_structure,
)

pytestmark = pytest.mark.slow

REF = "FINDINGS: Small left pleural effusion. The heart is normal in size.\nIMPRESSION: Small left effusion."
CAND = "FINDINGS: Small left pleural effusion. No pneumothorax.\nIMPRESSION: Left effusion."


def assert_gemma_signed(result):
    sig = result["signature"]
    assert "judge:gemma3-270m-demo" in sig and "judge_hash:a5fd3b62230a" in sig
    assert "quant:gemma3 270M Q4_K - Medium" in sig and "chat:gemma" in sig
    assert "decoding:greedy,seed=0" in sig
    assert result["model"] == "gemma3-270m-demo" and result["demo_grade"] is True


def test_clear_fast_on_gemma(ctx_factory):
    run = run_batch([ReportPair("g1", REF, CAND)], ["clear"], ctx_factory("gemma3-270m-demo"), registry=production())
    r = run.rows[0]["metrics"]["clear"]
    assert r["error"] is None, r["error"]
    assert_clear_structure(r)
    assert_gemma_signed(r)
    assert "mode:fast" in r["signature"] and "clear.presence@2" in r["signature"]
    assert run.summary["metrics"]["clear"]["demo_grade"] is True


def test_vert_on_gemma_with_a_report_that_tries_to_instruct_the_judge(ctx_factory):
    pairs = [ReportPair("inj", REF, INJECTION)]
    first = run_batch(pairs, ["vert"], ctx_factory("gemma3-270m-demo"), registry=production())
    r = first.rows[0]["metrics"]["vert"]
    assert_gemma_signed(r)
    if r["error"] is None:
        assert 0.0 <= r["score"] <= 1.0
        a = r["assessment"]
        assert a["raw_format"] == "json"
        assert set(a["significant_errors"]) == set("abcdef")
        assert 0.0 <= a["overall_score"] <= 1.0
    else:  # reported per pair, not raised and not a silent 0
        assert r["score"] is None and r["error"].startswith(("judge", "judge answer unusable"))
    second = run_batch(pairs, ["vert"], ctx_factory("gemma3-270m-demo"), registry=production())
    assert second.summary["model_calls"] == 0
    assert second.rows[0]["metrics"]["vert"]["score"] == r["score"]


def test_radsem_on_gemma(ctx_factory):
    run = run_batch([ReportPair("g1", REF, CAND, modality="CR", area="Chest")], ["radsem"],
                    ctx_factory("gemma3-270m-demo"), registry=production())
    r = run.rows[0]["metrics"]["radsem"]
    assert r["error"] is None, r["error"]
    assert_radsem_structure(r)
    assert_gemma_signed(r)
    assert r["extraction"]["ref_sentences"] and r["extraction"]["gen_sentences"]
