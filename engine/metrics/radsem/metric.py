"""The registered ``radsem`` metric: extract (LLM judge or rules) -> max-flow score -> PairScore.

Per pair, ``details`` carries the stage-3 record (class scores, every pair with its weight and
flow, ignored items) and the extraction (both lists of atomic sentences, the tags with the
unmatched sentences, the notes on anything dropped), so the alignment graph can be drawn and
the corpus statistics rebuilt from stored results. The two extractors are declared in
``EXTRACTORS``; ``RadsemScoring`` is stage 3.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from radscope.engine.context import RuntimeContext
from radscope.engine.eligibility.applicability import ANY
from radscope.engine.io.lookup import find_section
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.extraction import Extractor, ExtractorMetric, ExtractorTable, Scoring
from radscope.engine.metrics.radsem.extract import RadsemExtraction
from radscope.engine.metrics.radsem.score import score_tags
from radscope.engine.metrics.radsem.stats import RadsemStats

CARD = MetricCard(
    name="radsem",
    title="RadSEM",
    measures="Finding-by-finding agreement: both Findings sections are rewritten as atomic "
             "sentences, sentences that state the same fact are paired (never two that "
             "contradict each other), and the matched mass from a max-flow over the pairs gives "
             "an F1 per normality class; abnormal findings weigh 0.9, normal ones 0.1.",
    inputs="Reference and candidate reports of any modality (the Findings section).",
    direction="higher",
    range=(0.0, 1.0),
    paper="RadSEM (arXiv 2606.17062)",
    models="An LLM judge (GGUF via llama.cpp, or an OpenAI-compatible server), or the "
           "project's deterministic rules (--extractor rules).",
    limits="Depends on the judge's rewriting and matching; the offline demo judge (Gemma 3 "
           "270M base) is demo-grade. Scores follow the reference's current scorer (max-flow), "
           "not its first version.",
    intended_studies=ANY,
    reads=("findings",),
    reads_why="RadSEM reads findings only, on purpose: its paper scores agreement on what "
              "the images show, and the impression is a diagnostic synthesis that also draws on "
              "history, prior studies and the referrer's question, which a system reading the "
              "images alone cannot recover.",
    # A contradiction (side, severity, size, change over time) unpairs two sentences; a hedge
    # is a detail that lowers a pair's weight. Not "comparison": a change against a prior study
    # that only one report states is removed with the prior-study wording.
    sees=frozenset({"side", "site", "missed", "invented", "severity", "size", "change",
                    "certainty"}),
)


class RadsemScoring(Scoring[RadsemExtraction]):
    """Stage 3: the max-flow over the extraction's sentence pairs."""

    stats_version = RadsemStats.STATS_VERSION

    def signature_fields(self, extractor_fields: dict[str, Any]) -> dict[str, Any]:
        return {**extractor_fields, "scorer": "maxflow"}

    def score(self, value: RadsemExtraction, details: dict[str, Any]) -> PairScore:
        scored = score_tags(value.tags)
        out = scored.to_json()
        out.pop("score")
        out["extraction"] = value.to_json()
        out["judge_calls"] = []  # the judge's calls, when a judge read the pair (below)
        return PairScore(score=scored.score, details={**out, **details})


def _rules(ctx: RuntimeContext) -> Extractor[RadsemExtraction]:
    from radscope.engine.metrics.radsem.rules import build_extractor  # the reader: imported on use

    return build_extractor(ctx)


def _llm(ctx: RuntimeContext) -> Extractor[RadsemExtraction]:
    from radscope.engine.metrics.radsem.llm import build_extractor

    return build_extractor(ctx)


EXTRACTORS = ExtractorTable("radsem", {"rules": _rules, "llm": _llm})


def build(ctx: RuntimeContext) -> ExtractorMetric[RadsemExtraction]:
    return EXTRACTORS.build_metric(ctx, RadsemScoring(), lambda kind: CARD)


def export_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """Export columns: matched and unmatched counts and F1 of abnormal and normal findings."""
    out: dict[str, Any] = {}
    for cls in ("abnormal", "normal"):
        part = (find_section(result, (cls,)) or {}).get(cls)
        if isinstance(part, Mapping):
            for key in ("matched", "unmatched_ref", "unmatched_gen", "f1"):
                out[f"{cls}_{key}"] = part.get(key)
    return out
