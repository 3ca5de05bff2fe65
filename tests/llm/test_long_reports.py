"""A 2,000-character findings text through RadSEM, CLEAR (faithful) and VERT on the real
llama.cpp runtime (the demo GGUF in its judge worker): every pair ends in a schema-valid
answer or in a failure whose cause is the model (or the token cap set here), never the
pipeline's (grammar, server) or the runtime's (crash, timeout), and never a context refusal:
2,000 characters fit the demo judge's 8,192 tokens.

RadSEM's rewrite of such a text used to fail every time (one string of 3 x 2,000 characters
is past llama.cpp's grammar limit). Answers are capped at ``CAP`` tokens so that the test runs
in minutes on two cores; a cut-off there is the "budget" failure, which the summary counts.
"""
from __future__ import annotations

import pytest

from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch

pytestmark = pytest.mark.slow

CAP = 48
SENTENCES = (
    "Small left pleural effusion with adjacent compressive atelectasis of the left lower lobe.",
    "A 6 mm solid nodule in the right upper lobe.", "Mild cardiomegaly.", "No pneumothorax.",
    "Endotracheal tube terminates 4 cm above the carina.",
    "Degenerative changes of the thoracic spine.",
    "Right internal jugular central venous catheter with its tip in the superior vena cava.",
    "Patchy opacity in the right lower lobe, possibly pneumonia.",
)


def _findings(length: int) -> str:
    text, i = "", 0
    while len(text) < length:
        text += SENTENCES[i % len(SENTENCES)] + " "
        i += 1
    return text[:length].rstrip()


LONG = _findings(2000)
PAIR = ReportPair("long-2000", f"FINDINGS: {LONG}",
                  f"FINDINGS: {LONG[:1200].rstrip()} No pleural effusion.", "CR", "Chest")


@pytest.mark.parametrize(("metric", "options"), [
    ("radsem", {}), ("clear", {"clear_mode": "faithful"}), ("vert", {"vert_variant": "vert"})])
def test_a_2000_character_report_never_meets_a_pipeline_failure(ctx_factory, metric, options):
    assert len(LONG) == 2000
    ctx = ctx_factory("gemma3-270m-demo", judge_max_tokens=CAP, judge_retries=0,
                      judge_timeout=1800, **options)
    run = run_batch([PAIR], [metric], ctx, registry=production())
    result = run.rows[0]["metrics"][metric]
    if result["error"] is None:  # schema-valid answers, read and scored
        assert not result.get("not_applicable"), result["not_applicable"]
        assert result["demo_grade"] is True and result["judge_calls"], result
        assert result["score"] is not None
    else:
        failure = result["judge_error"]
        assert failure["cause"] in ("model quality", "setting"), failure
        assert failure["category"] in ("schema", "length", "not a judgement", "budget"), failure
        counted = run.summary["metrics"][metric]["judge_failures"]
        assert counted == {failure["category"]: 1}
