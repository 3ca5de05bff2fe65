"""The registered ``crepe`` metric: a reader (rules or ONNX pair encoder) -> six counts -> total.

``EXTRACTORS`` picks the reader (``radscope.engine.options.reader_choice``): the rules estimate (``crepe.rules``)
under ``--extractor rules`` unless ``--crepe-model`` names an encoder; the encoder below
otherwise. Both give the six per-category counts (``CrepeCounts``); the score is their sum.

The encoder reads the two whole reports as one pair sequence and returns six raw count-head
outputs per pair; ``score.aggregate_batch`` applies the checkpoint's softplus flag (from the
export manifest), clips at zero and sums. Per-pair details keep the counts and the raw outputs,
so corpus means are recomputed from stored results alone.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.eligibility.applicability import CHEST_RADIOGRAPH
from radscope.engine.io.lookup import find_section
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.crepe.score import CATEGORY_KEYS, CrepeCounts, aggregate_batch
from radscope.engine.metrics.crepe.stats import CrepeStats
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.encoder_extraction import EncoderExtractor, rules_or_encoder
from radscope.engine.metrics.framework.extraction import (
    Extracted,
    Extractor,
    ExtractorMetric,
    ExtractorTable,
    Scoring,
)
from radscope.engine.options.encoder_options import ENCODER_OPTIONS
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.options.intended_studies import FORCE_APPLICABILITY
from radscope.engine.options.reader_choice import AUTO
from radscope.engine.options.sections import SECTIONS
from radscope.engine.reader.error_words import category_label
from radscope.engine.reader.kinds import ALL_ERROR_KINDS

DEFAULT_MODEL = "crepe-minilm-demo"
CREPE_MODEL = Option(
    "crepe_model", AUTO,
    "CREPE reader: auto (the rules estimate under --extractor rules, the bundled "
    "crepe-minilm-demo encoder under --extractor llm), rules, or an encoder: registry id "
    "(crepe-minilm-demo bundled; crepe-biomedbert once exported with "
    "`radscope models export crepe-biomedbert --int8`) or an exported artifact directory")

CARD = MetricCard(
    name="crepe",
    title="CREPE",
    rules_reader="rules estimate",
    measures="Predicted number of clinically significant errors in the candidate, per ReXVal "
             "category: " + "; ".join(category_label(k) for k in CATEGORY_KEYS),
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
    intended_studies=CHEST_RADIOGRAPH,
    reads=("findings", "impression"),
    reads_why="CREPE reads the whole report it is given (findings and impression).",
    sees=ALL_ERROR_KINDS - {"certainty"},  # the six ReXVal categories, significant errors only
)


RULES_LABEL = "rules estimate of CREPE's six categories (not the CREPE model)"
RULES_CARD = dataclasses.replace(
    CARD, title="CREPE (rules estimate)",
    measures=f"The {RULES_LABEL}: significant errors per category counted from the clinical "
             "reader's alignment of the two reports; " + CARD.measures.split(": ", 1)[-1],
    models="rules reader (engine/reader), no model",
    limits="An estimate from explicit rules, not the trained CREPE regressor: it counts "
           "what the lexicons can read (chest, abdomen, neuro, spine wording), in whole "
           "errors. Findings outside the lexicons are invisible to it.")


class CrepeScoring(Scoring[CrepeCounts]):
    """The CREPE total (sum of six clipped counts) per pair, lower is better."""

    stats_version = CrepeStats.STATS_VERSION

    def score(self, value: CrepeCounts, details: dict[str, Any]) -> PairScore:
        return PairScore(score=value.total, details={**value.to_json(), **details})


class CrepeEncoderExtractor(EncoderExtractor):
    """Six raw count-head outputs per pair; the checkpoint's softplus flag and the clipping at
    zero make them counts (``score.aggregate_batch``)."""

    task = "crepe"
    model_option = CREPE_MODEL
    default_model = DEFAULT_MODEL

    def signature_fields(self) -> dict[str, Any]:
        fields = self.encoder_signature()
        m = self.manifest()
        if m is not None:
            fields.update({"softplus": m.softplus, "pool": m.pooling, "input": "full-report"})
        return fields

    def extract(self, pairs: Sequence[ReportPair]) -> list[Extracted[CrepeCounts]]:
        enc = self.encoder()
        raw = enc.raw_counts([(p.reference.strip(), p.candidate.strip()) for p in pairs])
        self.ctx.count("encoder_batches")  # judge calls are counted apart
        counts = aggregate_batch(raw, softplus=enc.manifest.softplus)
        reader = self.reader()
        return [Extracted(c, {"raw": [float(v) for v in row], "reader": reader})
                for c, row in zip(counts, raw, strict=True)]


def _rules(ctx: RuntimeContext) -> Extractor[CrepeCounts]:
    """The rules view is imported on use, like SRR's and VERT's: the reader pulls in scipy,
    which a run that lists metrics or scores BLEU never needs (start-up)."""
    from radscope.engine.metrics.crepe.rules import CrepeRulesExtractor

    return CrepeRulesExtractor(RULES_LABEL)


EXTRACTORS = ExtractorTable("crepe", {"rules": _rules, "encoder": CrepeEncoderExtractor.for_run},
                            rules_or_encoder(CREPE_MODEL))


def build(ctx: RuntimeContext) -> ExtractorMetric[CrepeCounts]:
    """The rules estimate or the encoder, as the options choose (``reader.choice``)."""
    return EXTRACTORS.build_metric(ctx, CrepeScoring(),
                                   lambda kind: RULES_CARD if kind == "rules" else CARD)


OPTIONS = (CREPE_MODEL, EXTRACTOR, *ENCODER_OPTIONS, FORCE_APPLICABILITY, SECTIONS)


def export_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """Export columns: the count of each error category."""
    counts = (find_section(result, ("counts",)) or {}).get("counts") or {}
    return {f"count_{k}": v for k, v in counts.items()} if isinstance(counts, Mapping) else {}
