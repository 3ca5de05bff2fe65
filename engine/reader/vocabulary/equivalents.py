"""What means the same across modalities, read as one form (the lexicon ``equivalents.json``).

Radiologists write one finding in the words of their modality and habit: "low signal on T1WI",
"T1 hypointense" and "long T1 signal" are one MR reading; "low attenuation" and "hypodense" one
CT reading; "echo-poor" and "hypoechoic" one ultrasound reading; "plates and screws in good
position" and "fixation hardware in satisfactory position" one postoperative statement. Each
family of the lexicon (MR signal, CT density, ultrasound echo, nuclear uptake, hardware, spine,
anatomy, normal-study phrases) rewrites its forms into one, so that a finding read from any of
them gives the same frame. The rewrites run in the lexicon's order on the lower-cased sentence
(after ``wording.normalise``) and before ``radsem.json``'s canonical spellings; an empty
replacement removes technique context ("after contrast administration"), as a prior-study
mention is removed. Data, not code: adding a form is a line in the lexicon and an example.
"""
from __future__ import annotations

import functools
import re

from radscope.engine.reader.vocabulary.loader import Rewrites, load


@functools.lru_cache(maxsize=1)
def _rewrites() -> Rewrites:
    """Every family's rewrites, in the lexicon's order, each anchored on word boundaries."""
    families = load("equivalents")["families"]
    return Rewrites([(re.compile(rf"\b(?:{pattern})\b"), written)
                     for family in families.values() for pattern, written in family["rewrites"]])


def families() -> dict[str, dict[str, object]]:
    """The lexicon's families by name (``about``, ``rewrites``, ``examples``)."""
    return dict(load("equivalents")["families"])


def read_equivalents(lowered: str) -> str:
    """A lower-case sentence with every modality's equivalent forms written one way."""
    return _rewrites().apply(lowered)


@functools.lru_cache(maxsize=1)
def appearance_words() -> frozenset[str]:
    """Words that say how a finding looks or was imaged and never name a finding or a site
    (the lexicon's ``appearance``): a sentence of these alone describes the finding before it."""
    return frozenset(load("equivalents")["appearance"]["words"])


@functools.lru_cache(maxsize=1)
def kind_words() -> frozenset[str]:
    """Words that name a kind of finding by its shape or make-up (the lexicon's ``kinds``): a
    list of them before one plural noun names one finding per kind."""
    return frozenset(load("equivalents")["kinds"]["words"])


@functools.lru_cache(maxsize=1)
def position_pairs() -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    """The lexicon's opposite places within one organ (``positions``), each side one pattern."""
    return tuple((re.compile(rf"\b(?:{first})\b"), re.compile(rf"\b(?:{second})\b"))
                 for first, second in load("equivalents")["positions"]["pairs"])
