"""The registered ``crepe`` metric: ONNX pair encoder (extraction) + ``crepe.score`` (pure).

The encoder reads the two whole reports as one pair sequence and returns six raw count-head
outputs per pair; ``score.aggregate_batch`` applies the checkpoint's softplus flag (from the
export manifest), clips at zero and sums. Per-pair details keep the counts and the raw outputs,
so corpus means are recomputed from stored results alone.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine.metrics.base import MetricCard, PairScore
from engine.metrics.encoder import EncoderMetric
from engine.metrics.crepe.score import CATEGORIES, CrepeCounts, aggregate_batch, summarize
from engine.metrics.registry import Option, RuntimeContext
from engine.reports import ReportPair
from engine.runtimes.onnx_options import ENCODER_OPTIONS

DEFAULT_MODEL = "crepe-minilm-demo"
CREPE_MODEL = Option(
    "crepe_model", DEFAULT_MODEL,
    "CREPE encoder: registry id (crepe-minilm-demo bundled; crepe-biomedbert once exported with "
    "`python -m models export crepe-biomedbert --int8`) or an exported artifact directory")

CARD = MetricCard(
    name="crepe",
    title="CREPE",
    measures="Predicted number of clinically significant errors in the candidate, per ReXVal "
             "category: " + "; ".join(f"{c.key} {c.name.lower()}" for c in CATEGORIES),
    inputs="reference and candidate reports, read together as one pair sequence",
    direction="lower",
    range=(0.0, None),
    paper="CREPE (EMNLP 2025): error counts regressed by a BERT pair encoder",
    models="bundled crepe-minilm-demo (demo-grade, synthetic training data); the published "
           "gihuncho/crepe-biomedbert after a one-time ONNX export",
    limits="Counts are continuous estimates, not integers. Inputs longer than the model's "
           "maximum length (512 tokens) are truncated longest-first. The bundled model is a "
           "demonstration trained on synthetic chest reports.",
)


class CrepeMetric(EncoderMetric):
    """CREPE total (sum of six clipped counts) per pair, lower is better."""

    card = CARD
    version = "1"
    task = "crepe"
    model_option = "crepe_model"

    def signature_fields(self) -> dict[str, Any]:
        fields = self.encoder_signature()
        m = self.manifest()
        if m is not None:
            fields.update({"softplus": m.softplus, "pool": m.pooling, "input": "full-report"})
        return fields

    def score_pairs(self, pairs: Sequence[ReportPair]) -> list[PairScore]:
        enc = self.encoder()
        start = time.perf_counter()
        raw = enc.raw_counts([(p.reference.strip(), p.candidate.strip()) for p in pairs])
        self.ctx.count("model_calls")
        counts = aggregate_batch(raw, softplus=enc.manifest.softplus)
        per_pair_ms = (time.perf_counter() - start) * 1000 / max(1, len(pairs))
        return [PairScore(score=c.total, elapsed_ms=per_pair_ms,
                          details={**c.to_json(), "raw": [float(v) for v in row]})
                for c, row in zip(counts, raw)]

    def corpus(self, results: Sequence[PairScore]) -> dict[str, Any]:
        """Mean count per category and mean total, from the stored per-pair counts."""
        stored = [CrepeCounts.from_json(r.details) for r in results if r.details.get("counts")]
        return summarize(stored).to_json()


def build(ctx: RuntimeContext) -> CrepeMetric:
    return CrepeMetric(ctx)


OPTIONS = (CREPE_MODEL, *ENCODER_OPTIONS)
