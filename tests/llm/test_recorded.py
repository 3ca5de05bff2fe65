"""Scoring on recorded judge answers (tests/fixtures/llm/), asserted exactly.

The recorded answers are replayed through the real pipelines (prompt rendering, tolerant
parsing, validation, post-processing, scoring); every expected number is derived by hand in
the comments.
"""
import json
import math

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.judging import JudgeConfig
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runtimes.judge import Judge
from tests.llm.conftest import ReplayBackend, ScriptedBackend, load_fixture


def ctx_with_judge(judge: Judge, **options) -> RuntimeContext:
    """A run context whose judge (for these options) is ``judge``; CLEAR and RadSEM read
    reports with it."""
    ctx = RuntimeContext(options={"extractor": "llm", **options})
    ctx.resource(JudgeConfig.from_ctx(ctx).resource_key(), lambda: judge)
    return ctx


def _pair(data) -> ReportPair:
    return ReportPair(**data)


def test_clear_fast_on_recorded_answers():
    fx = load_fixture("clear_fast.json")
    ctx = ctx_with_judge(Judge(ReplayBackend(fx["answers"])), clear_llm_similarity=True)
    run = run_batch([_pair(fx["pair"])], ["clear"], ctx, registry=production())
    r = run.rows[0]["metrics"]["clear"]
    assert r["error"] is None
    # Positive cells: reference {Pleural Effusion, Cardiomegaly}, candidate {Pleural Effusion,
    # Pneumothorax}: TP 1, FP 1, FN 1 -> F1 = 2 / (2 + 1 + 1) = 0.5.
    assert r["score"] == 0.5 and r["pos_f1"] == 0.5
    # Negative cells: reference {Edema}, candidate {Cardiomegaly, Edema}: TP 1, FP 1 -> 2/3.
    assert r["neg_f1"] == pytest.approx(2 / 3)
    assert r["true_positives"] == ["Pleural Effusion"]
    # Choices: first occurrence current = current; change N/A vs worsening; mild vs moderate.
    assert r["choice_agreement"] == {"first occurrence": 1.0, "change": 0.0, "severity": 0.0}
    location = r["list_similarity"]["descriptive location"]
    # ROUGE-L of "small left pleural effusion" vs "left pleural effusion": LCS 3 words,
    # P = 3/3, R = 3/4 -> F = 2 * 1 * 0.75 / 1.75 = 6/7.
    assert location["rouge_l"] == pytest.approx(6 / 7)
    assert location["llm"] == 0.8  # the recorded rating
    recommendation = r["list_similarity"]["recommendation"]
    assert recommendation["rouge_l"] == 1.0  # "N/A" and "n/a" both normalise to N/A
    assert recommendation["llm"] is None      # "They look the same to me." is no number
    row = next(x for x in r["list_rows"] if x["attribute"] == "recommendation")
    assert row["llm_status"] == "unparsable" and row["candidate"] == ["N/A"]
    assert len(r["table"]) == 13
    assert r["signature"].startswith("clear|v:1|extractor:llm|judge:recorded-judge|")
    assert "mode:fast|llm_sim:yes|top5:code" in r["signature"]
    corpus = run.summary["metrics"]["clear"]["corpus"]
    assert corpus["presence"]["pos_f1@13"] == pytest.approx(1 / 13)  # PE 1.0; Card, PTX 0.0
    assert corpus["lists"]["recommendation"]["llm_unparsable"] == 1
    assert corpus["presence_other_top5"]["top5_set"] == "paper"
    # Judge questions: 2 presence + 2 attributes + 2 ratings (the second rating tried 3 times).
    assert [c["prompt"] for c in r["judge_calls"]] == [
        "clear.presence@2", "clear.presence@2", "clear.attributes@2", "clear.attributes@2",
        "clear.list_similarity@2", "clear.list_similarity@2"]


VERT_EXPECTED = {
    # M = 3 matched, S = 1 + 1 = 2 significant, I = 1 insignificant.
    "vert": 0.62,                  # the judge's own score
    "green": 3 / (3 + 2),          # M / (M + S) = 0.6
    "green_f1": 6 / (6 + 2),       # 2M / (2M + S) = 0.75
    "formula": 3 / (3 + 4 + 0.5),  # M / (M + 2S + 0.5 I) = 0.4
    "error_count": 2, "total_error_count": 3, "matched": 3,
}


@pytest.mark.parametrize("variant,headline", [("vert", 0.62), ("rubric", 0.62), ("green", 0.6),
                                              ("formula", 0.40)])
def test_vert_variants_on_recorded_answers(variant, headline):
    fx = load_fixture("vert.json")
    backend = ScriptedBackend([fx["answers"][variant]])
    ctx = ctx_with_judge(Judge(backend), vert_variant=variant)
    run = run_batch([_pair(fx["pair"])], ["vert"], ctx, registry=production())
    r = run.rows[0]["metrics"]["vert"]
    assert r["error"] is None
    assert r["score"] == pytest.approx(headline)
    expected = dict(VERT_EXPECTED, vert=None if variant == "green" else headline)
    for key, value in expected.items():
        assert r["scores"][key] == (pytest.approx(value) if value is not None else None), key
    assert r["variant"] == variant and f"variant:{variant}" in r["signature"]
    prompt = backend.requests[0]["messages"][0]["content"]
    assert "(a) Finding stated that the reference does not contain" in prompt
    corpus = run.summary["metrics"]["vert"]["corpus"]
    assert corpus["green"] == {"mean": pytest.approx(0.6), "n": 1}


def test_vert_reads_green_style_sections_from_an_unconstrained_server():
    fx = load_fixture("vert.json")
    backend = ScriptedBackend([fx["answers"]["sections"]], constrains=False)
    run = run_batch([_pair(fx["pair"])], ["vert"], ctx_with_judge(Judge(backend)), registry=production())
    r = run.rows[0]["metrics"]["vert"]
    assert r["error"] is None and r["assessment"]["raw_format"] == "sections"
    assert r["score"] == 0.62
    for key, value in VERT_EXPECTED.items():
        assert r["scores"][key] == pytest.approx(value), key


def test_vert_unusable_answer_marks_the_pair_and_the_batch_goes_on():
    fx = load_fixture("vert.json")
    good = fx["answers"]["vert"]

    def answer(messages):
        return "I refuse." if "WRONG" in messages[0]["content"] else good

    # Reports that state a finding (a report that states none is "cannot read" before any
    # judge call: the no-finding rule); "WRONG" makes the scripted judge refuse.
    pairs = [ReportPair("bad", "FINDINGS: Small right pleural effusion. WRONG.",
                        "FINDINGS: No pleural effusion."), _pair(fx["pair"])]
    run = run_batch(pairs, ["vert"], ctx_with_judge(Judge(ScriptedBackend(answer))), registry=production())
    bad, ok = (row["metrics"]["vert"] for row in run.rows)
    assert bad["score"] is None
    assert bad["error"].startswith("judge: vert.vert@3: no usable answer after 3 attempt(s)")
    assert bad["judge_error"]["answers"] == ["I refuse."] * 3
    assert ok["score"] == 0.62
    assert run.summary["metrics"]["vert"]["n_errors"] == 1


def test_radsem_on_recorded_answers_from_an_unconstrained_server():
    fx = load_fixture("radsem.json")
    ctx = ctx_with_judge(Judge(ReplayBackend(fx["answers"], constrains=False)))
    run = run_batch([_pair(fx["pair"])], ["radsem"], ctx, registry=production())
    r = run.rows[0]["metrics"]["radsem"]
    assert r["error"] is None
    ex = r["extraction"]
    # Stage-1 post-processing: the repeated sentence is dropped, spacing and periods tidied.
    assert ex["ref_sentences"] == ["Left lower lobe consolidation.", "Small right pleural effusion."]
    assert ex["gen_sentences"] == ["Left lung consolidation.", "Small right pleural effusion."]
    # Stage 2: the lower-case copy is mapped to the rewrite's sentence; the unmatched sentence
    # that is in neither rewrite is dropped with a note.
    assert ex["tags"]["pairs"][1]["gen_sentence"] == "Small right pleural effusion."
    assert ex["tags"]["unmatched_sentences"] == []
    assert len(ex["notes"]) == 1 and "'Heart size is normal.' is not a Gen sentence" in ex["notes"][0]
    # Weights: part-whole site -> (1/3)^1 = 1/3; all equivalent -> 1. Nothing unmatched, two
    # unique pairs: q = (1 + 1/3) / 2 = 2/3, lambda = 0.25 / sqrt(2);
    # abnormal = 1 - lambda (1 - q) = 1 - 0.1767767 / 3 = 0.9410744. Normal class absent.
    assert [p["weight"] for p in r["pairs"]] == pytest.approx([1 / 3, 1.0])
    assert r["score"] == pytest.approx(1 - 0.25 / math.sqrt(2) / 3)
    assert r["abnormal"]["rule"] == "partial_penalty" and r["normal"]["present"] is False
    corpus = run.summary["metrics"]["radsem"]["corpus"]
    assert corpus["abnormal"]["n_pairs_present"] == 1 and corpus["normal"]["n_pairs_present"] == 0
    assert corpus["mean_ref_sentences"] == 2.0


def test_corpus_is_rebuilt_from_stored_details_only():
    """The corpus aggregates need only the stored per-pair dicts (no judge)."""
    from radscope.engine.metrics.clear.metric import build
    from tests.reference.summary import stored_corpus

    fx = load_fixture("clear_fast.json")
    ctx = ctx_with_judge(Judge(ReplayBackend(fx["answers"])))
    run = run_batch([_pair(fx["pair"])], ["clear"], ctx, registry=production())
    stored = [json.loads(json.dumps(row["metrics"]["clear"])) for row in run.rows]
    corpus = stored_corpus(build(ctx), stored)
    assert corpus and corpus == run.summary["metrics"]["clear"]["corpus"]


class SchemaDrivenBackend(ScriptedBackend):
    """Answers every CLEAR question from its JSON schema alone: presence marks only Pleural
    Effusion positive; a choice attribute takes its first allowed value; a list attribute one
    phrase. Deterministic, so faithful mode's call pattern can be asserted exactly."""

    def __init__(self) -> None:
        super().__init__(lambda messages: "", model_id="schema-judge")

    def complete(self, messages, schema, max_tokens, seed):
        import json

        from radscope.engine.metrics.clear.schema import CONDITIONS

        props = schema["properties"]
        if set(props) == set(CONDITIONS):
            answer = {c: "positive" if c == "Pleural Effusion" else "negative" for c in CONDITIONS}
        else:
            spec = props["answer"]
            answer = {"answer": spec["enum"][0] if "enum" in spec else ["left lower zone"]}
        self.answers = lambda _messages: json.dumps(answer)
        return super().complete(messages, schema, max_tokens, seed)


def test_clear_faithful_mode_asks_one_question_per_report_condition_attribute():
    backend = SchemaDrivenBackend()
    ctx = ctx_with_judge(Judge(backend), clear_mode="faithful", extractor="llm")
    run = run_batch([ReportPair("p", "Small left effusion.", "Left pleural effusion.")], ["clear"], ctx, registry=production())
    r = run.rows[0]["metrics"]["clear"]
    assert r["error"] is None and r["true_positives"] == ["Pleural Effusion"]
    # 2 presence calls + 2 reports x 5 attributes of the one true positive = 12 calls.
    prompts = [c["prompt"] for c in r["judge_calls"]]
    assert prompts.count("clear.presence@2") == 2 and len(prompts) == 12
    assert len(backend.requests) == 12
    # Both reports got the same answers, so every attribute agrees.
    assert r["choice_agreement"] == {"first occurrence": 1.0, "change": 1.0, "severity": 1.0}
    assert r["score"] == 1.0 and "mode:faithful" in r["signature"]
