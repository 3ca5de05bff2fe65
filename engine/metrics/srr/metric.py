"""The registered ``srr`` metric: a labeller (rules or ONNX utterance classifier) + ``srr.score``.

``build`` picks the labeller (``engine.reader.choice``): SRR labels from rules (``srr.rules``)
under ``--extractor rules`` unless ``--srr-model`` names an encoder; the encoder below otherwise.

Each report is cut into utterances with ``engine.reports.split_utterances``; the encoder labels
every distinct utterance once (normal sentences repeat a lot across a batch); a report's label
set is the union over its utterances. ``srr.score`` compares the two sets at the model's label
level and at the derived upper level. Per-pair details keep the label sets and the labels of
each utterance, so every corpus average can be recomputed from stored results.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine.applicability import CHEST_RADIOGRAPH
from engine.metrics.base import Metric, MetricCard, PairScore
from engine.metrics.encoder import EncoderMetric
from engine.extractor_option import EXTRACTOR
from engine.metrics.scope_option import FORCE_APPLICABILITY
from engine.context import Option, RuntimeContext
from models.srr_labels import LabelLevel, StatusView
from engine.metrics.srr.score import score_pair
from engine.reader.choice import AUTO, encoder_model, reads_with_rules
from engine.reports import ReportPair, split_utterances
from engine.runtimes.onnx_options import ENCODER_OPTIONS

DEFAULT_MODEL = "srr-minilm-demo"
SRR_MODEL = Option(
    "srr_model", AUTO,
    "SRR labeller: auto (SRR labels from rules under --extractor rules, the bundled "
    "srr-minilm-demo encoder under --extractor llm), rules, or an encoder: registry id "
    "(srr-minilm-demo bundled; srr-bert-leaves-with-statuses and the other SRR-BERT variants "
    "once exported with `python -m models export <id> --int8`) or an exported artifact directory")
SRR_VIEW = Option(
    "srr_view", StatusView.ALL.value,
    "which labels F1-SRR-BERT compares for with-statuses models: all (as predicted), present "
    "(positive findings only), present_or_uncertain",
    choices=tuple(v.value for v in StatusView))

CARD = MetricCard(
    name="srr",
    title="F1-SRR-BERT",
    measures="Agreement of the finding labels (with Present / Uncertain / Absent status) that an "
             "SRR-BERT utterance classifier assigns to the two reports; per pair the true F1 of "
             "the two label sets, leaf level (upper level alongside)",
    inputs="reference and candidate reports, split into utterances",
    direction="higher",
    range=(0.0, 1.0),
    paper="SRR-BERT / structured radiology reporting (StanfordAIMI); F1-SRR-BERT",
    models="offline default: SRR labels from rules (the clinical reader; --extractor rules); "
           "encoders: bundled srr-minilm-demo (demo-grade, synthetic training data), the "
           "published StanfordAIMI/SRR-BERT-* after a one-time ONNX export (--srr-model)",
    limits="Chest-radiograph labels only. Utterances longer than the model's maximum length "
           "are truncated. Two reports with no labels at all agree perfectly (1.0). The bundled "
           "model is a demonstration trained on synthetic sentences.",
    scope=CHEST_RADIOGRAPH,
)


class SrrMetric(EncoderMetric):
    """F1 between the two reports' SRR-BERT label sets (higher is better)."""

    card = CARD
    version = "1"
    task = "srr"
    model_option = SRR_MODEL

    def __init__(self, ctx: RuntimeContext) -> None:
        super().__init__(ctx)
        self.model_name = encoder_model(ctx, self.model_option, DEFAULT_MODEL)
        self.view = StatusView(ctx.option(SRR_VIEW))

    @property
    def level(self) -> LabelLevel:
        return LabelLevel(self.encoder().manifest.label_level)

    def signature_fields(self) -> dict[str, Any]:
        fields = {**self.encoder_signature(), "view": self.view.value}
        m = self.manifest()
        if m is not None:
            from engine.runtimes.onnx_encoder import srr_threshold

            fields.update({"level": m.label_level, "threshold": srr_threshold(m),
                           "split": "reports.split_utterances"})
        return fields

    def score_pairs(self, pairs: Sequence[ReportPair]) -> list[PairScore]:
        enc = self.encoder()
        level = self.level
        start = time.perf_counter()
        split = [(split_utterances(p.reference), split_utterances(p.candidate)) for p in pairs]
        distinct = list(dict.fromkeys(u for ref, cand in split for u in (*ref, *cand)))
        labels_of = dict(zip(distinct, enc.utterance_labels(distinct), strict=True))
        self.ctx.count("encoder_batches")  # judge calls are counted apart
        per_pair_ms = (time.perf_counter() - start) * 1000 / max(1, len(pairs))
        results = []
        for ref_utts, cand_utts in split:
            ref_labels = sorted({lab for u in ref_utts for lab in labels_of[u]})
            cand_labels = sorted({lab for u in cand_utts for lab in labels_of[u]})
            scored = score_pair(ref_labels, cand_labels, level, self.view)
            details = scored.to_json()
            details["utterances"] = {
                "reference": [{"text": u, "labels": labels_of[u]} for u in ref_utts],
                "candidate": [{"text": u, "labels": labels_of[u]} for u in cand_utts]}
            details["reader"] = {"name": "encoder", "model": enc.artifact.id}
            results.append(PairScore(score=scored.score, details=details, elapsed_ms=per_pair_ms))
        return results

def build(ctx: RuntimeContext) -> Metric:
    """SRR labels from rules or the encoder, as the options choose (``reader.choice``)."""
    if reads_with_rules(ctx, SRR_MODEL):
        # Imported here: the reader's SRR labeller imports this package's label vocabulary.
        from engine.metrics.srr.rules import SrrRulesMetric

        return SrrRulesMetric(CARD, StatusView(ctx.option(SRR_VIEW)))
    return SrrMetric(ctx)


OPTIONS = (SRR_MODEL, SRR_VIEW, EXTRACTOR, *ENCODER_OPTIONS, FORCE_APPLICABILITY)
