"""The registered ``radsem`` metric: extract (LLM judge or rules) -> max-flow score -> PairScore.

Per pair, ``details`` carries the stage-3 record (class scores, every pair with its weight and
flow, ignored items) and the extraction (both lists of atomic sentences, the tags with the
unmatched sentences, the notes on anything dropped), so the alignment graph can be drawn and
the corpus statistics rebuilt from stored results.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.applicability import ANY
from engine.metrics.base import MetricCard, PairScore
from engine.metrics.extracted import ExtractedMetric
from engine.metrics.radsem.extract import RadsemExtraction
from engine.metrics.radsem.score import ABNORMAL, CLASSES, NORMAL, RadsemScore, score_tags

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

    def corpus(self, results: Sequence[PairScore]) -> dict[str, Any]:
        """Mean score and per-class statistics from stored pair details."""
        scored = [RadsemScore.from_json({**r.details, "score": r.score}) for r in results
                  if r.error is None and r.score is not None and ABNORMAL in r.details]
        if not scored:
            return {}
        out: dict[str, Any] = {"n_pairs": len(scored),
                               "mean": sum(s.score for s in scored) / len(scored)}
        for normality in CLASSES:
            classes = [s.class_score(normality) for s in scored]
            present = [c for c in classes if c.present]
            f1s = [c.f1 for c in present if c.f1 is not None]
            out[normality] = {
                "n_pairs_present": len(present),
                "mean_f1": sum(f1s) / len(f1s) if f1s else None,
                "matched": sum(c.matched for c in present),
                "unmatched_ref": sum(c.unmatched_ref for c in present),
                "unmatched_gen": sum(c.unmatched_gen for c in present),
                "rules": {rule: sum(c.rule == rule for c in present)
                          for rule in sorted({c.rule for c in present})},
            }
        sentences = [RadsemExtraction.from_json(r.details["extraction"]) for r in results
                     if r.error is None and "extraction" in r.details]
        out["mean_ref_sentences"] = (sum(len(e.ref_sentences) for e in sentences) / len(sentences)
                                     if sentences else None)
        out["mean_gen_sentences"] = (sum(len(e.gen_sentences) for e in sentences) / len(sentences)
                                     if sentences else None)
        out["class_weights"] = {ABNORMAL: 0.9, NORMAL: 0.1}
        return out
