"""The reader's own words (``reader.json``) and the ones it borrows from CLEAR's lexicon.

Prior-study phrases and change directions are new data; severity classes are CLEAR's
(``clear_attributes.json``), so that CLEAR's severity attribute and the reader's severity
conflict never disagree about what "mild" means. Everything is compiled once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from radscope.engine.reader.alternation import Alternation
from radscope.engine.reader.anatomy_lexicon import RADSEM_LEXICONS
from radscope.engine.reader.lexicon_loader import READER_RULES_VERSION, lexicon_hash, load

READER_NAME = "radscope-reader"
READER_VERSION = "reader-v5"  # v5: findings as frames (sizes in mm, change over time), wording.json, comparisons as context
# v4: sections as written (RESULT(S), CONCLUSION, sub-headings), the impression read apart
# v3: radsem-rules-v5 atoms (level and site lists, joined continuations)
# Lexicon files whose content can change a reading (their hash goes into every signature);
# the SRR labels also read SRR_LEXICONS.
READER_LEXICONS = tuple(dict.fromkeys((*RADSEM_LEXICONS, "clear_attributes", "reader")))
SRR_LEXICONS = ("clear_conditions", "srr_leaves")


@dataclass(frozen=True, eq=False)
class ReaderLexicon:
    """Lexicon alternations (``Alternation``: the matches of ``word_regex``, running only the
    words a text can hold; every sentence is asked about each of them)."""

    prior: Alternation
    change: tuple[tuple[str, Alternation], ...]
    temporal: Alternation
    severity: tuple[tuple[str, Alternation], ...]
    size: re.Pattern[str]


@lru_cache(maxsize=1)
def reader_lexicon() -> ReaderLexicon:
    data = load("reader")
    severity = load("clear_attributes")["severity"]
    return ReaderLexicon(
        prior=Alternation(data["prior_reference"]),
        change=tuple((k, Alternation(v)) for k, v in data["change"].items()),
        temporal=Alternation(data["temporal_only"]),
        severity=tuple((k, Alternation(v)) for k, v in severity.items()),
        size=re.compile(data["size"], re.IGNORECASE),
    )


def reader_signature(*extra_lexicons: str) -> dict[str, str]:
    """What identifies a reading: reader name and version, rules version, and the hash of the
    lexicons it read (the reader's, plus ``extra_lexicons`` a view reads on top)."""
    return {"reader": READER_NAME, "reader_version": READER_VERSION, "rules": READER_RULES_VERSION,
            "lexicon": lexicon_hash(*READER_LEXICONS, *extra_lexicons)}
