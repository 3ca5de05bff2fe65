"""The one metric shape: every registered metric declares an extractor for every kind its options
can choose, and a failing extractor marks only its own pair (a judge's failure keeps its raw
answers). No model is loaded: the LLM entries are only looked up, never built."""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest

from radscope.engine.context import ModelInfo, RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework import registry
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.extraction import (
    Extracted,
    ExtractorKind,
    ExtractorMetric,
    ExtractorTable,
    JudgeUnavailable,
    PairwiseExtractor,
    Scoring,
)
from radscope.engine.metrics.framework.judging import judged
from radscope.engine.metrics.framework.registry import production
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.runtimes.judge import JudgeError

CARD = MetricCard(name="toy", title="Toy", measures="m", inputs="i", direction="higher",
                  range=(0.0, 1.0), paper="p", models="none", limits="l")


def option_contexts(spec: registry.MetricSpec) -> list[RuntimeContext]:
    """A context for every combination of the choices that pick a reader: the extractor option
    and a model option's auto / rules / named-model values."""
    axes: list[list[tuple[str, Any]]] = []
    for opt in spec.options:
        if opt is EXTRACTOR:
            axes.append([(opt.name, c) for c in opt.choices or ()])
        elif opt.name.endswith("_model"):
            axes.append([(opt.name, v) for v in ("auto", "rules", "some-encoder")])
    return [RuntimeContext(options=dict(combo)) for combo in itertools.product(*axes)]


@pytest.mark.parametrize("name", production().names())
def test_every_kind_the_options_can_choose_has_an_extractor(name: str) -> None:
    spec = production().get(name)
    table = spec.extractors
    assert table is not None and table.metric == name
    chosen = {table.choose(ctx) for ctx in option_contexts(spec)}
    assert chosen and chosen <= set(table.builders), (name, chosen, set(table.builders))
    assert set(table.builders) == chosen  # and no entry that no option can reach
    for ctx in option_contexts(spec):
        if table.choose(ctx) in ("rules", "lexical"):  # no model: build and look at it
            extractor = table.build(ctx)
            assert extractor.kind == table.choose(ctx)
            assert extractor.signature_fields()


def test_the_extractor_option_picks_judge_or_rules_and_the_encoders_take_llm() -> None:
    llm = RuntimeContext(options={"extractor": "llm"})
    kinds = {n: production().get(n).extractors.choose(llm) for n in production().names()}  # type: ignore[union-attr]
    assert kinds["clear"] == kinds["radsem"] == kinds["vert"] == "llm"
    assert kinds["crepe"] == kinds["srr"] == "encoder"
    assert kinds["bleu"] == kinds["rouge"] == "lexical"


def test_a_kind_the_installation_lacks_is_a_readable_error() -> None:
    table = ExtractorTable("toy", {"rules": lambda ctx: ToyExtractor()})
    with pytest.raises(JudgeUnavailable, match="toy: the 'llm' extractor is not available in "
                                               "this installation; use --extractor rules"):
        table.build(RuntimeContext(options={"extractor": "llm"}))


class ToyExtractor(PairwiseExtractor[str]):
    """Reads the candidate; "judge-fails" is a judge with no usable answer, "crash" a bug."""

    kind: ExtractorKind = "rules"

    def model(self) -> ModelInfo | None:
        return None

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "toy"}

    def extract_pair(self, pair: ReportPair) -> Extracted[str]:
        if pair.candidate == "crash":
            raise RuntimeError("boom")
        if pair.candidate == "unreadable":
            return Extracted.failed("cannot read: nothing here", {"reader": "toy"})
        return judged(lambda: self._ask(pair))

    def _ask(self, pair: ReportPair) -> tuple[str, list[Any]]:
        if pair.candidate == "judge-fails":
            raise JudgeError("no valid JSON after 3 attempts", "toy.prompt@1", ["garbage", "{"])
        return pair.candidate, []


class ToyBatchExtractor(ToyExtractor):
    batch_size = 8

    def extract(self, pairs: Sequence[ReportPair]) -> list[Extracted[str]]:
        return [Extracted.failed("cannot read: nothing here") if p.candidate == "unreadable"
                else Extracted(p.candidate, {"raw": len(p.candidate)}) for p in pairs]


class LengthScoring(Scoring[str]):
    def score(self, value: str, details: dict[str, Any]) -> PairScore:
        return PairScore(len(value) / 10, {"length": len(value), **details})


def _pairs(*candidates: str) -> list[ReportPair]:
    return [ReportPair(f"p{i}", "reference", c) for i, c in enumerate(candidates)]


def test_a_failing_pair_never_fails_the_others() -> None:
    metric = ExtractorMetric(CARD, ToyExtractor(), LengthScoring())
    ok, judge, crash, unreadable, ok2 = metric.score_pairs(
        _pairs("fine", "judge-fails", "crash", "unreadable", "also fine"))
    assert (ok.score, ok.error, ok.details) == (0.4, None, {"length": 4, "judge_calls": []})
    assert ok2.score == 0.9 and ok2.error is None
    assert judge.score is None and judge.error == "judge: no valid JSON after 3 attempts [schema: model quality]"
    assert judge.details["judge_error"]["answers"] == ["garbage", "{"]  # raw answers kept
    assert crash.score is None and crash.error == "RuntimeError: boom" and crash.details == {}
    assert unreadable.score is None and unreadable.error == "cannot read: nothing here"
    assert unreadable.details == {"reader": "toy"}
    assert metric.signature() == "toy|v:1|extractor:toy"


def test_a_batch_extractor_marks_its_unreadable_pair_only() -> None:
    metric = ExtractorMetric(CARD, ToyBatchExtractor(), LengthScoring())
    assert metric.batch_size == 8
    results = metric.score_pairs(_pairs("fine", "unreadable", "longer one"))
    assert [r.score for r in results] == [0.4, None, 1.0]
    assert results[1].error == "cannot read: nothing here"
    assert results[2].details == {"length": 10, "raw": 10}
