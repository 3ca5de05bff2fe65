r"""A lexicon alternation that runs, on each text, only the alternatives that text can hold.

``word_regex`` compiles a lexicon into one alternation; Python's ``re`` tries every alternative
at every word of a text, and one alternative that starts with a class (``\\w+itis``) takes away
the first-character test that otherwise skips most positions: RadSEM's abnormal terms cost
about 130 us a sentence that way. Almost every alternative is ``\b`` and literal words, so a
match can only start where a word starts, with one of the alternative's ``loader.
literal_starts``: the first three characters of each word of the text tell which alternatives
may match, usually none or a few, each then run as its own compiled pattern. Alternatives
that start otherwise run on every text that holds the longest literal every match of theirs
holds (``\w+itis``: "itis").

The matches are the alternation's own, span for span: at a position, the alternation takes
the first alternative (in its order) that matches there; ``finditer`` below takes, among the
candidate alternatives, the leftmost next match and on a tie the first in order, which is the
same match (nothing follows the alternation, so an alternative's match does not depend on the
others). Alternatives that were not run cannot match anywhere in the text. The test is exact
on ASCII text (lower-cased for the look-up; only ASCII literal starts that begin with a word
character are indexed); other text runs the whole alternation. Numbered groups would differ, so an alternation whose fragments capture,
or that could match the empty string, always runs whole.

A text's word starts are found once (cached per text: the reader asks some forty alternations
about each canonical sentence); each alternation then intersects them with its own.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache

from radscope.engine.reader.vocabulary.loader import (
    gram_index,
    literal_starts,
    min_width,
    required_literal,
    word_parts,
    word_regex,
    word_start_grams,
    word_start_index,
)


class Alternation:
    """``word_regex(fragments, flags)`` with ``search``, ``finditer`` and ``sub`` that give the
    same matches while running only the alternatives the text can hold."""

    def __init__(self, fragments: list[str] | tuple[str, ...], flags: int = re.IGNORECASE) -> None:
        self.regex = word_regex(fragments, flags)
        self.pattern = self.regex.pattern
        self.parts = tuple(re.compile(p, flags) for p in word_parts(fragments))
        self.narrow = bool(self.parts) and all(
            p.groups == 0 and min_width(p) > 0 for p in self.parts)
        # alternatives with no indexed start, with a literal every match of theirs holds: they
        # run on every text that holds the literal ("" for any text)
        unindexed: list[tuple[int, str]] = []
        indexed: list[tuple[int, set[str]]] = []
        for i, part in enumerate(self.parts if self.narrow else ()):
            starts = literal_starts(part)
            if starts is not None and word_start_index(part, starts):
                indexed.append((i, {s.lower() for s in starts}))
            else:
                unindexed.append((i, required_literal(part)))
        self._by_gram = by_gram = gram_index(indexed)
        self._grams = frozenset(by_gram)
        self._unindexed = tuple(unindexed)

    def _runs(self, text: str) -> tuple[re.Pattern[str], ...] | None:
        """The alternatives to run on ``text`` (in order), or None to run the whole alternation."""
        if not self.narrow:
            return None
        starts = _word_starts(text)
        if starts is None:
            return None
        grams, lower = starts
        common = self._grams & grams
        hits = [i for gram in common for i, start in self._by_gram[gram] if start in lower] \
            if common else []
        if self._unindexed:
            hits += [i for i, literal in self._unindexed if literal in lower]
        if len(hits) < 2:
            return (self.parts[hits[0]],) if hits else ()
        return tuple(self.parts[i] for i in sorted(set(hits)))

    def may_match(self, text: str) -> bool:
        """False only when no alternative can match ``text``."""
        return self._runs(text) != ()

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        runs = self._runs(text)
        if runs is None:
            return self.regex.finditer(text)
        if len(runs) == 1:
            return runs[0].finditer(text)
        return _merged(runs, text) if runs else iter(())

    def search(self, text: str) -> re.Match[str] | None:
        return next(self.finditer(text), None)

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        runs = self._runs(text)
        if runs is None:
            return self.regex.sub(repl, text)
        if not runs:
            return text
        pieces, last = [], 0
        for m in (runs[0].finditer(text) if len(runs) == 1 else _merged(runs, text)):
            pieces.append(text[last:m.start()])
            pieces.append(repl(m) if callable(repl) else m.expand(repl))
            last = m.end()
        pieces.append(text[last:])
        return "".join(pieces)


class AlternationSet:
    """Several alternations asked about one text in turn (SRR's 54 leaves, CLEAR's 13
    conditions): which of them may match it, in one look-up of the text's word starts."""

    def __init__(self, alternations: list[Alternation]) -> None:
        self.count = len(alternations)
        # those always asked: not narrowed, or with an unindexed alternative
        self._always = frozenset(k for k, a in enumerate(alternations) if not a.narrow or a._unindexed)
        by_gram: dict[str, list[tuple[int, str]]] = {}
        for k, alternation in enumerate(alternations):
            for gram, found in alternation._by_gram.items():
                by_gram.setdefault(gram, []).extend((k, start) for _, start in found)
        self._by_gram = by_gram
        self._grams = frozenset(by_gram)

    def possible(self, text: str) -> frozenset[int] | range:
        """Numbers of the alternations that may match ``text`` (all where no test applies)."""
        starts = _word_starts(text)
        if starts is None:
            return range(self.count)
        grams, lower = starts
        return self._always.union(k for gram in self._grams & grams
                                  for k, start in self._by_gram[gram] if start in lower)


def _merged(runs: tuple[re.Pattern[str], ...], text: str) -> Iterator[re.Match[str]]:
    """The alternation's matches from its alternatives' own (see the module doc); every match
    is non-empty, so the next one starts at or after the end of the last."""
    pending = [p.search(text) for p in runs]
    pos = 0
    while True:
        best: re.Match[str] | None = None
        for i, m in enumerate(pending):
            if m is not None and m.start() < pos:
                m = pending[i] = runs[i].search(text, pos)
            if m is not None and (best is None or m.start() < best.start()):
                best = m
        if best is None:
            return
        yield best
        pos = best.end()


@lru_cache(maxsize=4096)
def _word_starts(text: str) -> tuple[frozenset[str], str] | None:
    """The first three characters of each word of the lower-cased text, and that text; None
    when the text is not ASCII (no test applies)."""
    if not text.isascii():
        return None
    lower = text.lower()
    return word_start_grams(lower), lower


class RemovalSequence:
    """Patterns applied one after the other (each ``sub`` on what the last one left), that skip
    their work on a text none of them matches: one search of their joint alternation answers
    for all of them (when it finds nothing, no pattern changes the text, so the next one sees
    the same text). ``steps`` are the patterns, each with ``sub`` as ``re.Pattern``'s; the
    search is cached per text."""

    def __init__(self, patterns: list[str], flags: int = re.IGNORECASE) -> None:
        compiled = [re.compile(p, flags) for p in patterns]
        # (a pattern that captures could refer to its groups by number: it runs alone)
        self._joint = re.compile("|".join(f"(?:{p})" for p in patterns), flags) \
            if patterns and not any(p.groups for p in compiled) else None
        # per text (a pattern as a cache key would be hashed, all of it, on every call)
        self.found = lru_cache(maxsize=4096)(self._found)
        self.steps = tuple(RemovalStep(p, self.found if self._joint else None) for p in compiled)

    def _found(self, text: str) -> bool:
        return self._joint is None or self._joint.search(text) is not None


class RemovalStep:
    """One pattern of a ``RemovalSequence``."""

    def __init__(self, pattern: re.Pattern[str], found: Callable[[str], bool] | None) -> None:
        self.pattern = pattern
        self._found = found

    def sub(self, repl: str, text: str) -> str:
        if self._found is not None and not self._found(text):
            return text
        return self.pattern.sub(repl, text)
