"""SRR labels from rules: the reader's leaf labels, scored by the unchanged F1-SRR-BERT scorer.

Each report's sentences are labelled with the 55 SRR-BERT leaves and a Present / Uncertain /
Absent status (``radscope.engine.metrics.srr.rule_labels``); the label sets go to ``srr.score.score_pair`` at
the leaves-with-statuses level, so the per-pair details and corpus averages have exactly the
shape the encoder gives, plus the ``reader`` entry that says where they came from.
"""
from __future__ import annotations

from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.metrics.srr.rule_labels import report_labels
from radscope.engine.metrics.srr.score import SrrLabels
from radscope.engine.reader.findings import read_report
from radscope.engine.reader.metric_views import reader_details, rules_model
from radscope.engine.reader.versions import SRR_LEXICONS, reader_signature
from radscope.models.srr_labels import LabelLevel

LEVEL = LabelLevel.LEAVES_WITH_STATUSES
NOT_APPLICABLE = ("not applicable: neither report names any of the 55 SRR-BERT chest labels "
                  "(the rules found no chest finding, normal or abnormal, to compare)")


class SrrRulesExtractor(PairwiseExtractor[SrrLabels]):
    """Both reports' rule-read SRR label sets (``kind = "rules"``)."""

    kind: ExtractorKind = "rules"
    cpu_bound = True  # pure Python: may run in worker processes

    def __init__(self, label: str) -> None:
        self.label = label  # what the reader is called on the card and in every result

    def model(self) -> ModelInfo:
        return rules_model(self.label, *SRR_LEXICONS)

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", **reader_signature(*SRR_LEXICONS), "level": LEVEL.value,
                "split": "reports.split_utterances"}

    def extract_pair(self, pair: ReportPair) -> Extracted[SrrLabels]:
        ref_labels, ref_sentences = report_labels(read_report(pair.reference))
        cand_labels, cand_sentences = report_labels(read_report(pair.candidate))
        utterances = {
            "reference": [{"text": s, "labels": list(labs)} for s, labs in ref_sentences],
            "candidate": [{"text": s, "labels": list(labs)} for s, labs in cand_sentences]}
        details = {"utterances": utterances, "reader": reader_details(self.label, *SRR_LEXICONS)}
        if not ref_labels and not cand_labels:
            # Two reports the chest labels say nothing about (a brain MRI, say) would "agree
            # perfectly" (1.0): a confident number about nothing, so the pair is not applicable.
            return Extracted.failed(NOT_APPLICABLE, details)
        return Extracted(SrrLabels(ref_labels, cand_labels, LEVEL), details)
