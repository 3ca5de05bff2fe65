"""A finding's severity: mild, moderate or severe (CLEAR's classes, so that CLEAR's severity
attribute and the reader's severity error agree on what "mild" means).

A statement's severity is the highest class whose words it asserts; a severity word inside a
negation ("not severe") says nothing about the finding.
"""
from __future__ import annotations

import re

from radscope.engine.reader.attributes.certainty import NEGATIVE, ClauseScope
from radscope.engine.reader.vocabulary.alternation import Alternation
from radscope.engine.reader.vocabulary.reader_words import reader_lexicon

SEVERITY_RANK = {"mild": 1, "moderate": 2, "severe": 3}


def asserted_words(pattern: Alternation, canon: str, scope: ClauseScope) -> list[str]:
    """The words of ``pattern`` that ``canon`` states outside a negation."""
    return [m.group(0) for m in pattern.finditer(canon) if scope.status(m.start(), m.end()) != NEGATIVE]


# the grade said in so many words, which outranks what a size or look implies ("dense", "small")
_GRADE_RE = re.compile(r"^(?:mild|moderate|severe)")


def severity(canon: str, scope: ClauseScope) -> str | None:
    """The highest severity class the statement asserts, or None; a grade said in so many words
    decides over one implied ("dense echoes ..., suggestive of mild steatosis" is mild: "dense"
    says severe of a consolidation, not of what the sentence grades)."""
    found = {name: words for name, pattern in reader_lexicon().severity
             if (words := asserted_words(pattern, canon, scope))}
    graded = [name for name, words in found.items() if any(_GRADE_RE.match(w) for w in words)]
    return max(graded or found, key=SEVERITY_RANK.__getitem__) if found else None
