"""CREPE's six categories estimated by the rules reader (not the CREPE model).

The counts are the significant errors per category of the reader's alignment
(``radscope.engine.reader.errors``); their sum is the score, lower is better, with the same output
shape (``counts``, ``total``) as the encoder so the panel, the corpus means and every
comparison work unchanged. The details say which reader produced them, list the errors and
keep the pair's reading (findings, links with their conflicts, comparisons) they came from.
"""
from __future__ import annotations

from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.crepe.score import CATEGORY_KEYS, CrepeCounts
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.reader.by_section import error_details, read_sections
from radscope.engine.reader.metric_views import reader_details, rules_model
from radscope.engine.reader.versions import reader_signature


class CrepeRulesExtractor(PairwiseExtractor[CrepeCounts]):
    """The reader's significant errors in CREPE's six categories (``kind = "rules"``)."""

    kind: ExtractorKind = "rules"
    cpu_bound = True  # pure Python: may run in worker processes

    def __init__(self, label: str) -> None:
        self.label = label  # what the reader is called on the card and in every result

    def model(self) -> ModelInfo:
        return rules_model(self.label)

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", **reader_signature(), "view": "crepe-categories"}

    def extract_pair(self, pair: ReportPair) -> Extracted[CrepeCounts]:
        reading = read_sections(pair.reference, pair.candidate)
        if not reading.readable():
            return Extracted.failed("cannot read: the rules reader found no finding in either "
                                    "report", {"reader": reader_details(self.label)})
        counted = reading.counted
        counts = {key: float(sum(e.significant and e.category == key for e in counted.errors))
                  for key in CATEGORY_KEYS}
        result = CrepeCounts(counts=counts, total=float(sum(counts.values())))
        return Extracted(result, {"reader": reader_details(self.label),
                                  "errors": [e.to_json() for e in counted.errors if e.significant],
                                  **error_details(counted),
                                  **reading.to_json()})
