"""A pair read once: which findings of the two reports are the same, and how they differ.

Built on RadSEM's pairing rule (``pairing``, shared with the RadSEM matcher): two statements may
link when the matcher would pair them (``compatibility.incompatibility_reason`` finds nothing
against it and its similarity gates pass), or when they are the *same finding stated
differently* (they share a finding word, yet conflict). A one-to-one assignment maximising the
total token similarity decides which statement answers which, as the matcher does; each link then names its conflicts (laterality, site, severity,
size, certainty, polarity, character), which is what the error categories of CREPE and
GREEN / VERT count. A statement still left over is only in
its report, unless it merely restates a finding the other report also makes. Comparisons with
a prior study are matched by change and topic; the rest were made (candidate only) or dropped
(reference only).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from radscope.engine.reader.attributes.certainty import POSITIVE, UNCERTAIN
from radscope.engine.reader.attributes.change import changes_differ
from radscope.engine.reader.attributes.place import NORMAL, SentenceFeatures
from radscope.engine.reader.attributes.size import sizes_differ
from radscope.engine.reader.findings import Comparison, Finding, ReportReading, read_report
from radscope.engine.reader.pair.compatibility import (
    LEXICAL_SETTINGS,
    anatomical_relationship,
    denies,
    generic_stems,
    incompatibility_reason,
    levels_differ,
    lexical_similarity,
    places_differ,
    polarity_clash,
)
from radscope.engine.reader.pair.pairing import denied_elsewhere, extra_pairs, one_to_one, pairable
from radscope.engine.reader.text.anatomy import anatomy_lexicon

Conflict = Literal["laterality", "site", "severity", "size", "change", "certainty", "polarity",
                   "character"]
# Conflicts that make two statements of one finding incompatible (the rest only qualify a match).
HARD: frozenset[str] = frozenset({"laterality", "site", "severity", "size", "change", "polarity",
                                  "character"})
SAME_FINDING_MIN_SIMILARITY = 0.3  # token Dice below which a shared word is a coincidence
COMPARISON_MIN_OVERLAP = 0.2  # topic Jaccard for two comparisons to be the same one
# A compatible pairing outbids a conflicting one of slightly higher similarity: a report is
# mostly right, and a conflict needs the clearly better fit (0.2 chosen on SSREE dev and the
# triplets: 0 and 0.4 both measured lower on SSREE, triplets unchanged from 0 to 0.2).
COMPATIBLE_BONUS = 0.2


@dataclass(frozen=True)
class Link:
    """Reference finding ``ref`` and candidate finding ``cand`` are the same finding."""

    ref: int
    cand: int
    conflicts: tuple[str, ...]
    similarity: float

    @property
    def agrees(self) -> bool:
        return not (set(self.conflicts) & HARD)

    def to_json(self) -> dict[str, Any]:
        return {"ref": self.ref, "cand": self.cand, "conflicts": list(self.conflicts),
                "similarity": round(self.similarity, 3)}


@dataclass(frozen=True)
class PairReading:
    """The alignment of a reference and a candidate reading."""

    reference: ReportReading
    candidate: ReportReading
    links: tuple[Link, ...]
    only_reference: tuple[int, ...]
    only_candidate: tuple[int, ...]
    restated: tuple[tuple[str, int], ...]  # ("reference" | "candidate", index): repeats, no error
    comparisons_kept: tuple[tuple[int, int], ...]
    comparisons_made: tuple[int, ...]  # candidate comparisons absent from the reference
    comparisons_dropped: tuple[int, ...]  # reference comparisons the candidate leaves out

    @property
    def matched(self) -> tuple[Link, ...]:
        return tuple(link for link in self.links if link.agrees)

    @property
    def conflicting(self) -> tuple[Link, ...]:
        return tuple(link for link in self.links if not link.agrees)

    def ref_finding(self, link: Link) -> Finding:
        return self.reference.findings[link.ref]

    def cand_finding(self, link: Link) -> Finding:
        return self.candidate.findings[link.cand]

    def to_json(self) -> dict[str, Any]:
        return {"reference": self.reference.to_json(), "candidate": self.candidate.to_json(),
                "links": [link.to_json() for link in self.links],
                "only_reference": list(self.only_reference),
                "only_candidate": list(self.only_candidate),
                "restated": [list(r) for r in self.restated],
                "comparisons_kept": [list(p) for p in self.comparisons_kept],
                "comparisons_made": list(self.comparisons_made),
                "comparisons_dropped": list(self.comparisons_dropped)}


@lru_cache(maxsize=2048)
def read_pair(reference: str, candidate: str) -> PairReading:
    """Read and align a pair (cached by the two texts, so every view of a run shares it)."""
    ref, cand = read_report(reference), read_report(candidate)
    rf = [f.features for f in ref.findings]
    cf = [f.features for f in cand.findings]
    sim = lexical_similarity(rf, cf) if rf and cf else np.zeros((len(rf), len(cf)))
    links = _links(ref.findings, cand.findings, sim)
    links += _denials_left_over(ref.findings, cand.findings, sim, links)
    used_ref, used_cand = {link.ref for link in links}, {link.cand for link in links}
    only_ref, only_cand, restated = [], [], []
    for i, f in enumerate(ref.findings):
        if i not in used_ref:
            (restated.append(("reference", i)) if restates(f, cand.findings)
             else only_ref.append(i))
    for j, f in enumerate(cand.findings):
        if j not in used_cand:
            (restated.append(("candidate", j)) if restates(f, ref.findings)
             else only_cand.append(j))
    kept, made, dropped = _align_comparisons(ref.comparisons, cand.comparisons)
    return PairReading(reference=ref, candidate=cand,
                       links=tuple(sorted(links, key=lambda link: (link.ref, link.cand))),
                       only_reference=tuple(only_ref), only_candidate=tuple(only_cand),
                       restated=tuple(restated), comparisons_kept=kept,
                       comparisons_made=made, comparisons_dropped=dropped)


def _links(ref: Sequence[Finding], cand: Sequence[Finding], sim: np.ndarray) -> list[Link]:
    """RadSEM's pairing (``pairing``) under its own settings (``LEXICAL_SETTINGS``, whole since
    reader-v21: docs/architecture.md, "One pairing rule"), extended to link conflicting statements
    of one finding too: the assignment decides which statement answers which, the conflicts then
    say how they differ.

    Pairable pairs bid ``COMPATIBLE_BONUS`` above their similarity, and only they take extra
    links; not for a statement the other report contradicts about the same site ("the
    ventricles are enlarged" against "the ventricles are normal in size" must not hide behind
    "the cisterns are widened").
    """
    if not ref or not cand:
        return []
    rf, cf = [f.features for f in ref], [f.features for f in cand]
    allowed, sim = pairable(rf, cf, sim, LEXICAL_SETTINGS)
    allowed &= ~denied_elsewhere(rf, cf)
    same = np.array([[_same_finding(a, b) for b in cf] for a in rf], dtype=bool)
    also = ~allowed & same & (sim >= SAME_FINDING_MIN_SIMILARITY)
    chosen = one_to_one(sim, allowed, LEXICAL_SETTINGS, bonus=COMPATIBLE_BONUS, also=also)
    chosen |= set(extra_pairs(rf, cf, sim, allowed, chosen, LEXICAL_SETTINGS,
                              may_extend_ref=lambda i: not _contradicted(ref[i], cand),
                              may_extend_gen=lambda j: not _contradicted(cand[j], ref)))
    return [Link(i, j, conflicts(ref[i], cand[j]), float(sim[i, j])) for i, j in sorted(chosen)]


def _denials_left_over(ref: Sequence[Finding], cand: Sequence[Finding], sim: np.ndarray,
                       links: Sequence[Link]) -> list[Link]:
    """A statement left over that denies what the other report asserts at that place ("no
    hypodense lesions in the liver" against "the liver is heterogeneous with multiple hypodense
    lesions", whose one statement answered "the liver is heterogeneous") contradicts it: it is
    linked to that statement, so that the denial is counted, not passed over as a normal
    statement of its own."""
    used_ref, used_cand = {link.ref for link in links}, {link.cand for link in links}
    out = []
    for j, c in enumerate(cand):
        denied_ref = None if j in used_cand else _best_denied(c, ref, sim[:, j])
        if denied_ref is not None:
            out.append(Link(denied_ref, j, conflicts(ref[denied_ref], c), float(sim[denied_ref, j])))
    for i, r in enumerate(ref):
        denied_cand = None if i in used_ref else _best_denied(r, cand, sim[i, :])
        if denied_cand is not None:
            out.append(Link(i, denied_cand, conflicts(r, cand[denied_cand]), float(sim[i, denied_cand])))
    return out


def _best_denied(denier: Finding, others: Sequence[Finding], sim: np.ndarray) -> int | None:
    """The most similar of ``others`` whose finding the statement ``denier`` denies (None:
    none)."""
    found = [k for k, o in enumerate(others) if denies(denier.features, o.features)]
    return max(found, key=lambda k: sim[k]) if found else None


def _same_finding(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """Both statements name one finding word (asserted or denied), beyond generic words."""
    return bool(((a.asserted | a.negated) & (b.asserted | b.negated)) - generic_stems())


def restates(finding: Finding, other: Sequence[Finding]) -> bool:
    """A left-over statement that repeats a finding the other report makes compatibly
    ("the effusion has increased" after "small left effusion") is no omission or addition."""
    f = finding.features
    if _contradicted(finding, other):
        return False
    # the cheap tests first: most statements of the other report share no finding word
    return any(f.normality == o.features.normality
               and bool((f.asserted & o.features.asserted) - generic_stems())
               and incompatibility_reason(f, o.features) is None for o in other)


def _contradicted(finding: Finding, other: Sequence[Finding]) -> bool:
    """The other report calls the same site (and side) normal where this statement calls it
    changed in size or degree, or the reverse ("the ventricles are normal in size" against
    "the ventricles are enlarged")."""
    f = finding.features
    return bool(f.sites) and any(
        o.features.sites == f.sites and o.features.normality != f.normality
        and not (f.sides and o.features.sides and not f.sides & o.features.sides)
        and (_sized(f, o.features) or _sized(o.features, f))
        for o in other)


def _sized(normal: SentenceFeatures, changed: SentenceFeatures) -> bool:
    """``normal`` says normal, ``changed`` says larger / smaller (or milder / worse)."""
    said = list(zip(_direction_roles(), normal.directions, changed.directions, strict=True))
    return normal.normality == NORMAL and any(role == "normal" and x == 1 for role, x, _ in said) \
        and any(role == "severity" and y for role, _, y in said)


@lru_cache(maxsize=1)
def _direction_roles() -> tuple[str, ...]:
    """Which conflict each opposite-direction pair of the RadSEM lexicon signals."""
    roles = []
    for first, _ in anatomy_lexicon().directions:
        if first.search("normal"):
            roles.append("normal")
        elif first.search("small") or first.search("enlarged"):
            roles.append("severity")
        elif first.search("improved") or first.search("new"):
            roles.append("change")  # counted through the comparisons
        else:
            roles.append("character")
    return tuple(roles)


def conflicts(ref: Finding, cand: Finding) -> tuple[str, ...]:
    """Every way in which two statements of one finding disagree (empty: they agree), as
    categories in the order of ``_CONFLICT_CHECKS``."""
    opposite = {role for role, x, y in zip(_direction_roles(), ref.features.directions,
                                           cand.features.directions, strict=True)
                if {x, y} == {1, 2}}
    return tuple(name for name, differ in _CONFLICT_CHECKS if differ(ref, cand, opposite))


def _polarity_differs(ref: Finding, cand: Finding, _: set[str]) -> bool:
    a, b = ref.features, cand.features
    return bool(a.normality != b.normality or (a.normality != NORMAL and polarity_clash(a, b))
        or _normal_vs_changed(a, b) or _normal_vs_changed(b, a))


def _laterality_differs(ref: Finding, cand: Finding, _: set[str]) -> bool:
    a, b = ref.features, cand.features
    return bool(a.sides and b.sides and not (a.sides & b.sides))


def _site_differs(ref: Finding, cand: Finding, _: set[str]) -> bool:
    a, b = ref.features, cand.features
    return anatomical_relationship(a, b) is None or levels_differ(a.levels, b.levels) \
        or places_differ(a, b)


def _severity_differs(ref: Finding, cand: Finding, opposite: set[str]) -> bool:
    return bool(ref.severity and cand.severity and ref.severity != cand.severity) \
        or "severity" in opposite


def _size_differs(ref: Finding, cand: Finding, _: set[str]) -> bool:
    return sizes_differ(ref.features.sizes, cand.features.sizes)


def _change_differs(ref: Finding, cand: Finding, _: set[str]) -> bool:
    return changes_differ(ref.features.change, cand.features.change)


def _certainty_differs(ref: Finding, cand: Finding, _: set[str]) -> bool:
    return {ref.polarity, cand.polarity} == {POSITIVE, UNCERTAIN}


def _character_differs(_ref: Finding, _cand: Finding, opposite: set[str]) -> bool:
    """Opposite appearances, or one statement calling normal what the other calls abnormal
    ("screws in good position" / "hardware malpositioned") when both state the finding."""
    return bool(opposite & {"character", "normal"})


# The conflict categories, in the order a link lists them, each with its test (the two
# statements and the direction roles in which they say opposite things).
_CONFLICT_CHECKS: tuple[tuple[str, Callable[[Finding, Finding, set[str]], bool]], ...] = (
    ("polarity", _polarity_differs), ("laterality", _laterality_differs),
    ("site", _site_differs), ("severity", _severity_differs), ("size", _size_differs),
    ("change", _change_differs), ("certainty", _certainty_differs),
    ("character", _character_differs))


def _normal_vs_changed(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """``a`` calls something normal ("normal in size") where ``b`` calls it changed in size or
    degree ("enlarged"), when other words made both read as abnormal statements."""
    roles = _direction_roles()
    said = {role: (x, y) for role, x, y in zip(roles, a.directions, b.directions, strict=True)
            if role in ("normal", "severity") and (x or y)}
    normal_a, normal_b = said.get("normal", (0, 0))
    changed_b = any(y for role, (_, y) in said.items() if role == "severity")
    return normal_a == 1 and normal_b == 0 and changed_b and not any(
        x for role, (x, _) in said.items() if role == "severity")


def _align_comparisons(ref: Sequence[Comparison], cand: Sequence[Comparison]
                       ) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]:
    options = sorted(((_overlap(r.topic, c.topic), i, j) for i, r in enumerate(ref)
                      for j, c in enumerate(cand) if _same_change(r, c)), reverse=True)
    kept, taken_ref, taken_cand = [], set(), set()
    for overlap, i, j in options:
        if overlap < COMPARISON_MIN_OVERLAP or i in taken_ref or j in taken_cand:
            continue
        taken_ref.add(i)
        taken_cand.add(j)
        kept.append((i, j))
    made = tuple(j for j in range(len(cand)) if j not in taken_cand)
    dropped = tuple(i for i in range(len(ref)) if i not in taken_ref)
    return tuple(sorted(kept)), made, dropped


def _same_change(a: Comparison, b: Comparison) -> bool:
    return a.change == b.change


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 1.0
    return len(a & b) / len(a | b)
