"""SRR labels from rules: the reader's leaf labels, scored by the unchanged F1-SRR-BERT scorer.

Each report's sentences are labelled with the 55 SRR-BERT leaves and a Present / Uncertain /
Absent status (``engine.reader.srr_labels``); the label sets go to ``srr.score.score_pair`` at
the leaves-with-statuses level, so the per-pair details and corpus averages have exactly the
shape the encoder gives, plus the ``reader`` entry that says where they came from.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from engine.metrics.base import Metric, MetricCard, PairScore
from engine.context import ModelInfo
from models.srr_labels import LabelLevel, StatusView
from engine.metrics.srr.score import score_pair
from engine.reader.findings import read_report
from engine.reader.lexicon import reader_signature
from engine.reader.lexicon import SRR_LEXICONS
from engine.reader.srr_labels import report_labels
from engine.reader.views import reader_details, rules_model
from engine.reports import ReportPair

LABEL = "SRR labels from rules (55 leaves with status; not the SRR-BERT model)"
LEVEL = LabelLevel.LEAVES_WITH_STATUSES
NOT_APPLICABLE = ("not applicable: neither report names any of the 55 SRR-BERT chest labels "
                  "(the rules found no chest finding, normal or abnormal, to compare)")


class SrrRulesMetric(Metric):
    """F1 between the two reports' rule-read SRR label sets (higher is better)."""

    version = "2"

    def __init__(self, card: MetricCard, view: StatusView) -> None:
        self.view = StatusView(view)
        self.card = dataclasses.replace(
            card, title="F1-SRR-BERT (rules labels)",
            measures="Agreement of the SRR-BERT finding labels (55 leaves, Present / Uncertain / "
                     "Absent) that the rules reader gives the two reports; per pair the true F1 "
                     "of the two label sets, leaf level (upper level alongside).",
            models="rules reader (engine/reader, lexicon srr_leaves.json), no model",
            limits="Chest-radiograph labels only; wording outside the lexicon gets no label. A pair "
                   "in which neither report has a label (a brain MRI, say) is 'not applicable' "
                   "instead of a perfect 1.0.")

    def model(self) -> ModelInfo:
        return rules_model(LABEL, *SRR_LEXICONS)

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", **reader_signature(*SRR_LEXICONS), "view": self.view.value,
                "level": LEVEL.value, "split": "reports.split_utterances"}

    def score_pair(self, pair: ReportPair) -> PairScore:
        ref_labels, ref_sentences = report_labels(read_report(pair.reference))
        cand_labels, cand_sentences = report_labels(read_report(pair.candidate))
        utterances = {
            "reference": [{"text": s, "labels": list(labs)} for s, labs in ref_sentences],
            "candidate": [{"text": s, "labels": list(labs)} for s, labs in cand_sentences]}
        if not ref_labels and not cand_labels:
            # Two reports the chest labels say nothing about (a brain MRI, say) would "agree
            # perfectly" (1.0): a confident number about nothing, so the pair is not applicable.
            return PairScore.failed(NOT_APPLICABLE, {"utterances": utterances,
                                                     "reader": reader_details(LABEL, *SRR_LEXICONS)})
        scored = score_pair(ref_labels, cand_labels, LEVEL, self.view)
        details = scored.to_json()
        details["utterances"] = utterances
        details["reader"] = reader_details(LABEL, *SRR_LEXICONS)
        return PairScore(score=scored.score, details=details)
