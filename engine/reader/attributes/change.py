"""A finding's change over time: new, increased, decreased, resolved or unchanged.

Read from words that say a change and nothing else ("has increased", "interval development of",
"no longer seen", "unchanged"). "Increased" and "decreased" alone are often a state ("increased
interstitial markings", "decreased lung volumes") and count only in a form that says a change
("has increased", "increasing", "increased in size"). The words are the lexicon's
(``reader.json`` ``change_over_time``).
"""
from __future__ import annotations

import re
from functools import lru_cache

from radscope.engine.reader.vocabulary.loader import load


@lru_cache(maxsize=1)
def _change_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    data = load("reader")["change_over_time"]
    return tuple((name, re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE))
                 for name, words in data.items() if not name.startswith("_"))


def change_over_time(text: str) -> str | None:
    """The change a statement reports (new, increased, decreased, resolved, unchanged), or None."""
    for name, pattern in _change_patterns():
        if pattern.search(text):
            return name
    return None


def changes_differ(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a != b
