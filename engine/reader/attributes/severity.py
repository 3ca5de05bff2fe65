"""A finding's severity: mild, moderate or severe (CLEAR's classes, so that CLEAR's severity
attribute and the reader's severity error agree on what "mild" means).

A statement's severity is the highest class whose words it asserts; a severity word inside a
negation ("not severe") says nothing about the finding.
"""
from __future__ import annotations

from radscope.engine.reader.attributes.certainty import NEGATIVE, ClauseScope
from radscope.engine.reader.vocabulary.alternation import Alternation
from radscope.engine.reader.vocabulary.reader_words import reader_lexicon

SEVERITY_RANK = {"mild": 1, "moderate": 2, "severe": 3}


def asserted_words(pattern: Alternation, canon: str, scope: ClauseScope) -> list[str]:
    """The words of ``pattern`` that ``canon`` states outside a negation."""
    return [m.group(0) for m in pattern.finditer(canon) if scope.status(m.start(), m.end()) != NEGATIVE]


def severity(canon: str, scope: ClauseScope) -> str | None:
    """The highest severity class the statement asserts, or None."""
    found = [name for name, pattern in reader_lexicon().severity if asserted_words(pattern, canon, scope)]
    return max(found, key=SEVERITY_RANK.__getitem__) if found else None
