"""RadSEM stage 2 without a model: pair Ref and Gen sentences and tag the pairs.

Two sentences may pair only when the reader finds them compatible
(``radscope.engine.reader.compatibility.conflict``: both can be true together). Among the compatible pairs, a
similarity function (injected: lexical here, the bundled sentence encoder in production)
decides who pairs with whom: first a one-to-one assignment that maximises total similarity,
then extra pairs for sentences left over whose best compatible partner is very similar (one
report may say in two sentences what the other says in one).
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from radscope.engine.metrics.radsem.schema import RadsemPair, RadsemTags, UnmatchedSentence
from radscope.engine.reader.anatomy_lexicon import anatomy_lexicon
from radscope.engine.reader.compatibility import (
    MatchSettings,
    SimilarityFn,
    anatomical_relationship,
    conflict,
    containment,
)
from radscope.engine.reader.sentence_features import NORMAL, SentenceFeatures, stem


@lru_cache(maxsize=100000)
def _stems(words: frozenset[str]) -> frozenset[str]:
    """The stemmed words of the matched finding phrases: "compressing" and "compressed", or
    "wall thickened" and "thickened", name the same abnormality."""
    return frozenset(stem(w) for phrase in words for w in phrase.split())


def _relation(x: frozenset[str], y: frozenset[str]) -> str | None:
    if not x or not y:
        return None
    return "equivalent" if x & y else "part-whole"


def details_relationship(a: SentenceFeatures, b: SentenceFeatures) -> str:
    """Compare detail words (size, severity, morphology, density, acuity, hedging, numbers)."""
    if not a.details and not b.details:
        return "equivalent"
    if not a.details or not b.details:
        return "none"
    x, y = _stems(a.details), _stems(b.details)  # "cavity" / "cavities"
    shared = x & y
    if shared == x == y:
        return "equivalent"
    return "partial" if shared else "none"


@lru_cache(maxsize=1)
def _change_pair() -> int:
    """Which of the lexicon's opposite-direction pairs is the change in size or amount
    (enlarged / increased / dilated / thickened vs reduced / decreased / narrowed)."""
    return next(i for i, (grow, _) in enumerate(anatomy_lexicon().directions)
                if grow.search("enlarged"))


def _same_change(a: SentenceFeatures, b: SentenceFeatures) -> bool:
    """Both state the same one-way change in size or amount in other words ("the ventricles are
    enlarged" / "ventricular dilatation", "decreased" / "reduced"): the same abnormality."""
    x, y = a.directions[_change_pair()], b.directions[_change_pair()]
    return x == y and x in (1, 2)


def tag_pair(ref: SentenceFeatures, gen: SentenceFeatures) -> RadsemPair:
    normal = ref.normality == NORMAL
    return RadsemPair(
        ref_sentence=ref.text, gen_sentence=gen.text, normality=ref.normality,
        anatomical_relationship=anatomical_relationship(ref, gen) or "part-whole",
        asserted_abnormality_relationship=None if normal else (
            "equivalent" if _same_change(ref, gen)
            else _relation(_stems(ref.core), _stems(gen.core)) or "equivalent"),
        negated_abnormality_relationship=_relation(ref.negated, gen.negated),
        details_of_abnormality_relationship=None if normal else details_relationship(ref, gen))


def _plain_normal(f: SentenceFeatures) -> bool:
    """"<site> is normal": a normal statement about a named site that denies nothing and says
    little else ("heart size is normal", "mediastinal contours are unremarkable")."""
    return f.normality == NORMAL and bool(f.sites) and not f.negated and len(f.asserted) <= 2


def match(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
          similarity: SimilarityFn, settings: MatchSettings = MatchSettings()) -> RadsemTags:
    """Pair the two sentence lists and return the stage-2 tags."""
    if not ref or not gen:
        return RadsemTags(pairs=[], unmatched_sentences=_unmatched(ref, gen, set(), set()))
    score = _pair_scores(ref, gen, np.asarray(similarity(ref, gen), dtype=float), settings)
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(score, maximize=True)
    chosen = [(i, j) for i, j in zip(rows, cols, strict=True) if score[i, j] >= settings.pair_threshold]
    extras = _extra_pairs(ref, gen, score, chosen, settings)
    pairs = sorted(set(chosen) | set(extras))
    used_ref = {i for i, _ in pairs}
    used_gen = {j for _, j in pairs}
    return RadsemTags(pairs=[tag_pair(ref[i], gen[j]) for i, j in pairs],
                      unmatched_sentences=_unmatched(ref, gen, used_ref, used_gen))


def _pair_scores(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
                 sim: np.ndarray, settings: MatchSettings) -> np.ndarray:
    """The similarity of every (ref, gen) pair that may pair, -1 for those that may not: a
    conflict, an abnormal pair without a shared finding, or one site-less side, unless the
    wording is near-identical. Two plain normal statements about related sites get at least
    ``normal_site_similarity``. ``sim`` is raised in place by that floor."""
    allowed = np.array([[conflict(r, g) is None for g in gen] for r in ref], dtype=bool)
    if settings.normal_site_similarity is not None:
        floor = settings.normal_site_similarity
        for i, r in enumerate(ref):
            for j, g in enumerate(gen):
                if allowed[i, j] and _plain_normal(r) and _plain_normal(g) \
                        and anatomical_relationship(r, g) == "part-whole":
                    sim[i, j] = max(sim[i, j], floor)
    score = np.where(allowed, sim, -1.0)
    # Abnormal sentences pair on a shared finding; without one only near-identical wording may.
    for i, r in enumerate(ref):
        for j, g in enumerate(gen):
            if allowed[i, j] and _gated(r, g, sim[i, j], settings):
                score[i, j] = -1.0
    return score


def _gated(r: SentenceFeatures, g: SentenceFeatures, sim: float, settings: MatchSettings) -> bool:
    """Whether a compatible pair is still kept apart: abnormal without a shared finding, or
    one side site-less, each unless the two are similar enough."""
    no_shared_finding = r.normality != NORMAL and not (r.asserted & g.asserted) \
        and sim < settings.extra_threshold
    one_siteless = bool(r.sites) != bool(g.sites) and sim < settings.siteless_threshold
    return no_shared_finding or one_siteless


def _extra_pairs(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
                 score: np.ndarray, chosen: list[tuple[int, int]],
                 settings: MatchSettings) -> list[tuple[int, int]]:
    """Pairs for the sentences the assignment left over, each with its best partner when that
    is similar enough (``extra_threshold``; a sentence mostly contained in a longer compatible
    one counts as similar enough when ``extra_containment`` is set)."""
    paired_ref = {i for i, _ in chosen}
    paired_gen = {j for _, j in chosen}
    extra_score = score
    if settings.extra_containment is not None:
        contained = containment(ref, gen)
        extra_score = np.where((score >= 0) & (contained >= settings.extra_containment),
                               np.maximum(score, settings.extra_threshold), score)
    extras = []
    for i in range(len(ref)):
        if i not in paired_ref:
            j = int(np.argmax(extra_score[i]))
            if extra_score[i, j] >= settings.extra_threshold:
                extras.append((i, j))
    for j in range(len(gen)):
        if j not in paired_gen:
            i = int(np.argmax(extra_score[:, j]))
            if extra_score[i, j] >= settings.extra_threshold:
                extras.append((i, j))
    return extras


def _unmatched(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
               used_ref: set[int], used_gen: set[int]) -> list[UnmatchedSentence]:
    out = [UnmatchedSentence("Ref", f.text, f.normality) for i, f in enumerate(ref)
           if i not in used_ref]
    out += [UnmatchedSentence("Gen", f.text, f.normality) for j, f in enumerate(gen)
            if j not in used_gen]
    return out
