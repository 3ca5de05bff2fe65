"""One shape for every metric: an extractor reads the reports, pure code scores what it read.

An ``Extractor`` (the rules reader, an LLM judge, an ONNX encoder, a tokenizer) reads a batch
of pairs and returns one ``Extracted`` per pair: the extraction, or why that pair has none
(never a made-up value). A metric's ``Scoring`` turns an extraction into the pair's typed
statistics and score (``PairScore``); ``ExtractorMetric`` joins the two, and the metric package
declares which extractor kinds it has in an ``ExtractorTable`` (``MetricSpec.extractors``), so
that choosing one is a table look-up, not a search for a module.
"""
from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from radscope.engine.context import ModelInfo, RuntimeContext
from radscope.engine.eligibility.readable import ReaderLanguages
from radscope.engine.io.reports import (
    LAYOUT_VERSION,
    PARTS,
    ReportLayout,
    ReportPair,
    impression_read_with_findings,
    pair_views,
    read_layout,
)
from radscope.engine.metrics.framework.base import Metric, MetricCard, PairScore
from radscope.engine.options.extractor import EXTRACTOR
from radscope.engine.options.sections import SECTIONS, chosen_parts

ExtractorKind = Literal["rules", "llm", "encoder", "lexical"]
# The languages each kind of extractor reads (engine.eligibility.readable): the rules reader's
# lexicons and the encoders (demo and published weights alike) were made from English reports;
# the word-overlap tokenizer keeps Latin letters only; an LLM judge reads any language.
READER_LANGUAGES: dict[ExtractorKind, ReaderLanguages] = {
    "rules": "english", "encoder": "english", "lexical": "latin", "llm": "any"}
T = TypeVar("T")


@dataclass(frozen=True)
class Extracted(Generic[T]):
    """One pair's extraction, or the reason it has none (``error``; ``value`` is then None).

    ``details`` is what the extractor shows beside the score: the reader's entry, the judge's
    calls, raw model outputs, a failed judge's raw answers.
    """

    value: T | None
    details: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @classmethod
    def failed(cls, error: str, details: dict[str, Any] | None = None) -> Extracted[T]:
        return cls(None, details or {}, error)


class JudgeUnavailable(ValueError):
    """The chosen extractor (or its judge or model) cannot be built; the message says how to
    fix it, and the CLI prints it as an error instead of a traceback."""


class Extractor(Protocol[T]):
    """Reads report pairs for one metric; registered in the metric's ``ExtractorTable``."""

    kind: ExtractorKind
    batch_size: int  # pairs per ``extract`` call: 1 reads pair by pair, encoders take a chunk
    cpu_bound: bool  # pure Python, no model: the runner may run it in worker processes

    def model(self) -> ModelInfo | None:
        """The model behind the extraction (None for the lexical tokenizer)."""

    def signature_fields(self) -> dict[str, Any]:
        """What can change the extraction: model and its hash, prompts, lexicons, rules."""

    def extract(self, pairs: Sequence[ReportPair]) -> list[Extracted[T]]:
        """One result per pair, in order. A pair that cannot be read (or a judge that gave no
        usable answer) is an ``Extracted.failed``; an exception means the whole call failed (a
        model that cannot load), and the metric then marks every pair of the call."""

    def close(self) -> None:
        """Release what the extractor holds itself (shared sessions belong to the context)."""


class PairwiseExtractor(Generic[T]):
    """Defaults for an extractor that reads one pair at a time and holds nothing to release."""

    batch_size = 1
    cpu_bound = False

    def extract_pair(self, pair: ReportPair) -> Extracted[T]:
        raise NotImplementedError

    def extract(self, pairs: Sequence[ReportPair]) -> list[Extracted[T]]:
        return [self.extract_pair(pair) for pair in pairs]

    def close(self) -> None:
        """Nothing to release."""


class Scoring(Generic[T]):
    """A metric's pure part: an extraction -> the pair's statistics and score."""

    # The ``STATS_VERSION`` of the statistics record its results fill (``<metric>/stats.py``);
    # the metric's signature carries it from version 2 on (``Metric.signature``).
    stats_version: int = 1

    def score(self, value: T, details: dict[str, Any]) -> PairScore:
        """The scored pair; ``details`` (the extractor's) go into the result's details."""
        raise NotImplementedError

    def failed(self, error: str, details: dict[str, Any]) -> PairScore:
        """A pair the extractor could not read."""
        return PairScore.failed(error, details)

    def signature_fields(self, extractor_fields: dict[str, Any]) -> dict[str, Any]:
        """The signature's fields: the extractor's plus what the scoring adds."""
        return extractor_fields


class ExtractorMetric(Metric, Generic[T]):
    """A metric as extractor -> statistics -> score; one failing pair never fails the others."""

    def __init__(self, card: MetricCard, extractor: Extractor[T], scoring: Scoring[T],
                 version: str = "1", parts: tuple[str, ...] | None = None) -> None:
        self.card = card
        # The sections read (``radscope.engine.options.sections``): the card's unless the run chose others.
        self.parts = card.reads if parts is None or not card.reads else parts
        self.extractor = extractor
        self.scoring = scoring
        self.version = version
        self.stats_version = scoring.stats_version
        self.batch_size = extractor.batch_size
        self.cpu_bound = extractor.cpu_bound

    def model(self) -> ModelInfo | None:
        return self.extractor.model()

    def signature_fields(self) -> dict[str, Any]:
        fields = self.scoring.signature_fields(self.extractor.signature_fields())
        if self.parts:  # what a report's sections are is part of what was read
            fields = {**fields, "layout": LAYOUT_VERSION}
        if self.parts != self.card.reads:  # a choice other than the definition's is named
            fields = {**fields, "sections": "+".join(self.parts)}
        return fields

    def score_pair(self, pair: ReportPair) -> PairScore:
        return self._with_sections(pair, self._score(self.extractor.extract([self._view(pair)])[0]))

    def score_pairs(self, pairs: Sequence[ReportPair]) -> list[PairScore]:
        if self.batch_size == 1:
            return super().score_pairs(pairs)  # pair by pair: an exception marks its pair only
        start = time.perf_counter()
        extracted = self.extractor.extract([self._view(pair) for pair in pairs])
        if len(extracted) != len(pairs):
            raise RuntimeError(f"{self.name}: the extractor returned {len(extracted)} results "
                               f"for {len(pairs)} pairs")
        results = [self._with_sections(pair, self._safe(e))
                   for pair, e in zip(pairs, extracted, strict=True)]
        per_pair_ms = (time.perf_counter() - start) * 1000 / max(1, len(pairs))
        for result in results:
            result.elapsed_ms = per_pair_ms
        return results

    def _view(self, pair: ReportPair) -> ReportPair:
        """The pair as this metric reads it: only the sections it reads, both reports alike (``pair_views``)."""
        if not self.parts:
            return pair
        reference, candidate = pair_views(pair.reference, pair.candidate, self.parts)
        return dataclasses.replace(pair, reference=reference, candidate=candidate)

    def _with_sections(self, pair: ReportPair, result: PairScore) -> PairScore:
        """The result, saying which sections it read and which it left out, and why."""
        if self.parts:
            read = sections_read(pair, self.parts, self.card.reads, self.card.title,
                                 self.card.reads_why)
            result.details = {**result.details, "sections": read}
        return result

    def _safe(self, extracted: Extracted[T]) -> PairScore:
        try:
            return self._score(extracted)
        except Exception as exc:  # noqa: BLE001 - reported on its pair, never swallowed
            return PairScore.failed(f"{type(exc).__name__}: {exc}")

    def _score(self, extracted: Extracted[T]) -> PairScore:
        if extracted.error is not None or extracted.value is None:
            return self.scoring.failed(extracted.error or "no extraction", extracted.details)
        return self.scoring.score(extracted.value, extracted.details)

    @property
    def reader_languages(self) -> ReaderLanguages:
        return READER_LANGUAGES[self.extractor.kind]

    def close(self) -> None:
        self.extractor.close()


ExtractorBuilder = Callable[[RuntimeContext], Extractor[Any]]
# Our own modules (``radscope.engine.``): a missing one of these is an extractor this
# installation lacks; any other missing module is a real error and is raised as it is.
_ENGINE_PACKAGE = __name__.rsplit(".metrics.", 1)[0] + "."


def by_extractor_option(ctx: RuntimeContext) -> ExtractorKind:
    """The kind the ``extractor`` option names (``rules`` or ``llm``)."""
    kind = str(ctx.option(EXTRACTOR))
    if kind not in (EXTRACTOR.choices or ()):
        raise JudgeUnavailable(f"unknown extractor {kind!r}; choose from "
                               f"{', '.join(EXTRACTOR.choices or ())}")
    return "rules" if kind == "rules" else "llm"


@dataclass(frozen=True, eq=False)
class ExtractorTable:
    """A metric's extractors by kind, and how the run's options choose one."""

    metric: str
    builders: Mapping[ExtractorKind, ExtractorBuilder]
    choose: Callable[[RuntimeContext], ExtractorKind] = by_extractor_option

    def build(self, ctx: RuntimeContext) -> Extractor[Any]:
        """The chosen extractor. One this installation lacks (its kind not in the table, or
        its module not installed) or whose model cannot be found is ``JudgeUnavailable``."""
        kind = self.choose(ctx)
        other = "llm" if kind == "rules" else "rules"
        build = self.builders.get(kind)
        if build is None:
            raise JudgeUnavailable(f"{self.metric}: the {kind!r} extractor is not available in "
                                   f"this installation; use --extractor {other}")
        try:
            return build(ctx)
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith(_ENGINE_PACKAGE):
                raise
            raise JudgeUnavailable(f"{self.metric}: the {kind!r} extractor is not available in "
                                   f"this installation ({exc.name} is missing); use "
                                   f"--extractor {other}") from None
        except Exception as exc:
            from radscope.models.resolve import ModelNotAvailable  # imported when needed: start-up

            if isinstance(exc, ModelNotAvailable):
                raise JudgeUnavailable(str(exc)) from None
            raise

    def build_metric(self, ctx: RuntimeContext, scoring: Scoring[Any],
                     card: Callable[[ExtractorKind], MetricCard],
                     version: Callable[[ExtractorKind], str] = lambda kind: "1"
                     ) -> ExtractorMetric[Any]:
        """The run's metric: the chosen extractor with the scoring, and the card and version
        that describe the metric read by that kind of extractor."""
        extractor = self.build(ctx)
        chosen = card(extractor.kind)
        parts = chosen_parts(str(ctx.option(SECTIONS)), chosen.reads)
        return ExtractorMetric(chosen, extractor, scoring, version(extractor.kind), parts)


def sections_read(pair: ReportPair, parts: tuple[str, ...], default: tuple[str, ...],
                  title: str, why: str) -> dict[str, Any]:
    """What a result read: ``read`` (the sections scored), ``not_compared`` (each section left
    out, with the reason in words), ``absent`` (a section read that neither report has),
    ``impression_read_with_findings`` (the report whose impression was read with its findings so
    that the pair is read alike, and why: ``reports.pair_views``), and each report's layout (its
    sections as found and the reader's notices)."""
    layouts = {"reference": read_layout(pair.reference), "candidate": read_layout(pair.candidate)}
    not_compared = []
    for part in PARTS:
        if part in parts:
            continue
        reason = (f"{part} not compared: {why}" if part not in default
                  else f"{part} not compared: {title} was asked to score the "
                       f"{' and '.join(parts)} only")
        not_compared.append({"section": part, "why": reason})
    absent = [part for part in parts if not any(_part(layout, part) for layout in layouts.values())]
    alike = impression_read_with_findings(pair.reference, pair.candidate, parts)
    read_with = [] if alike is None else [{
        "report": alike, "why": "the reference has no heading and is read whole, its conclusion with its "
                                "findings: the candidate's impression is read with its findings, so that "
                                "both reports are read alike"}]
    return {"read": list(parts), "not_compared": not_compared, "absent": absent,
            "impression_read_with_findings": read_with, "default": parts == default,
            **{side: layout.to_json() for side, layout in layouts.items()}}


def _part(layout: ReportLayout, part: str) -> str:
    return layout.findings if part == "findings" else layout.impression
