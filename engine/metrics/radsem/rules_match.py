"""RadSEM stage 2 without a model: pair Ref and Gen sentences and tag the pairs.

The pairing rule is the reader's (``radscope.engine.reader.pair.pairing``, which the reader's
alignment shares): two sentences may pair only when both can be true together and the
similarity gates pass; a similarity function (injected: lexical here, the bundled sentence
encoder in production) decides who pairs with whom, one to one first, then extra pairs for
sentences left over whose best compatible partner is very similar. This module tags the pairs.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from radscope.engine.metrics.radsem.schema import RadsemPair, RadsemTags, UnmatchedSentence
from radscope.engine.reader.attributes.place import NORMAL, SentenceFeatures, stem
from radscope.engine.reader.pair.compatibility import MatchSettings, SimilarityFn, anatomical_relationship
from radscope.engine.reader.pair.pairing import pair_sentences
from radscope.engine.reader.text.anatomy import anatomy_lexicon


@lru_cache(maxsize=100000)
def _stems(words: frozenset[str]) -> frozenset[str]:
    """The stemmed words of the matched finding phrases: "compressing" and "compressed", or
    "wall thickened" and "thickened", name the same abnormality."""
    return frozenset(stem(w) for phrase in words for w in phrase.split())


def _relation(x: frozenset[str], y: frozenset[str]) -> str | None:
    if not x or not y:
        return None
    return "equivalent" if x & y else "part-whole"


def _asserted_relation(x: frozenset[str], y: frozenset[str]) -> str:
    """Two abnormal statements' findings: the same words, other words (part-whole), or none on
    either side (equivalent: neither names its finding). One that names none ("the trunk is 40 mm",
    "the silhouette is in the supine position") against one that does ("stenosis") is the
    general against the particular: part-whole, not the same finding."""
    if not x and not y:
        return "equivalent"
    return "equivalent" if x & y else "part-whole"


def details_relationship(a: SentenceFeatures, b: SentenceFeatures) -> str:
    """Compare detail words (size, severity, morphology, density, acuity, hedging, numbers).
    Two statements that grade the finding apart ("mild" / "severe"), or of which one hedges it and
    the other does not, share no detail of its severity or certainty, whatever else they share:
    "none", as the spec's details that disagree."""
    x, y = _counted(a, b), _counted(b, a)
    if ("size" in x) != ("size" in y):
        x, y = x - {"size"}, y - {"size"}
    if not x and not y:
        return "equivalent"
    if not x or not y or _graded_apart(x, y):
        return "none"
    x, y = _stems(x), _stems(y)  # "cavity" / "cavities"
    if bool(x & _HEDGE_STEMS) != bool(y & _HEDGE_STEMS):
        return "none"
    shared = x & y
    if shared == x == y:
        return "equivalent"
    return "partial" if shared else "none"


# The stems of radsem.json's hedge detail words ("possibly", "likely", "suspicious", ...)
_HEDGE_STEMS = frozenset(("possibl", "like", "probabl", "suspici", "suggest", "presum", "worrisom", "consid"))
# The severity grades of radsem.json's detail words: low, moderate, high
_GRADES = {"minimal": 0, "mild": 0, "tiny": 0, "small": 0, "moderate": 1,
           "marked": 2, "severe": 2, "extensive": 2, "massive": 2, "large": 2}


def _graded_apart(x: frozenset[str], y: frozenset[str]) -> bool:
    """A grade only one statement gives against another grade only the other gives: "mild
    swelling ... a small hematoma" / "severe swelling ... a small hematoma" (the shared "small"
    grades the hematoma); "small to moderate" / "moderate" is no such pair."""
    only_x = {_GRADES[w] for w in x - y if w in _GRADES}
    only_y = {_GRADES[w] for w in y - x if w in _GRADES}
    return bool(only_x and only_y and not only_x & only_y)


# words that count a finding: beside one of them a plural says nothing more ("a few nodules")
_COUNT_WORDS = frozenset({"multiple", "single", "solitary", "few"})
# a countable finding named in the plural: more than one of it
_PLURAL_FINDING_RE = re.compile(
    r"\b(?:(?:lymph )?nodes|nodules|lesions|opacities|foci|cysts|masses|deposits|shadows|densities|calcifications"
    r"|stones|calculi|polyps|metastases|plaques|infiltrates|fractures|lacunes|infarcts|bullae|blebs|varices"
    r"|diverticula|osteophytes|hemangiomas|fibroids|septations|patches|spots|strands|bands|lines|areas)\b")


def _counted(this: SentenceFeatures, other: SentenceFeatures) -> frozenset[str]:
    """A statement's details, with "multiple" where it names its finding in the plural and
    counts it no other way, when the other statement's "multiple" is the count it is compared
    with: "Multiple left pulmonary nodules" and "the pulmonary nodules in the left lung", or
    "multiple enlarged lymph node shadows" and "enlarged lymph nodes", count alike."""
    if "multiple" not in other.details or this.details & _COUNT_WORDS \
            or not _PLURAL_FINDING_RE.search(this.text.lower()):
        return this.details
    return this.details | {"multiple"}


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
            else _asserted_relation(_stems(ref.core), _stems(gen.core))),
        negated_abnormality_relationship=_relation(ref.negated, gen.negated),
        details_of_abnormality_relationship=None if normal else details_relationship(ref, gen))


def match(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
          similarity: SimilarityFn, settings: MatchSettings = MatchSettings()) -> RadsemTags:
    """Pair the two sentence lists (``reader.pairing``) and return the stage-2 tags."""
    if not ref or not gen:
        return RadsemTags(pairs=[], unmatched_sentences=_unmatched(ref, gen, set(), set()))
    pairs = pair_sentences(ref, gen, np.asarray(similarity(ref, gen), dtype=float), settings)
    used_ref = {i for i, _ in pairs}
    used_gen = {j for _, j in pairs}
    return RadsemTags(pairs=[tag_pair(ref[i], gen[j]) for i, j in pairs],
                      unmatched_sentences=_unmatched(ref, gen, used_ref, used_gen))


def _unmatched(ref: Sequence[SentenceFeatures], gen: Sequence[SentenceFeatures],
               used_ref: set[int], used_gen: set[int]) -> list[UnmatchedSentence]:
    out = [UnmatchedSentence("Ref", f.text, f.normality) for i, f in enumerate(ref)
           if i not in used_ref]
    out += [UnmatchedSentence("Gen", f.text, f.normality) for j, f in enumerate(gen)
            if j not in used_gen]
    return out
