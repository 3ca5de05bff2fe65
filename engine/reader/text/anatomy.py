"""The reader's anatomy and finding vocabulary (the lexicon file ``radsem.json``, named after
the metric it was first written for), compiled once into regular expressions; every rules view
reads it, not RadSEM's alone.

Anatomy, canonical spellings, normal / abnormal vocabulary, opposite directions and the
phrases stage 1 removes are data (reviewed in engine/data/lexicons/README.md); this module
only turns them into patterns and answers "which sites are related".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from radscope.engine.reader.text.wording import normalise
from radscope.engine.reader.vocabulary.alternation import (
    Alternation,
    AlternationSet,
    RemovalSequence,
    RemovalStep,
)
from radscope.engine.reader.vocabulary.equivalents import read_equivalents
from radscope.engine.reader.vocabulary.loader import Rewrites, StartIndex, load, word_regex

TOKEN_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)*")  # a content word of canonical text


@dataclass(frozen=True, eq=False)
class AnatomyLexicon:
    canonical: tuple[tuple[re.Pattern[str], str], ...]
    site_patterns: tuple[tuple[str, re.Pattern[str]], ...]
    site_parent: dict[str, tuple[str, ...]]  # a malleolus is part of the ankle and of its bone
    paired_plural: Alternation
    paired_singular: dict[str, str]
    bilateral: Alternation
    normal: Alternation
    abnormal: Alternation
    neutral: Alternation
    devices: Alternation
    directions: tuple[tuple[Alternation, Alternation], ...]
    # both sides of every pair, in order (pair k: 2k and 2k + 1): which of them may match a text
    direction_sides: AlternationSet
    details: Alternation
    remove: tuple[RemovalStep, ...]
    drop: Alternation

    def ancestors(self, site: str) -> list[str]:
        """Every site that contains ``site``, its parents before theirs."""
        chain: list[str] = []
        todo = list(self.site_parent.get(site, ()))
        while todo:
            parent = todo.pop(0)
            if parent not in chain:
                chain.append(parent)
                todo.extend(self.site_parent.get(parent, ()))
        return chain

    def related(self, a: str, b: str) -> bool:
        """Same site, or one contains the other."""
        return a == b or _related(self, a, b)


@cache
def _related(lex: AnatomyLexicon, a: str, b: str) -> bool:
    return a in lex.ancestors(b) or b in lex.ancestors(a)


def _plural(term: str) -> str:
    """Let a site term ending in a letter also match its plural ("ventricle" -> "ventricles")."""
    return f"{term}(?:e?s)?" if term[-1:].isalpha() else term


def _parents(parent: str | list[str] | None) -> tuple[str, ...]:
    """A site's parent as the lexicon writes it: none, one, or a list of them."""
    return () if parent is None else (parent,) if isinstance(parent, str) else tuple(parent)


@lru_cache(maxsize=1)
def anatomy_lexicon() -> AnatomyLexicon:
    data = load("radsem")
    sites = {k: v for k, v in data["sites"].items() if not k.startswith("_")}
    plurals = {k: v for k, v in data["paired_plurals"].items() if not k.startswith("_")}
    return AnatomyLexicon(
        canonical=tuple((word_regex([pattern]), word) for pattern, word in data["canonical"]),
        site_patterns=tuple((site, word_regex([_plural(t) for t in terms]))
                            for site, (_, terms) in sites.items() if terms),
        site_parent={site: _parents(parent) for site, (parent, _) in sites.items()},
        paired_plural=Alternation(list(plurals)),
        paired_singular=plurals,
        bilateral=Alternation(data["bilateral"]["patterns"]),
        normal=Alternation(data["normal_terms"]),
        abnormal=Alternation(data["abnormal_terms"]),
        neutral=Alternation(data["neutral_terms"]),
        devices=Alternation(data["devices"]),
        directions=tuple((Alternation(a), Alternation(b)) for a, b in data["directions"]["pairs"]),
        direction_sides=AlternationSet([Alternation(side) for pair in data["directions"]["pairs"]
                                        for side in pair]),
        details=Alternation(data["details"]),
        remove=RemovalSequence(data["remove_phrases"]).steps,
        drop=Alternation(data["drop_sentence"]),
    )


@lru_cache(maxsize=1)
def _canonical_spellings() -> Rewrites:
    """The synonym substitutions, each run only where it may match (``loader.Rewrites``)."""
    return Rewrites(anatomy_lexicon().canonical)


@lru_cache(maxsize=1)
def _site_index() -> StartIndex:
    """The site patterns indexed by their ``literal_starts``; every pattern always runs when a
    substitution writes something other than lower-case ASCII (the trigram test would then be
    inexact on the text it leaves)."""
    return StartIndex([p for _, p in anatomy_lexicon().site_patterns], _canonical_spellings().exact)


@lru_cache(maxsize=50000)  # per text: a sentence's place, state and finding tests each ask for it
def canonical_text(text: str) -> str:
    """Lower-case text with synonyms folded onto one spelling ("hepatic" -> "liver"), after the
    words every reader reads alike (``wording.normalise``: a no-op on a sentence already read
    through it, so any caller gets the same reading) and each modality's equivalent forms
    (``equivalents``: "low signal on T1WI" and "T1 hypointense" are one reading)."""
    out = read_equivalents(normalise(text).lower().replace("\u00d7", " x "))  # "\u00d7": the multiplication sign
    return re.sub(r"\s+", " ", _canonical_spellings().apply(out)).strip()


def site_mentions(canon: str) -> list[tuple[str, re.Pattern[str]]]:
    """The site patterns that may match the canonical text (all of them unless it is
    lower-case ASCII), in lexicon order."""
    sites = anatomy_lexicon().site_patterns
    if not canon.isascii() or canon != canon.lower():
        return list(sites)
    return [sites[i] for i in _site_index().candidates(canon)]


def names_site(text: str) -> bool:
    """Whether the text names a site the reader knows."""
    canon = canonical_text(text)
    return any(pattern.search(canon) for _, pattern in site_mentions(canon))


def names_finding(text: str) -> bool:
    """Whether the text names an abnormality or a device the reader knows."""
    canon = canonical_text(text)
    return anatomy_lexicon().abnormal.search(canon) is not None or names_device(canon)


@lru_cache(maxsize=100000)  # per statement: the pair's compatibility tests ask it of each statement again
def names_device(canon: str) -> bool:
    """Whether canonical text (``canonical_text``) names a device: a plate, a line, a pacemaker."""
    return anatomy_lexicon().devices.search(canon) is not None


@lru_cache(maxsize=1)
def denied_apart() -> re.Pattern[str]:
    """Findings of their own that a denial after ", with no" names beside another finding ("...,
    with no radiopaque foreign body"): a statement of its own, not a description of that finding."""
    return word_regex(load("radsem")["denied_apart"]["words"])


@lru_cache(maxsize=1)
def said_of_the_finding_before() -> frozenset[str]:
    """Finding words that only say how a finding looks, its caliber or its change ("stenosis",
    "enhancement", "edema"): what a statement may say of the finding before it."""
    return frozenset(load("radsem")["said_of_the_finding_before"]["words"])
