"""Signatures and model cards of encoder metrics come from the manifest: no session is built
until a pair is scored, so a re-run whose results are all stored loads no model."""
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runs.store import Store

PAIRS = [
    ReportPair("a", "Small left pleural effusion.", "Small left pleural effusion."),
    ReportPair("b", "No acute cardiopulmonary process.", "Large right pneumothorax."),
]


def _sessions(ctx: RuntimeContext) -> list:
    return [key for key in ctx._resources if key[0] == "onnx_encoder"]


# the bundled models by name (the default CREPE and SRR readers are the rules views)
ENCODERS = {"encoder_threads": 2, "crepe_model": "crepe-minilm-demo", "srr_model": "srr-minilm-demo"}


@pytest.mark.parametrize("name", ["crepe", "srr"])
def test_signature_and_model_info_need_no_session_and_match_a_loaded_one(name):
    ctx = RuntimeContext(options=dict(ENCODERS))
    metric = production().get(name).build(ctx)
    try:
        before, info_before = metric.signature(), metric.model()
        assert _sessions(ctx) == []
        metric.score_pairs(PAIRS[:1])  # builds the session
        assert len(_sessions(ctx)) == 1
        # The planned signature and card are the ones the loaded session gives.
        assert metric.signature() == before
        assert metric.model() == info_before
        assert "|precision:int8|" in before and "|batch:32|" in before
    finally:
        ctx.close()


def test_a_cached_rerun_builds_no_session(tmp_path):
    store = Store(tmp_path / "r.sqlite")
    first_ctx = RuntimeContext(options=dict(ENCODERS))
    first = run_batch(PAIRS, ["crepe", "srr"], first_ctx, store=store, run_id="cached", registry=production())
    assert len(_sessions(first_ctx)) == 2
    first_ctx.close()

    ctx = RuntimeContext(options=dict(ENCODERS))
    again = run_batch(PAIRS, ["crepe", "srr"], ctx, store=store, run_id="cached", registry=production())
    assert _sessions(ctx) == []
    assert again.rows == first.rows
    for metric in ("crepe", "srr"):
        assert again.summary["metrics"][metric]["signature"] == \
            first.summary["metrics"][metric]["signature"]
        assert again.summary["metrics"][metric]["mean"] == first.summary["metrics"][metric]["mean"]
    ctx.close()
    store.close()
