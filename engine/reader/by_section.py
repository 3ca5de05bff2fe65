"""A pair read section by section: the findings aligned with the findings, the impression with
the impression, and each clinical error counted once.

The two reports' texts are the sections a metric reads (``radscope.engine.io.reports.section_view``). The
findings and the impressions are aligned apart (``align.read_pair`` on each), so that the
impression of one report is never paired with the findings of the other by chance; then:

- an impression statement left over on one side is no omission or addition when the other
  report states it in its findings ("Right effusion" in one impression, "small right pleural
  effusion" in the other's findings), and
- an impression error that repeats a findings error (the same category about the same finding:
  a side swapped in both sections) is counted once: radiologists count clinical errors, not
  the sentences that state them.

``clinical_errors`` sums the errors by kind (``radscope.engine.metrics.framework.base.ERROR_KINDS``) for the
overview: "2 side conflicts, 1 missed finding".
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from radscope.engine.io.reports import PARTS, read_layout, section_view
from radscope.engine.reader.errors import (
    ReaderError,
    link_errors,
    matched_findings,
    pair_errors,
    readable,
)
from radscope.engine.reader.findings import Finding
from radscope.engine.reader.kinds import ERROR_KINDS
from radscope.engine.reader.pair.align import PairReading, read_pair, restates

# How the six categories (and C's two causes) map to the error kinds the overview names.
_KIND_OF_CATEGORY = {"A": "invented", "B": "missed", "D": "severity", "E": "comparison",
                     "F": "comparison"}


@dataclass(frozen=True)
class SectionedReading:
    """The findings' and the impressions' alignments (None where neither report has one)."""

    findings: PairReading | None
    impression: PairReading | None

    def readable(self) -> bool:
        return any(readable(p) for p in (self.findings, self.impression) if p is not None)

    @cached_property
    def counted(self) -> CountedErrors:
        """``counted_errors`` of this reading, worked out once (CREPE and VERT both ask it of
        the reading ``read_sections`` keeps for a pair)."""
        return counted_errors(self)

    def to_json(self) -> dict[str, Any]:
        """``reading``: the findings' alignment (the shape it always had); ``impression_reading``:
        the impressions' (None where neither report has one)."""
        return {"reading": None if self.findings is None else self.findings.to_json(),
                "impression_reading": None if self.impression is None else self.impression.to_json()}


@lru_cache(maxsize=2048)
def read_sections(reference: str, candidate: str) -> SectionedReading:
    """Align the findings with the findings and the impression with the impression."""
    ref, cand = read_layout(reference), read_layout(candidate)
    findings = read_pair(ref.findings, cand.findings) if (ref.findings or cand.findings) else None
    impression = (read_pair(ref.impression, cand.impression)
                  if (ref.impression or cand.impression) else None)
    return SectionedReading(findings, impression)


@dataclass(frozen=True)
class CountedErrors:
    """The errors counted (each once), and the impression errors left out as repeats."""

    errors: tuple[ReaderError, ...]
    repeated: tuple[ReaderError, ...]
    matched: tuple[str, ...]
    in_impression: tuple[ReaderError, ...] = ()  # the counted errors found in the impression


def counted_errors(reading: SectionedReading) -> CountedErrors:
    """Every clinical error of the candidate, each counted once (module docstring)."""
    errors = list(pair_errors(reading.findings)) if reading.findings else []
    matched = list(matched_findings(reading.findings)) if reading.findings else []
    repeated: list[ReaderError] = []
    in_impression: list[ReaderError] = []
    imp = reading.impression
    if imp is not None:
        ref_all = _all_findings(reading, "reference")
        cand_all = _all_findings(reading, "candidate")
        for error in _impression_errors(imp, ref_all, cand_all):
            if any(_same_error(error, e) for e in errors):
                repeated.append(error)
            else:
                in_impression.append(error)
        errors.extend(in_impression)
        for m in matched_findings(imp):  # one by one: a finding the impression states twice is listed once
            if m not in matched:
                matched.append(m)
    return CountedErrors(tuple(errors), tuple(repeated), tuple(matched), tuple(in_impression))


def _all_findings(reading: SectionedReading, side: str) -> tuple[Finding, ...]:
    out: list[Finding] = []
    for pair in (reading.findings, reading.impression):
        if pair is not None:
            out.extend(getattr(pair, side).findings)
    return tuple(out)


def _impression_errors(imp: PairReading, ref_all: tuple[Finding, ...],
                       cand_all: tuple[Finding, ...]) -> list[ReaderError]:
    """The impression alignment's errors. A reference impression statement the candidate's
    impression leaves out is missed when the candidate writes an impression (its conclusion
    leaves it out, or calls the study normal); a candidate without one is only asked to state
    it somewhere. A candidate impression statement the reference makes in its findings is no
    invention (a summary of findings is no new finding)."""
    out: list[ReaderError] = []
    for link in imp.links:
        out.extend(link_errors(imp, link))
    for i in imp.only_reference:
        f = imp.reference.findings[i]
        if imp.candidate.findings or not restates(f, cand_all):
            out.append(ReaderError("B", f.abnormal, f"left out of the impression: '{f.text}'",
                                   f.concepts, at=(i, -1)))
    for j in imp.only_candidate:
        f = imp.candidate.findings[j]
        if f.abnormal and not restates(f, ref_all):
            out.append(ReaderError("A", True, f"not in the reference (impression): '{f.text}'",
                                   f.concepts, at=(-1, j)))
    return out


def _same_error(a: ReaderError, b: ReaderError) -> bool:
    """The same category about the same finding (a shared finding word)."""
    return a.category == b.category and a.kind == b.kind and bool(set(a.about) & set(b.about))


def error_kind(error: ReaderError) -> str:
    """The kind (``ERROR_KINDS``) of one error."""
    return error.kind or _KIND_OF_CATEGORY.get(error.category, "site")


def clinical_errors(counted: CountedErrors) -> dict[str, int]:
    """Significant errors per kind ("side": 2, "missed": 1, ...; every kind present, zeros
    included; "impression": how many of them only the impressions show), the figures the
    overview leads with."""
    counts = dict.fromkeys(ERROR_KINDS, 0)
    for error in counted.errors:
        if error.significant or error_kind(error) == "certainty":  # hedges are never significant
            counts[error_kind(error)] += 1
    counts["impression"] = sum(e.significant for e in counted.in_impression)
    return counts


def error_details(counted: CountedErrors) -> dict[str, Any]:
    """What a rules view adds to its result: ``clinical_errors`` (significant errors per kind)
    and ``repeated_errors`` (impression errors counted once, with the findings' error)."""
    return {"clinical_errors": clinical_errors(counted),
            "repeated_errors": [e.to_json() for e in counted.repeated]}


def clinical_summary(reference: str, candidate: str) -> dict[str, Any]:
    """The reader's clinical errors of a pair as written (findings and impression, each error
    once), whichever metrics ran: ``clinical_errors`` (per kind), ``errors`` (the significant
    ones in words), ``repeated_errors`` and ``reader`` (which reader said so)."""
    from radscope.engine.reader.versions import READER_VERSION

    reading = read_sections(section_view(reference, PARTS), section_view(candidate, PARTS))
    counted = reading.counted
    return {"reader": f"rules reader ({READER_VERSION})", **error_details(counted),
            "errors": [{**e.to_json(), "kind": error_kind(e)} for e in counted.errors
                       if e.significant]}
