"""The reader's own words (``reader.json``) and the ones it borrows from CLEAR's lexicon.

Prior-study phrases and change directions are new data; severity classes are CLEAR's
(``clear_attributes.json``), so that CLEAR's severity attribute and the reader's severity
conflict never disagree about what "mild" means. Everything is compiled once.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from radscope.engine.reader.vocabulary.alternation import Alternation
from radscope.engine.reader.vocabulary.loader import load


@dataclass(frozen=True, eq=False)
class ReaderLexicon:
    """Lexicon alternations (``Alternation``: the matches of ``word_regex``, running only the
    words a text can hold; every sentence is asked about each of them)."""

    prior: Alternation
    change: tuple[tuple[str, Alternation], ...]
    temporal: Alternation
    severity: tuple[tuple[str, Alternation], ...]
    hedges: Alternation  # a finding's statement hedged for the reader, not for presence labels


@lru_cache(maxsize=1)
def reader_lexicon() -> ReaderLexicon:
    data = load("reader")
    severity = load("clear_attributes")["severity"]
    return ReaderLexicon(
        prior=Alternation(data["prior_reference"]),
        change=tuple((k, Alternation(v)) for k, v in data["change"].items()),
        temporal=Alternation(data["temporal_only"]),
        severity=tuple((k, Alternation(v)) for k, v in severity.items()),
        hedges=Alternation(data["hedges"]),
    )

