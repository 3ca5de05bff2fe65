"""The registered ``radsem`` metric: extract (LLM judge or rules) -> max-flow score -> PairScore.

Per pair, ``details`` carries the stage-3 record (class scores, every pair with its weight and
flow, ignored items) and the extraction (both lists of atomic sentences, the tags with the
unmatched sentences, the notes on anything dropped), so the alignment graph can be drawn and
the corpus statistics rebuilt from stored results.
"""
from __future__ import annotations

from typing import Any

from engine.applicability import ANY
from engine.metrics.base import MetricCard
from engine.metrics.extracted import ExtractedMetric
from engine.metrics.radsem.extract import RadsemExtraction
from engine.metrics.radsem.score import score_tags

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
    scope=ANY,
)


class RadsemMetric(ExtractedMetric):
    card = CARD
    version = "1"

    def signature_fields(self) -> dict[str, Any]:
        return {**self.extractor.signature_fields(), "scorer": "maxflow"}

    def score_extraction(self, extraction: RadsemExtraction) -> tuple[float, dict[str, Any]]:
        scored = score_tags(extraction.tags)
        details = scored.to_json()
        details.pop("score")
        return scored.score, details
