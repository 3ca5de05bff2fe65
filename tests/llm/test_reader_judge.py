"""The LLM pipelines end to end with answers that mean something: a stand-in judge server on
127.0.0.1 (``tests.llm.reader_judge``) answers every prompt from the rules reader's reading of
the same reports, and CLEAR, VERT and RadSEM through ``--extractor llm`` must then score like
``--extractor rules`` on the same pairs.

Documented differences (docs/judges.md): VERT's overall score travels as a two-decimal string
(the schema's pattern), so the ``vert`` variant agrees to 0.005; lists longer than the schema's
bounds would be cut (none is, on these pairs: the test checks that nothing was cut).
"""
from __future__ import annotations

from typing import Any

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from tests.llm.reader_judge import ReaderJudgeServer

# The six example pairs and two written here: a CT report and a pair with devices and
# bilateral findings (the atomiser splits sides, CLEAR reads attributes of true positives).
PAIRS = [e.pair for e in example_pairs()] + [
    ReportPair("ct-1",
               "FINDINGS: Small left pleural effusion with adjacent atelectasis. A 6 mm nodule "
               "in the right upper lobe. The liver is normal. IMPRESSION: Small left effusion.",
               "FINDINGS: Moderate left pleural effusion. No pulmonary nodule. The liver is "
               "normal. IMPRESSION: Left effusion, larger than before.", "CT", "Chest"),
    ReportPair("devices-1",
               "FINDINGS: Endotracheal tube 4 cm above the carina. Bilateral lower lobe "
               "opacities, worse on the right. Mild cardiomegaly. No pneumothorax.",
               "FINDINGS: Endotracheal tube in place. Right lower lobe consolidation. Heart size "
               "is mildly enlarged. No pneumothorax.", "CR", "Chest"),
]

CASES = [
    ("clear", {"clear_mode": "fast"}, 1e-12),
    ("clear", {"clear_mode": "faithful"}, 1e-12),
    ("vert", {"vert_variant": "green"}, 1e-12),
    ("vert", {"vert_variant": "formula"}, 0.005),
    ("vert", {"vert_variant": "vert"}, 0.005),
    ("radsem", {"radsem_similarity": "lexical"}, 1e-12),
]


def _scores(metric: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    ctx = RuntimeContext(options=options)
    try:
        run = run_batch(PAIRS, [metric], ctx, registry=production())
    finally:
        ctx.close()
    return [row["metrics"][metric] for row in run.rows]


@pytest.mark.parametrize("dialect", ["json_schema", "json_object"])
@pytest.mark.parametrize(("metric", "options", "tolerance"), CASES,
                         ids=[f"{m}-{next(iter(o.values()))}" for m, o, _ in CASES])
def test_llm_pipeline_scores_like_the_rules_through_a_reader_judge(metric, options, tolerance,
                                                                   dialect):
    server = ReaderJudgeServer(PAIRS)
    with server as url:
        llm = _scores(metric, {"extractor": "llm", "judge_url": url, "judge_model": "reader",
                               "json_dialect": dialect, "judge_retries": 0, **options})
    rules = _scores(metric, {"extractor": "rules", **options})
    assert server.answers.calls, "the stand-in judge was never asked"
    compared = 0
    for pair, by_llm, by_rules in zip(PAIRS, llm, rules, strict=True):
        if by_rules["error"] is not None:  # the reader cannot read the pair: nor can its judge
            assert by_llm["error"] is not None, pair.id
            continue
        assert by_llm["error"] is None, (pair.id, by_llm["error"])
        assert by_llm["score"] == pytest.approx(by_rules["score"], abs=tolerance), pair.id
        compared += 1
    assert compared >= len(PAIRS) - 1


def test_the_reader_judge_answers_each_clear_faithful_question_by_its_schema():
    server = ReaderJudgeServer(PAIRS[-1:])
    with server as url:
        _scores("clear", {"extractor": "llm", "judge_url": url, "judge_model": "reader",
                          "clear_mode": "faithful", "judge_retries": 0})
    asked = set(server.answers.calls)
    assert {"clear.presence", "clear.attr.severity", "clear.attr.change",
            "clear.attr.first occurrence", "clear.attr.descriptive location",
            "clear.attr.recommendation"} <= asked
