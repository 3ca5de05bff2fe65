"""The registered ``srr`` metric: a labeller (rules or ONNX utterance classifier) + ``srr.score``.

``EXTRACTORS`` picks the labeller (``radscope.engine.options.reader_choice``): SRR labels from rules
(``srr.rules``) under ``--extractor rules`` unless ``--srr-model`` names an encoder; the encoder
below otherwise. Both give the two reports' label sets (``SrrLabels``); ``SrrScoring`` compares
them.

Each report is cut into utterances with ``radscope.engine.io.reports.split_utterances``; the encoder labels
every distinct utterance once (normal sentences repeat a lot across a batch); a report's label
set is the union over its utterances. ``srr.score`` compares the two sets at the model's label
level and at the derived upper level. Per-pair details keep the label sets and the labels of
each utterance, so every corpus average can be recomputed from stored results.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.eligibility.applicability import CHEST_RADIOGRAPH
from radscope.engine.io.lookup import find_section
from radscope.engine.io.reports import ReportPair, split_utterances
from radscope.engine.metrics.framework.base import MetricCard, PairScore
from radscope.engine.metrics.framework.encoder_extraction import EncoderExtractor, rules_or_encoder
from radscope.engine.metrics.framework.extraction import (
    Extracted,
    Extractor,
    ExtractorKind,
    ExtractorMetric,
    ExtractorTable,
    Scoring,
)
from radscope.engine.metrics.srr.score import SrrLabels, score_pair
from radscope.engine.metrics.srr.stats import SrrStats
from radscope.engine.options.encoder_options import ENCODER_OPTIONS
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.options.intended_studies import FORCE_APPLICABILITY
from radscope.engine.options.reader_choice import AUTO
from radscope.engine.options.sections import SECTIONS
from radscope.models.srr_labels import LabelLevel, StatusView

DEFAULT_MODEL = "srr-minilm-demo"
SRR_MODEL = Option(
    "srr_model", AUTO,
    "SRR labeller: auto (SRR labels from rules under --extractor rules, the bundled "
    "srr-minilm-demo encoder under --extractor llm), rules, or an encoder: registry id "
    "(srr-minilm-demo bundled; srr-bert-leaves-with-statuses and the other SRR-BERT variants "
    "once exported with `radscope models export <id> --int8`) or an exported artifact directory")
SRR_VIEW = Option(
    "srr_view", StatusView.ALL.value,
    "which labels F1-SRR-BERT compares for with-statuses models: all (as predicted), present "
    "(positive findings only), present_or_uncertain",
    choices=tuple(v.value for v in StatusView))

CARD = MetricCard(
    name="srr",
    title="F1-SRR-BERT",
    rules_reader="rules labels",
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
    intended_studies=CHEST_RADIOGRAPH,
    reads=("findings", "impression"),
    reads_why="SRR-BERT labels every sentence of the report it is given.",
    sees=frozenset({"missed", "invented"}),  # finding labels: not side, not severity
)


RULES_LABEL = "SRR labels from rules (55 leaves with status; not the SRR-BERT model)"
RULES_CARD = dataclasses.replace(
    CARD, title="F1-SRR-BERT (rules labels)",
    measures="Agreement of the SRR-BERT finding labels (55 leaves, Present / Uncertain / "
             "Absent) that the rules reader gives the two reports; per pair the true F1 "
             "of the two label sets, leaf level (upper level alongside).",
    models="rules reader (engine/reader, lexicon srr_leaves.json), no model",
    limits="Chest-radiograph labels only; wording outside the lexicon gets no label. A pair "
           "in which neither report has a label (a brain MRI, say) is 'not applicable' "
           "instead of a perfect 1.0.")
# The rules labels are version 2: a pair without any label is "not applicable", not 1.0.
VERSIONS: dict[ExtractorKind, str] = {"rules": "2", "encoder": "1"}


class SrrScoring(Scoring[SrrLabels]):
    """The F1 of the two label sets (higher is better), in the chosen status view."""

    stats_version = SrrStats.STATS_VERSION

    def __init__(self, view: StatusView) -> None:
        self.view = StatusView(view)

    def signature_fields(self, extractor_fields: dict[str, Any]) -> dict[str, Any]:
        """The view goes just before the label level, where stored signatures have it."""
        fields = {k: v for k, v in extractor_fields.items() if k not in ("level", "threshold", "split")}
        rest = {k: v for k, v in extractor_fields.items() if k not in fields}
        return {**fields, "view": self.view.value, **rest}

    def score(self, value: SrrLabels, details: dict[str, Any]) -> PairScore:
        scored = score_pair(value.reference, value.candidate, value.level, self.view)
        return PairScore(score=scored.score, details={**scored.to_json(), **details})


class SrrEncoderExtractor(EncoderExtractor):
    """The SRR-BERT utterance classifier: each distinct utterance of a batch labelled once."""

    task = "srr"
    model_option = SRR_MODEL
    default_model = DEFAULT_MODEL

    def signature_fields(self) -> dict[str, Any]:
        fields = self.encoder_signature()
        m = self.manifest()
        if m is not None:
            from radscope.engine.runtimes.encoder_session import srr_threshold

            fields.update({"level": m.label_level, "threshold": srr_threshold(m),
                           "split": "reports.split_utterances"})
        return fields

    def extract(self, pairs: Sequence[ReportPair]) -> list[Extracted[SrrLabels]]:
        enc = self.encoder()
        level = LabelLevel(enc.manifest.label_level)
        split = [(split_utterances(p.reference), split_utterances(p.candidate)) for p in pairs]
        distinct = list(dict.fromkeys(u for ref, cand in split for u in (*ref, *cand)))
        labels_of = dict(zip(distinct, enc.utterance_labels(distinct), strict=True))
        self.ctx.count("encoder_batches")  # judge calls are counted apart
        reader = self.reader()
        results = []
        for ref_utts, cand_utts in split:
            labels = SrrLabels(sorted({lab for u in ref_utts for lab in labels_of[u]}),
                               sorted({lab for u in cand_utts for lab in labels_of[u]}), level)
            utterances = {"reference": [{"text": u, "labels": labels_of[u]} for u in ref_utts],
                          "candidate": [{"text": u, "labels": labels_of[u]} for u in cand_utts]}
            results.append(Extracted(labels, {"utterances": utterances, "reader": reader}))
        return results


def _rules(ctx: RuntimeContext) -> Extractor[SrrLabels]:
    # Imported on use: the reader's SRR labeller imports this package's label vocabulary.
    from radscope.engine.metrics.srr.rules import SrrRulesExtractor

    return SrrRulesExtractor(RULES_LABEL)


EXTRACTORS = ExtractorTable("srr", {"rules": _rules, "encoder": SrrEncoderExtractor.for_run},
                            rules_or_encoder(SRR_MODEL))


def build(ctx: RuntimeContext) -> ExtractorMetric[SrrLabels]:
    """SRR labels from rules or the encoder, as the options choose (``reader.choice``)."""
    view = StatusView(ctx.option(SRR_VIEW))
    return EXTRACTORS.build_metric(ctx, SrrScoring(view),
                                   lambda kind: RULES_CARD if kind == "rules" else CARD,
                                   VERSIONS.__getitem__)


OPTIONS = (SRR_MODEL, SRR_VIEW, EXTRACTOR, *ENCODER_OPTIONS, FORCE_APPLICABILITY, SECTIONS)


def export_columns(result: Mapping[str, Any]) -> dict[str, Any]:
    """Export columns: both label sets and the F1 at each level."""
    section = find_section(result, ("reference_labels", "candidate_labels"))
    if section is None:
        return {}
    out: dict[str, Any] = {"reference_labels": "; ".join(map(str, section["reference_labels"] or [])),
                           "candidate_labels": "; ".join(map(str, section["candidate_labels"] or []))}
    for level in ("leaf", "upper"):
        if isinstance(section.get(level), Mapping):
            out[f"{level}_f1"] = section[level].get("f1")
    return out
