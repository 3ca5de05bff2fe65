"""The registered ``clear`` metric: extract (LLM judge or rules) -> score (pure) -> PairScore.

The two extractors are declared in ``EXTRACTORS``; ``ClearScoring`` is stage 3.

Per pair, ``details`` carries the whole stage-3 record (presence labels of both reports, the
pair's positive and negative F1, the attribute rows, the 13-row display table) plus the raw
extraction and a trace of the judge's calls, so that ``stats`` rebuilds every corpus
aggregate from stored results and the UI can draw the table without running anything again.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.eligibility.applicability import CHEST_RADIOGRAPH
from radscope.engine.io.lookup import find_section
from radscope.engine.metrics.clear.agreement import attribute_agreement
from radscope.engine.metrics.clear.schema import TOP5, TOP5_DEFAULT, ClearPairExtraction
from radscope.engine.metrics.clear.score import score_pair
from radscope.engine.metrics.clear.stats import ClearStats
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.extraction import Extractor, ExtractorMetric, ExtractorTable, Scoring

CLEAR_TOP5 = Option("clear_top5", TOP5_DEFAULT,
                    "CLEAR top-5 conditions for the @5 averages: code (the reference code's two "
                    "sets) or paper (the paper's footnote); corpus results show both",
                    choices=tuple(TOP5))

CARD = MetricCard(
    name="clear",
    title="CLEAR",
    measures="Agreement on 13 chest X-ray conditions (positive / negative / unclear) and, for "
             "conditions positive in both reports, on their severity, change, first occurrence, "
             "location phrases and recommendations. The pair score is the F1 of the candidate's "
             "positive conditions against the reference's.",
    inputs="Reference and candidate chest X-ray reports (FINDINGS and IMPRESSION).",
    direction="higher",
    range=(0.0, 1.0),
    paper="CLEAR (Findings of EMNLP 2025, arXiv 2505.16325)",
    models="An LLM judge (GGUF via llama.cpp, or an OpenAI-compatible server), or the "
           "project's deterministic rules (--extractor rules).",
    limits="Chest X-ray only. Judgements are only as good as the judge: the offline demo judge "
           "(Gemma 3 270M base) is demo-grade. Attribute scores exist only for true positives.",
    intended_studies=CHEST_RADIOGRAPH,
    reads=("findings", "impression"),
    reads_why="CLEAR's reference code reads the FINDINGS and IMPRESSION it is given.",
    sees=frozenset({"missed", "invented"}),  # presence per condition: not side, not severity
)


class ClearScoring(Scoring[ClearPairExtraction]):
    """Stage 3: the two tables -> the pair's F1, attribute rows and display table."""

    stats_version = ClearStats.STATS_VERSION

    def __init__(self, top5: str) -> None:
        if top5 not in TOP5:
            raise ValueError(f"unknown CLEAR top-5 set {top5!r}; choose from {', '.join(TOP5)}")
        self.top5 = top5

    def signature_fields(self, extractor_fields: dict[str, Any]) -> dict[str, Any]:
        return {**extractor_fields, "top5": self.top5}

    def score(self, value: ClearPairExtraction, details: dict[str, Any]) -> PairScore:
        scored = score_pair(value)
        out = scored.to_json()
        out.pop("score")
        out["top5_set"] = self.top5
        agreement = attribute_agreement(scored.table)
        out["attribute_agreement"] = agreement
        out["score_note"] = agreement["note"]  # shown beside the score in score tables
        out["extraction"] = value.to_json()
        out["judge_calls"] = []  # the judge's calls, when a judge read the pair (below)
        return PairScore(score=scored.score, details={**out, **details})


def _rules(ctx: RuntimeContext) -> Extractor[ClearPairExtraction]:
    from radscope.engine.metrics.clear.rules import build_extractor  # the reader: imported on use

    return build_extractor(ctx)


def _llm(ctx: RuntimeContext) -> Extractor[ClearPairExtraction]:
    from radscope.engine.metrics.clear.llm import build_extractor

    return build_extractor(ctx)


EXTRACTORS = ExtractorTable("clear", {"rules": _rules, "llm": _llm})


def build(ctx: RuntimeContext) -> ExtractorMetric[ClearPairExtraction]:
    top5 = str(ctx.option(CLEAR_TOP5))
    return EXTRACTORS.build_metric(ctx, ClearScoring(top5), lambda kind: CARD)


def export_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """Export columns: the F1s and each condition's label in either report."""
    section = find_section(result, ("reference_presence", "candidate_presence", "pos_f1", "neg_f1"))
    if section is None:
        return {}
    out: dict[str, Any] = {"pos_f1": section["pos_f1"], "neg_f1": section["neg_f1"]}
    for side, key in (("ref", "reference_presence"), ("cand", "candidate_presence")):
        for condition, label in (section[key] or {}).items():
            out[f"{side}_{condition.lower().replace(' ', '_')}"] = label
    return out
