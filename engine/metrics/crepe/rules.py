"""CREPE's six categories estimated by the rules reader (not the CREPE model).

The counts are the significant errors per category of the reader's alignment
(``engine.reader.errors``); their sum is the score, lower is better, with the same output
shape (``counts``, ``total``) as the encoder so the panel, the corpus means and every
comparison work unchanged. The details say which reader produced them, list the errors and
keep the pair's reading (findings, links with their conflicts, comparisons) they came from.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from engine.context import ModelInfo
from engine.metrics.base import Metric, PairScore
from engine.metrics.crepe.score import CATEGORY_KEYS, CrepeCounts
from engine.reader.align import read_pair
from engine.reader.lexicon import reader_signature
from engine.reader.views import reader_details, rules_model
from engine.reader.errors import pair_errors, readable
from engine.reports import ReportPair

LABEL = "rules estimate of CREPE's six categories (not the CREPE model)"


class CrepeRulesMetric(Metric):
    """Sum of the reader's significant errors in CREPE's six categories (lower is better)."""

    version = "1"

    def __init__(self, card: Any) -> None:
        self.card = dataclasses.replace(
            card, title="CREPE (rules estimate)",
            measures=f"The {LABEL}: significant errors per category counted from the clinical "
                     "reader's alignment of the two reports; " + card.measures.split(": ", 1)[-1],
            models="rules reader (engine/reader), no model",
            limits="An estimate from explicit rules, not the trained CREPE regressor: it counts "
                   "what the lexicons can read (chest, abdomen, neuro, spine wording), in whole "
                   "errors. Findings outside the lexicons are invisible to it.")

    def model(self) -> ModelInfo:
        return rules_model(LABEL)

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", **reader_signature(), "view": "crepe-categories"}

    def score_pair(self, pair: ReportPair) -> PairScore:
        reading = read_pair(pair.reference, pair.candidate)
        if not readable(reading):
            return PairScore.failed("cannot read: the rules reader found no finding in either "
                                    "report", {"reader": reader_details(LABEL)})
        errors = pair_errors(reading)
        counts = {key: float(sum(e.significant and e.category == key for e in errors))
                  for key in CATEGORY_KEYS}
        result = CrepeCounts(counts=counts, total=float(sum(counts.values())))
        return PairScore(score=result.total, details={
            **result.to_json(), "reader": reader_details(LABEL),
            "errors": [e.to_json() for e in errors if e.significant],
            "reading": reading.to_json()})
