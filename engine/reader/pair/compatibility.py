"""When two sentences of a report pair may be read as the same statement: the reader's
compatibility rules and the similarity thresholds, which ``pairing`` applies for the reader's
alignment (``align``) and the RadSEM matcher (``metrics.radsem.rules_match``).

Two sentences are compatible only when both can be true together: same normality (or one of them
unread: abnormal only because it names nothing the lexicons know, "Neural foramina open" beside
"The foramina are patent"), no concept
asserted on one side and negated on the other (and, for abnormal sentences, no denial on one
side only: "the tip is at T6" vs "the tip does not project at T6"), no opposite direction
words, no left/right clash, no different spinal level or MRI sequence, and related anatomy
(same site, or one site containing the other, in the lexicon's site hierarchy). A normal
statement *denies* an abnormal one (``denies``) when it denies, at a place containing one of its
sites, every finding word the other asserts.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from radscope.engine.reader.attributes.change import changes_differ
from radscope.engine.reader.attributes.place import (
    ABNORMAL,
    MRI_SEQUENCES,
    NORMAL,
    SentenceFeatures,
    presence,
    sentence_features,
)
from radscope.engine.reader.attributes.size import sizes_differ
from radscope.engine.reader.text.anatomy import anatomy_lexicon, names_device
from radscope.engine.reader.text.atoms import ELSEWHERE_RE
from radscope.engine.reader.vocabulary.loader import load

SimilarityFn = Callable[[Sequence[SentenceFeatures], Sequence[SentenceFeatures]], np.ndarray]


@dataclass(frozen=True)
class MatchSettings:
    """Thresholds on the similarity scale of the injected function."""

    pair_threshold: float = 0.25  # lowest similarity for a one-to-one pair
    extra_threshold: float = 0.6  # lowest similarity for an extra (many-to-many) pair
    siteless_threshold: float = 0.45  # lowest similarity when one sentence names no site
    # Two compatible normal statements about one place or about a whole and its part ("the
    # cardiomediastinal silhouette is within normal limits" / "heart size is normal"; "no obvious
    # abnormality in the cisterns" / "basal cisterns are unremarkable") say the same thing in
    # other words, which token overlap cannot see: they count at least this similar (None:
    # wording alone decides).
    normal_site_similarity: float | None = None
    # A left-over sentence that is a piece of a longer one on the other side ("the lesion
    # measures 4 mm" out of "a 4 mm lesion in the left kidney, hypointense on T1") shares most
    # of its words with it but little of the longer one's: for the extra pairs, the share of
    # the shorter sentence's words found in the longer one counts when it reaches this (None:
    # only the similarity counts).
    extra_containment: float | None = None
    # One finding told in two statements on one side ("cortical discontinuity of the left femoral
    # neck" and "a lucent fracture line under the femoral head" against "a displaced subcapital
    # fracture of the femoral neck"): a left-over statement that names a finding (not only a look
    # or a kind) its already paired partner names too counts as similar enough for an extra pair
    # from this similarity (None: only the similarity counts).
    extra_shared_finding: float | None = None

    def to_json(self) -> dict[str, float | None]:
        return {"pair_threshold": self.pair_threshold, "extra_threshold": self.extra_threshold,
                "siteless_threshold": self.siteless_threshold,
                "normal_site_similarity": self.normal_site_similarity,
                "extra_containment": self.extra_containment,
                "extra_shared_finding": self.extra_shared_finding}


# The thresholds on the token-overlap scale (``lexical_similarity``): RadSEM's default matcher's,
# and the reader's alignment's (``align``, since reader-v21); RadSEM's encoder scales have their own
# (``metrics.radsem.rules``). Chosen on SSREE dev (bench.quality.rules): see the lexicon README.
LEXICAL_SETTINGS = MatchSettings(pair_threshold=0.35, extra_threshold=0.34, siteless_threshold=0.25,
                                 normal_site_similarity=0.5, extra_containment=0.5, extra_shared_finding=0.2)


def incompatibility_reason(a: SentenceFeatures, b: SentenceFeatures) -> str | None:
    """Why the two sentences cannot both be true (None when they can): a reason in words, where
    ``align.conflicts`` lists the categories in which two statements of one finding differ."""
    if a.normality != b.normality:
        if not ((a.unread or b.unread) and _unread_beside_normal(a, b)):
            return "normal vs abnormal"
        if anatomical_relationship(a, b) is None:  # asked first: most such pairs are of two places
            return "unrelated sites"
    # Within normal sentences every finding is denied or normal, so word-level polarity only
    # separates context words ("no spurs at the margins" vs "the margins show no spurs").
    if ABNORMAL in (a.normality, b.normality) and (polarity_clash(a, b) or one_sided_denial(a, b)):
        return "asserted vs negated"
    if a.sides and b.sides and not (a.sides & b.sides):
        return "left vs right"
    if _opposite_directions(a.directions, b.directions):
        return "opposite directions"
    if a.normality != NORMAL and _seen_and_unseen(a, b):
        return "seen vs not seen"
    if sizes_differ(a.sizes, b.sizes):
        return "different size"
    if changes_differ(a.change, b.change):
        return "different change over time"
    if levels_differ(a.levels, b.levels):
        return "different spinal level"
    if places_differ(a, b):
        return "different place in the organ"
    if a.sequences and b.sequences and not (a.sequences & b.sequences):
        return "different MRI sequence"
    if anatomical_relationship(a, b) is None:
        return "unrelated sites"
    return None


_ABSENT = frozenset({"absent"})


def _seen_and_unseen(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """Two statements naming no finding but the structure itself, one saying it is there and the
    other that it is not ("lymph nodes are visualized in the left axilla" / "... are absent", "the
    thyroid lobe is not visualized" / "... is identified"): they cannot both be true, though no
    finding word is denied on either side (the structure's name is a site, which a denial does
    not count)."""
    if (a.core - _ABSENT) or (b.core - _ABSENT):
        return False
    return {presence(a.canon), presence(b.canon)} == {1, 2}


def levels_differ(a: frozenset[str], b: frozenset[str]) -> bool:
    """Two statements name other spinal levels: disc levels ("l4-l5") compared with disc levels
    and single levels ("l5", a vertebra or a nerve root) with single ones, so that "the L4-5
    disc ... the L5 root" and "the L3-4 disc ... the L5 root" differ."""
    if not a or not b:
        return False  # the usual case, asked of every candidate pair: tested first
    spans_a, spans_b = {x for x in a if "-" in x}, {x for x in b if "-" in x}
    singles_a, singles_b = a - spans_a, b - spans_b
    if (spans_a and spans_b) or (singles_a and singles_b):
        return bool((spans_a and spans_b and not spans_a & spans_b)
                    or (singles_a and singles_b and not singles_a & singles_b))
    return bool(a and b and not a & b)


def places_differ(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """Opposite places within one organ (the anterior vs the posterior horn, the upper vs the
    lower pole), other liver segments or other numbered bones (the 4th vs the 5th finger)."""
    return bool(a.segments and b.segments and _numbers_differ(a.segments, b.segments)) \
        or _opposite_directions(a.positions, b.positions)


def _numbers_differ(a: frozenset[str], b: frozenset[str]) -> bool:
    """Some kind of numbered place both name ("s": a liver segment, "rib", "finger"), each with
    other numbers."""
    x, y = _by_kind(a), _by_kind(b)
    return any(not x[kind] & y[kind] for kind in x.keys() & y.keys())


def _by_kind(places: frozenset[str]) -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {}
    for place in places:
        kinds.setdefault(place.rstrip("0123456789"), set()).add(place)
    return kinds


# prefixes that make a word its opposite: "complete" / "incomplete", "compressible" / "noncompressible"
_OPPOSITE_PREFIXES = ("in", "im", "ir", "il", "un", "non", "dis", "ab")


def _unread_beside_normal(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """An unread statement (abnormal by default, not by a word it says) beside a normal one: the
    unread one may say the same in words the lexicons lack ("Neural foramina open" / "the foramina
    are patent"), so the two may pair, as two abnormal statements would (a denial on one side only
    still keeps them apart: "the tip is at T6" / "the tip does not project at T6"). Not when it
    says one of the normal statement's words with a prefix that turns it round ("the circle of
    Willis is incomplete" / "... is complete")."""
    unread, normal = (a, b) if a.unread else (b, a)  # the caller has seen that one is unread
    return not _turned_round(unread.tokens) & normal.tokens


@lru_cache(maxsize=20000)
def _turned_round(tokens: frozenset[str]) -> frozenset[str]:
    """The words a statement's words turn round by a prefix ("incomplet" -> "complet")."""
    return frozenset(word[len(prefix):] for word in tokens for prefix in _OPPOSITE_PREFIXES
                     if word.startswith(prefix) and len(word) > len(prefix) + 2)


def one_sided_denial(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """One statement denies something and the other denies nothing ("the tip does not project
    at T6" / "the tip is at T6"), unless what it denies is a finding the other does not state:
    "mild pleural thickening without effusion" still states the thickening of "mild thickening of
    the pleura", and "a disc bulge without nerve root compression" the bulge of "mild disc
    bulge" (the denied finding's place, "nerve root", is no finding of the other's); nor when it
    denies only what its finding does not show and the other does not say it shows: "a hypoechoic
    mass with no internal flow" states the mass of "a hypoechoic mass"."""
    if bool(a.negated) == bool(b.negated):
        return False
    denier, other = (a, b) if a.negated else (b, a)
    if not denier.denied_findings:
        # denying only what its finding does not show ("no detectable internal flow") still states
        # it, and so does denying what no lexicon names beside a finding both state ("a fracture
        # of the C7 transverse process, not involving the foramen" / "a C7 transverse process
        # fracture"); a device's is where it lies ("the catheter does not reach the atrium")
        denied = denier.negated - denial_hedge_stems()
        if denied & other.asserted:
            return True
        return not (denied <= denied_detail_stems() or _denies_only_its_reach(denier, other))
    # a finding the denier states as well, with a word that tells the two apart, is denied only in
    # that word: "thin linear enhancement, without nodular enhancement" denies the nodular kind
    # and states the enhancement of "thin linear enhancement" ("the cavity ..., as no cavity is
    # present" denies it whole)
    denied = (denier.denied_findings - denier.asserted) or denier.denied_findings
    return bool(_denied(other.asserted, denied, denier.negated))


_DENIAL_START_RE = re.compile(r"\b(?:no|not|without|nor)\b")


def _denies_only_its_reach(denier: SentenceFeatures, other: SentenceFeatures) -> bool:
    """Whether ``denier``, before its denial begins, states a finding (not a device) of
    ``other``'s at ``other``'s places, and then denies no normal word: "a fracture through the
    left C7 transverse process, not involving the transverse foramen" says where the fracture
    does not reach, beside "C7, left: transverse process fracture"; "bronchiectasis does not
    involve the lingular segment" denies it at the other's place, and "a drain is not in place"
    says where a device lies."""
    lex = anatomy_lexicon()
    shared = [w for w in denier.core & other.core if lex.devices.search(w) is None]
    m = _DENIAL_START_RE.search(denier.canon) if shared else None
    if m is None or lex.normal.search(denier.canon[m.start():]):
        return False  # the cheap tests first: the statement read again only when they pass
    before = sentence_features(denier.canon[:m.start()])
    return not before.core.isdisjoint(shared) and other.sites <= before.sites


@lru_cache(maxsize=1)
def generic_stems() -> frozenset[str]:
    """Stemmed words too generic to make two statements one finding ("size", "normal", ...)."""
    return frozenset(load("alignment")["generic_stems"])


@lru_cache(maxsize=1)
def denied_detail_stems() -> frozenset[str]:
    """Stemmed words of what a finding may be said not to show ("flow", "enhancement", ...)."""
    return frozenset(load("alignment")["denied_detail_stems"])


@lru_cache(maxsize=1)
def denial_hedge_stems() -> frozenset[str]:
    """Stemmed words a denial of such a detail may carry besides it ("detectable", "obvious")."""
    return frozenset(load("alignment")["denial_hedge_stems"])


def denies(denier: SentenceFeatures, other: SentenceFeatures) -> bool:
    """A normal statement denies, at the other's place, every finding word an abnormal statement
    asserts: "no hypodense lesions in the liver" against "the liver is heterogeneous with
    multiple hypodense lesions", or "no patchy opacities in the left lung" against "patchy
    opacities in the left lung". The two cannot both be true, whatever else either says. Both
    must name the place, the finding's within the denied one: "no enhancement" alone may be
    about another lesion."""
    return other.normality != NORMAL and may_deny(denier) \
        and denied_words(denier) <= other.asserted - other.negated \
        and (_within(other.sites, denier.sites) if denier.sites else _same_device(denier, other)) \
        and same_place(denier, other)


def may_deny(denier: SentenceFeatures) -> bool:
    """A normal statement that names its place and denies a finding word, not "other" or
    "remaining" things: what ``denies`` asks first of the denier alone. A device is a place of
    its own: "no loosening of the fixation hardware" denies the loosening of that hardware
    wherever the other statement puts it."""
    return denier.normality == NORMAL and (bool(denier.sites) or names_device(denier.canon)) \
        and bool(denied_words(denier)) and not ELSEWHERE_RE.search(denier.canon)


def denied_words(denier: SentenceFeatures) -> frozenset[str]:
    """The finding words a statement only denies, beyond generic ones; for a denial whose place
    is a device, the findings it denies of it (the loosening, not the hardware)."""
    words = denier.negated - denier.asserted - generic_stems()
    if not denier.sites and denier.denied_findings and names_device(denier.canon):
        return words & denier.denied_findings
    return words


def _same_device(denier: SentenceFeatures, other: SentenceFeatures) -> bool:
    """The other statement names the device the denial is about ("loosening of the hardware"
    against "no loosening of the fixation hardware")."""
    return bool((denier.negated - denier.denied_findings) & other.asserted)


def _within(sites: frozenset[str], area: frozenset[str]) -> bool:
    """Some site lies in the area: the same site or a part of one of its sites ("a lesion in
    segment 7" lies in "the liver", "nodules in the middle and lower lobes" partly in "the
    middle lobe"; "nodules in the right lung" do not lie in "the right upper lobe", so "no
    nodule in the right upper lobe" denies none of them)."""
    lex = anatomy_lexicon()
    return any(s == a or a in lex.ancestors(s) for s in sites for a in area)


def same_place(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """No other side, spinal level, place in the organ or MRI sequence, and related sites."""
    return not (a.sides and b.sides and not a.sides & b.sides) \
        and not levels_differ(a.levels, b.levels) and not places_differ(a, b) \
        and not (a.sequences and b.sequences and not a.sequences & b.sequences) \
        and anatomical_relationship(a, b) is not None


def polarity_clash(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """A concept one sentence only asserts and the other only denies. A word a sentence both
    asserts and denies ("mural enhancement, without stratified mural enhancement"; "seen on the
    frontal view, not identified on the lateral view") says nothing either way, or a sentence
    would contradict its own copy."""
    return bool(_denied(a.asserted - a.negated, b.negated - b.asserted)
                or _denied(b.asserted - b.negated, a.negated - a.asserted))


def _denied(asserted: frozenset[str], denied: frozenset[str],
            denial: frozenset[str] | None = None) -> frozenset[str]:
    """What one statement asserts and the other denies, less a signal said of other MRI
    sequences on each side (``denial``: the words the denying statement denies, where they are
    more than ``denied``)."""
    shared = asserted & denied - _PLACE_WORDS
    if shared & _SIGNAL_STEMS:  # rarely: the sequences are looked at only then
        shared -= _of_other_sequences(asserted, denied if denial is None else denial)
    return shared


# Words of a place that its site's name leaves over ("the subcortical white matter of the left
# frontal lobe" is the site "frontal lobe"): where a finding is, so no finding either side denies
# ("foci without restricted diffusion in the subcortical white matter of the left frontal lobe"
# reaches over them, "foci, without restricted diffusion, lie in ..." does not)
_PLACE_WORDS = frozenset({"lobe", "subcort", "region"})


# A signal word names a look on the sequences it is said of: "T2 hyperintense" and "no restricted
# diffusion" (read "no DWI hyperintense and ADC hypointense") say nothing against each other.
_SIGNAL_STEMS = frozenset({"hyperintens", "hypointens", "isointens"})


def _of_other_sequences(asserted: frozenset[str], denied: frozenset[str]) -> frozenset[str]:
    """The signal words to leave out of a clash when both sides name MRI sequences and no
    sequence is on both: the signal is asserted on some sequences and denied on others."""
    said, unsaid = asserted & MRI_SEQUENCES, denied & MRI_SEQUENCES
    return _SIGNAL_STEMS if said and unsaid and not said & unsaid else frozenset()


def _opposite_directions(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Some direction pair read as its first side on one side and its second on the other
    (1 and 2: the only two values among 0-3 whose product is 2). Equal tuples, or one side
    without a one-sided direction, cannot be opposite: checked first, in C, as most are."""
    return a != b and (1 in a or 2 in a) and (1 in b or 2 in b) \
        and any(x * y == 2 for x, y in zip(a, b, strict=True))


def anatomical_relationship(a: SentenceFeatures, b: SentenceFeatures) -> str | None:
    """"equivalent", "part-whole", or None when the sites are unrelated."""
    relation = _site_relation(a.sites, b.sites)
    if relation is None and not (_BARE_PART_PLACES.isdisjoint(a.sites) and _BARE_PART_PLACES.isdisjoint(b.sites)) \
            and (_part_of_the_others_site(a, b) or _part_of_the_others_site(b, a)):
        return "part-whole"  # asked only of the few statements placed by a bare part noun
    return relation


# The sites a bare part noun names when nothing says whose part it is, with that noun: "no neck
# fracture" in a hip radiograph, "head and body unremarkable" under the pancreas, "right apex
# crowded" in an orbit CT (radsem.json "bare_part_sites")
_BARE_PART_SITES: dict[str, str] = load("radsem")["bare_part_sites"]["sites"]
_BARE_PART_PLACES = frozenset(_BARE_PART_SITES)


def _part_of_the_others_site(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """Whether ``a``'s one place is a bare part noun that ``b`` names as a part of its own site
    ("the femoral neck", "the pancreatic head", "the orbital apex")."""
    word = _BARE_PART_SITES.get(next(iter(a.sites))) if len(a.sites) == 1 else None
    return word is not None and word in b.tokens


@lru_cache(maxsize=100000)
def _site_relation(a_sites: frozenset[str], b_sites: frozenset[str]) -> str | None:
    # The same site, or one of the sites the other lists ("lesions in the frontal lobe and the
    # basal ganglia" / "a lesion in the basal ganglia": a list written out, not a part).
    if not a_sites or not b_sites or a_sites <= b_sites or b_sites <= a_sites:
        return "equivalent"
    lex = anatomy_lexicon()

    def covered(xs: frozenset[str], ys: frozenset[str]) -> bool:
        return all(any(lex.related(x, y) for y in ys) for x in xs)

    if covered(a_sites, b_sites) or covered(b_sites, a_sites):
        return "part-whole"
    return None


# --------------------------------------------------------------------------- similarities


def lexical_similarity(ref: Sequence[SentenceFeatures],
                       gen: Sequence[SentenceFeatures]) -> np.ndarray:
    """Dice coefficient of the stemmed content tokens of every Ref x Gen sentence pair."""
    out = np.zeros((len(ref), len(gen)))
    for i, r in enumerate(ref):
        for j, g in enumerate(gen):
            total = len(r.tokens) + len(g.tokens)
            out[i, j] = 2 * len(r.tokens & g.tokens) / total if total else 0.0
    return out


def containment(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures]) -> np.ndarray:
    """Share of the shorter sentence's stemmed content tokens found in the longer one."""
    out = np.zeros((len(ref), len(gen)))
    for i, r in enumerate(ref):
        for j, g in enumerate(gen):
            shorter = min(len(r.tokens), len(g.tokens))
            out[i, j] = len(r.tokens & g.tokens) / shorter if shorter else 0.0
    return out
