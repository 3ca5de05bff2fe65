"""Which sentences of two reports pair: RadSEM's pairing rule, written once for the RadSEM
matcher (``metrics.radsem.rules_match``) and the reader's alignment (``align``).

Three steps. ``pairable``: a pair may pair only when ``compatibility.incompatibility_reason``
finds nothing against it and its similarity gates pass (an abnormal pair needs a shared finding,
and a pair where one side names no site more similarity, unless the wording is near-identical).
``one_to_one``: the assignment that maximises total similarity, kept where similar enough.
``extra_pairs``: a sentence the assignment left over pairs with its best pairable partner when
that is very similar, or names a finding that partner, already paired, names too (one report may
say in two sentences what the other says in one).

A statement the other report denies (``compatibility.denies``: "no patchy opacities in the left
lung" against "patchy opacities in the left lung") pairs only with one that states the denied
finding too (``denied_elsewhere``), in both.

The alignment extends the rule, through parameters the matcher leaves at their defaults: it
also links conflicting statements of one finding (``also``) so that the conflicts can be named,
with a bonus for pairable pairs (``bonus``), and it keeps a statement the other report
contradicts out of the extra pairs (``may_extend_ref`` / ``may_extend_gen``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from radscope.engine.reader.attributes.place import NORMAL, SentenceFeatures, stem
from radscope.engine.reader.pair.compatibility import (
    MatchSettings,
    anatomical_relationship,
    containment,
    denied_words,
    denies,
    incompatibility_reason,
    may_deny,
)
from radscope.engine.reader.text.atoms import ELSEWHERE_RE, ELSEWHERE_WORDS
from radscope.engine.reader.vocabulary.equivalents import appearance_words, kind_words

Pairs = list[tuple[int, int]]


def pairable(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures], sim: np.ndarray,
             settings: MatchSettings) -> tuple[np.ndarray, np.ndarray]:
    """Which (ref, gen) pairs may pair, and the similarity the gates read: ``sim`` raised to
    ``normal_site_similarity`` for two plain normal statements about related sites (a copy;
    ``sim`` itself when that setting is None)."""
    allowed = np.array([[incompatibility_reason(r, g) is None for g in gen] for r in ref],
                       dtype=bool).reshape(len(ref), len(gen))
    if settings.normal_site_similarity is not None:
        sim = _normal_site_floor(ref, gen, sim.copy(), allowed, settings.normal_site_similarity)
    for i, r in enumerate(ref):
        for j, g in enumerate(gen):
            if allowed[i, j] and _gated(r, g, float(sim[i, j]), settings):
                allowed[i, j] = False
    return allowed, sim


def _normal_site_floor(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
                       sim: np.ndarray, allowed: np.ndarray, floor: float) -> np.ndarray:
    # each statement's kind once, not once per pair: the loop below runs for every pair
    plain_ref, plain_gen = [_plain_normal(r) for r in ref], [_plain_normal(g) for g in gen]
    denial_ref, denial_gen = [_denial_at_a_place(r) for r in ref], [_denial_at_a_place(g) for g in gen]
    rest_ref, rest_gen = [_the_rest_normal(r) for r in ref], [_the_rest_normal(g) for g in gen]
    for i, r in enumerate(ref):
        for j, g in enumerate(gen):
            if allowed[i, j] and ((plain_ref[i] and plain_gen[j] and anatomical_relationship(r, g) is not None)
                                  or (denial_ref[i] and denial_gen[j] and _same_denial(r, g))
                                  or (rest_ref[i] and rest_gen[j] and r.sites == g.sites)):
                sim[i, j] = max(sim[i, j], floor)
    return sim


# What a denial of any abnormality of a site's appearance denies ("no abnormal signal", "no
# abnormality", "no abnormal density or morphology"), as stems
_BLANKET_DENIED = frozenset({"abnorm", "signal", "intens", "opac", "echo", "attenu", "morpholog", "mark"})


def _denial_at_a_place(f: SentenceFeatures) -> bool:
    """A normal statement that denies a finding at a place it names ("no free fluid in the pelvis")."""
    return f.normality == NORMAL and bool(f.denied_findings) and bool(f.sites)


def _same_denial(r: SentenceFeatures, g: SentenceFeatures) -> bool:
    """Two denials (``_denial_at_a_place``) of the same findings and nothing else at one place
    named two ways: "no free fluid in the pouch of Douglas" and "no free fluid at the cul-de-sac"
    differ only in how they name the place, which the site comparison has already found the same."""
    return r.denied_findings == g.denied_findings and r.negated == g.negated \
        and r.sites == g.sites and r.sides == g.sides


def _the_rest_normal(f: SentenceFeatures) -> bool:
    """"The remaining <site> are normal" however said: "no abnormality is seen in the remaining
    metacarpals" and "other metacarpals are within normal limits" say one thing of the same rest."""
    return f.normality == NORMAL and bool(f.sites) and (f.negated - _THE_REST) <= _BLANKET_DENIED \
        and ELSEWHERE_RE.search(f.canon) is not None and len(f.asserted - _BLANKET_DENIED) <= 3


# the stems of ``ELSEWHERE_RE``'s words, which a denial's reach may take in ("no abnormality in the
# remaining ...")
_THE_REST = frozenset(stem(w) for w in ELSEWHERE_WORDS)


def _plain_normal(f: SentenceFeatures) -> bool:
    """"<site> is normal": a normal statement about a named site that denies nothing but an
    abnormality of its appearance and says little else ("heart size is normal", "mediastinal
    contours are unremarkable", "no abnormal signal in the brain parenchyma")."""
    blanket = not f.negated or ("abnorm" in f.negated and f.negated <= _BLANKET_DENIED
                                 and not ELSEWHERE_RE.search(f.canon))
    return f.normality == NORMAL and bool(f.sites) and blanket and len(f.asserted - _BLANKET_DENIED) <= 2


def _gated(r: SentenceFeatures, g: SentenceFeatures, sim: float, settings: MatchSettings) -> bool:
    """Whether a compatible pair is still kept apart: abnormal without a shared finding, or
    one side site-less, each unless the two are similar enough."""
    no_shared_finding = r.normality != NORMAL and not (r.asserted & g.asserted) \
        and sim < settings.extra_threshold
    one_siteless = bool(r.sites) != bool(g.sites) and sim < settings.siteless_threshold
    return no_shared_finding or one_siteless


def one_to_one(sim: np.ndarray, allowed: np.ndarray, settings: MatchSettings, *,
               bonus: float = 0.0, also: np.ndarray | None = None) -> set[tuple[int, int]]:
    """The pairs of the assignment maximising total similarity: pairable ones at least
    ``pair_threshold`` similar, and any pair of ``also`` (pairs that may not pair yet may be
    assigned at their plain similarity; pairable ones then bid ``sim + bonus``)."""
    score = np.where(allowed, sim + bonus, -1.0)
    if also is not None:
        score = np.where(also, sim, score)
    rows, cols = linear_sum_assignment(score, maximize=True)
    return {(int(i), int(j)) for i, j in zip(rows, cols, strict=True)
            if (allowed[i, j] and sim[i, j] >= settings.pair_threshold)
            or (also is not None and also[i, j])}


def extra_pairs(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
                sim: np.ndarray, allowed: np.ndarray, chosen: set[tuple[int, int]],
                settings: MatchSettings, *, may_extend_ref: Callable[[int], bool] | None = None,
                may_extend_gen: Callable[[int], bool] | None = None) -> Pairs:
    """Pairs for the sentences ``chosen`` left over, each with its best pairable partner when
    that is similar enough (``extra_threshold``; a sentence mostly contained in a longer
    pairable one counts as similar enough when ``extra_containment`` is set). ``may_extend_*``
    say which left-over sentences may take an extra pair at all (default: every one)."""
    score = np.where(allowed, sim, -1.0)
    if settings.extra_containment is not None:
        contained = containment(ref, gen)
        score = np.where((score >= 0) & (contained >= settings.extra_containment),
                         np.maximum(score, settings.extra_threshold), score)
    paired_ref = {i for i, _ in chosen}
    paired_gen = {j for _, j in chosen}
    if settings.extra_shared_finding is not None:
        score = _one_finding_told_twice(ref, gen, score, paired_ref, paired_gen, settings)
    extras = []
    for i in range(len(ref)):
        if i not in paired_ref and (may_extend_ref is None or may_extend_ref(i)):
            j = int(np.argmax(score[i]))
            if score[i, j] >= settings.extra_threshold:
                extras.append((i, j))
    for j in range(len(gen)):
        if j not in paired_gen and (may_extend_gen is None or may_extend_gen(j)):
            i = int(np.argmax(score[:, j]))
            if score[i, j] >= settings.extra_threshold:
                extras.append((i, j))
    return extras


# Finding words that name how a finding looks or what kind it is, or name any finding at all
# ("lesion", "opacity", "enlarged"): two statements sharing only these may be two findings
_LOOKS_AND_KINDS = appearance_words() | kind_words() | frozenset({
    "lesion", "foci", "focus", "opacity", "cavity", "nodule", "mass", "increased", "decreased", "reduced",
    "enlarged", "abnormal", "signal", "thickened"})


def _one_finding_told_twice(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
                            score: np.ndarray, paired_ref: set[int], paired_gen: set[int],
                            settings: MatchSettings) -> np.ndarray:
    """``score`` with the pairs of a left-over abnormal statement and an already paired partner
    that name one finding (``MatchSettings.extra_shared_finding``) raised to the extra threshold:
    "a lucent fracture line under the femoral head" beside "cortical discontinuity of the femoral
    neck", against "a displaced subcapital fracture of the femoral neck", is one fracture told in
    two statements."""
    floor = settings.extra_shared_finding
    score = score.copy()
    for i, r in enumerate(ref):
        findings = r.core - _LOOKS_AND_KINDS
        if r.normality == NORMAL or not findings:
            continue
        for j, g in enumerate(gen):
            if score[i, j] >= floor and (i in paired_ref) != (j in paired_gen) and findings & g.core:
                score[i, j] = max(score[i, j], settings.extra_threshold)
    return score


def pair_sentences(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
                   sim: np.ndarray, settings: MatchSettings) -> Pairs:
    """RadSEM's pairing: the sorted (ref, gen) index pairs."""
    allowed, sim = pairable(ref, gen, sim, settings)
    allowed &= ~denied_elsewhere(ref, gen)
    chosen = one_to_one(sim, allowed, settings)
    return sorted(chosen | set(extra_pairs(ref, gen, sim, allowed, chosen, settings)))


def denied_elsewhere(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures]
                     ) -> np.ndarray:
    """The pairs kept apart because the other report denies what one of them states: when
    "no patchy opacities in the left lung" denies "patchy opacities in the left lung", that
    statement may pair only with one that states the patchy opacities too, not with "linear
    opacities in the left lung" beside the denial."""
    apart = np.zeros((len(ref), len(gen)), dtype=bool)
    # the deniers with the words they deny: most statements deny nothing, and a statement that
    # does not assert those words cannot be denied by it (both checked once, not per pair)
    gen_deniers = [(g, denied_words(g)) for g in gen if may_deny(g)]
    ref_deniers = [(r, denied_words(r)) for r in ref if may_deny(r)]
    for i, r in enumerate(ref):
        for g, words in gen_deniers:
            if words <= r.asserted and denies(g, r):
                apart[i] |= [not _states(o, g) for o in gen]
    for k, g in enumerate(gen):
        for r, words in ref_deniers:
            if words <= g.asserted and denies(r, g):
                apart[:, k] |= [not _states(o, r) for o in ref]
    return apart


def _states(statement: SentenceFeatures, denial: SentenceFeatures) -> bool:
    """``statement`` asserts every finding word ``denial`` denies."""
    return denied_words(denial) <= statement.asserted - statement.negated
