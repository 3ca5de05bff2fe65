"""The registered ``crepe`` metric: a reader (rules or ONNX pair encoder) + ``crepe.score``.

``build`` picks the reader (``engine.reader.choice``): the rules estimate (``crepe.rules``)
under ``--extractor rules`` unless ``--crepe-model`` names an encoder; the encoder below
otherwise.

The encoder reads the two whole reports as one pair sequence and returns six raw count-head
outputs per pair; ``score.aggregate_batch`` applies the checkpoint's softplus flag (from the
export manifest), clips at zero and sums. Per-pair details keep the counts and the raw outputs,
so corpus means are recomputed from stored results alone.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine.applicability import CHEST_RADIOGRAPH
from engine.metrics.base import Metric, MetricCard, PairScore
from engine.metrics.encoder import EncoderMetric
from engine.extractor_option import EXTRACTOR
from engine.metrics.crepe.score import CATEGORIES, aggregate_batch
from engine.metrics.scope_option import FORCE_APPLICABILITY
from engine.context import Option, RuntimeContext
from engine.reader.choice import AUTO, encoder_model, reads_with_rules
from engine.reports import ReportPair
from engine.runtimes.onnx_options import ENCODER_OPTIONS

DEFAULT_MODEL = "crepe-minilm-demo"
CREPE_MODEL = Option(
    "crepe_model", AUTO,
    "CREPE reader: auto (the rules estimate under --extractor rules, the bundled "
    "crepe-minilm-demo encoder under --extractor llm), rules, or an encoder: registry id "
    "(crepe-minilm-demo bundled; crepe-biomedbert once exported with "
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
    models="offline default: the rules reader's estimate of the six categories (not the CREPE "
           "model; --extractor rules); encoders: bundled crepe-minilm-demo (demo-grade, "
           "synthetic training data), the published gihuncho/crepe-biomedbert after a one-time "
           "ONNX export (--crepe-model)",
    limits="Counts are continuous estimates, not integers. Inputs longer than the model's "
           "maximum length (512 tokens) are truncated longest-first. The bundled model is a "
           "demonstration trained on synthetic chest reports.",
    scope=CHEST_RADIOGRAPH,
)


class CrepeMetric(EncoderMetric):
    """CREPE total (sum of six clipped counts) per pair, lower is better."""

    card = CARD
    version = "1"
    task = "crepe"
    model_option = CREPE_MODEL

    def __init__(self, ctx: RuntimeContext) -> None:
        super().__init__(ctx)
        self.model_name = encoder_model(ctx, self.model_option, DEFAULT_MODEL)

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
        self.ctx.count("encoder_batches")  # judge calls are counted apart
        counts = aggregate_batch(raw, softplus=enc.manifest.softplus)
        per_pair_ms = (time.perf_counter() - start) * 1000 / max(1, len(pairs))
        reader = {"name": "encoder", "model": enc.artifact.id}
        return [PairScore(score=c.total, elapsed_ms=per_pair_ms,
                          details={**c.to_json(), "raw": [float(v) for v in row],
                                   "reader": reader})
                for c, row in zip(counts, raw, strict=True)]


def build(ctx: RuntimeContext) -> Metric:
    """The rules estimate or the encoder, as the options choose (``reader.choice``). The rules
    view is imported here, like SRR's and VERT's: the reader pulls in scipy, which a run that
    lists metrics or scores BLEU never needs (start-up)."""
    if reads_with_rules(ctx, CREPE_MODEL):
        from engine.metrics.crepe.rules import CrepeRulesMetric

        return CrepeRulesMetric(CARD)
    return CrepeMetric(ctx)


OPTIONS = (CREPE_MODEL, EXTRACTOR, *ENCODER_OPTIONS, FORCE_APPLICABILITY)
