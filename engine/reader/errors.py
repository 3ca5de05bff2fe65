"""The alignment of a pair as a list of errors in the six ReXVal categories.

Both error-counting views read this list: CREPE's rules estimate counts the significant ones
per category; the VERT / GREEN rules judge lists all of them and the matched findings.

- A, false finding: an abnormal candidate statement with no counterpart; a finding the
  candidate asserts where the reference denies it or calls the anatomy normal; the same
  finding described with an opposite character (hyperdense vs hypodense).
- B, omission: an abnormal reference statement with no counterpart, or one the candidate
  denies (significant); a normal reference statement left out (insignificant).
- C, location: one finding on the other side, or at an unrelated site or level.
- D, severity: one finding with another severity class or a different measurement
  (significant); a hedge added or removed (insignificant).
- E / F: a comparison with a prior study made only by the candidate / only by the reference.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from radscope.engine.reader.attributes.certainty import NEGATIVE, POSITIVE, UNCERTAIN
from radscope.engine.reader.error_words import CATEGORY_LETTERS
from radscope.engine.reader.findings import Finding
from radscope.engine.reader.pair.align import Link, PairReading

# How a certainty difference is worded for a reader of the report.
_CERTAINTY = {POSITIVE: "stated", UNCERTAIN: "hedged", NEGATIVE: "denied"}

CATEGORY_KEYS = CATEGORY_LETTERS  # ReXVal's A-F (``vocabulary.REXVAL_NAMES``)


@dataclass(frozen=True)
class ReaderError:
    category: str  # A-F
    significant: bool
    text: str
    # The finding words it is about (to count one error stated in two sections once), and its
    # kind where the category has several ("side" or "site" for C; ``sections.error_kind``).
    about: tuple[str, ...] = field(default=(), compare=False)
    kind: str = ""
    # Which statements it is about, for the Differences view: (reference index, candidate
    # index) into its section's findings, or its comparisons for E / F without a kind; -1: none.
    at: tuple[int, int] = field(default=(-1, -1), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "significant": self.significant, "text": self.text}


def _q(finding: Finding) -> str:
    return f"'{finding.text}'"


def link_errors(pair: PairReading, link: Link) -> list[ReaderError]:
    """The errors of one link: the ways in which two statements of one finding disagree."""
    return [replace(e, at=(link.ref, link.cand)) for e in _link_errors(pair, link)]


def _link_errors(pair: PairReading, link: Link) -> list[ReaderError]:
    ref, cand = pair.ref_finding(link), pair.cand_finding(link)
    both = f"reference {_q(ref)}, candidate {_q(cand)}"
    found = set(link.conflicts)
    about = tuple(sorted({*ref.concepts, *ref.denied, *cand.concepts, *cand.denied}))
    if "polarity" in found:
        if ref.abnormal and ref.polarity != NEGATIVE and (cand.normal or cand.polarity == NEGATIVE):
            return [ReaderError("B", True, f"finding denied or called normal: {both}", about)]
        return [ReaderError("A", True, f"finding asserted against the reference: {both}", about)]
    out = []
    # A side or site error is also about where it is: "right lower lobe opacity" in the findings
    # and "right lower lobe pneumonia" in the impression, both moved left, are one error.
    where = (*about, *(f"site:{site}" for site in ref.sites))
    # C is a finding in the wrong place: two denials in other places ("no mass in the right
    # kidney" / "no abnormality in the right hemisphere") misplace no finding.
    finding = ref.abnormal or cand.abnormal
    if "laterality" in found:
        out.append(ReaderError("C", finding, f"other side ({'/'.join(ref.laterality)} vs "
                                             f"{'/'.join(cand.laterality)}): {both}", where, "side"))
    elif "site" in found:
        out.append(ReaderError("C", finding, f"other site: {both}", where, "site"))
    if "severity" in found:
        out.append(ReaderError("D", True, f"different severity: {both}", about, "severity"))
    elif "size" in found:
        out.append(ReaderError("D", True, f"different size: {both}", about, "size"))
    if "change" in found:
        # The candidate contradicts the change the reference reports (F), or reports a change
        # where the reference says it is unchanged (E).
        category = "E" if ref.change == "unchanged" else "F"
        out.append(ReaderError(category, True, f"different change over time ({ref.change} vs "
                                               f"{cand.change}): {both}", about, "change"))
    if "character" in found:
        out.append(ReaderError("A", True, f"opposite description of the finding: {both}", about))
    if "certainty" in found and not out:
        out.append(ReaderError("D", False, f"certainty differs ({_CERTAINTY[ref.polarity]} vs "
                                           f"{_CERTAINTY[cand.polarity]}): {both}", about, "certainty"))
    return out


def pair_errors(pair: PairReading) -> list[ReaderError]:
    """Every error of the candidate against the reference, in category order."""
    errors: list[ReaderError] = []
    for link in pair.links:
        errors.extend(link_errors(pair, link))
    for i in pair.only_reference:
        f = pair.reference.findings[i]
        errors.append(ReaderError("B", f.abnormal, f"left out: {_q(f)}", f.concepts, at=(i, -1)))
    for j in pair.only_candidate:
        f = pair.candidate.findings[j]
        if f.abnormal:
            errors.append(ReaderError("A", True, f"not in the reference: {_q(f)}", f.concepts,
                                      at=(-1, j)))
    for j in pair.comparisons_made:
        errors.append(ReaderError("E", True, "comparison not in the reference: "
                                             f"'{pair.candidate.comparisons[j].text}'", at=(-1, j)))
    for i in pair.comparisons_dropped:
        # F is the omission of a comparison that describes a change: leaving out "similar to
        # the prior study" loses no change, so it is listed but not counted.
        dropped = pair.reference.comparisons[i]
        errors.append(ReaderError("F", dropped.change != "unchanged",
                                  f"comparison left out: '{dropped.text}'", at=(i, -1)))
    return sorted(errors, key=lambda e: CATEGORY_KEYS.index(e.category))


def matched_findings(pair: PairReading) -> list[str]:
    """The reference findings the candidate states compatibly (GREEN's matched findings), each
    once: a finding the candidate writes in two statements is still one matched finding."""
    matched = {link.ref for link in pair.links
               if not [e for e in link_errors(pair, link) if e.significant]}
    return [pair.reference.findings[i].text for i in sorted(matched)]


def readable(pair: PairReading) -> bool:
    """Whether the reader found anything to compare (else the pair cannot be scored)."""
    return bool(pair.reference.findings or pair.candidate.findings
                or pair.reference.comparisons or pair.candidate.comparisons)
