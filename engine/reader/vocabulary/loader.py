"""Load the rules extractors' lexicons (JSON data files under engine/data/lexicons).

The lexicons are data, not code, so that a reviewer can read and change the clinical phrasing
without touching the matching logic; their content hash goes into every rules signature, so
two results computed with different lexicons are never compared silently.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import re
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

from radscope.layout import folder

LEXICON_DIR = folder("engine") / "data" / "lexicons"


@cache
def load(name: str) -> dict[str, Any]:
    """One lexicon file (``cues``, ``clear_conditions``, ...) as parsed JSON."""
    path = LEXICON_DIR / f"{name}.json"
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def lexicon_hash(*names: str) -> str:
    """First 12 hex digits of the SHA-256 over the named lexicon files (in the given order)."""
    digest = hashlib.sha256()
    for name in names:
        digest.update((LEXICON_DIR / f"{name}.json").read_bytes())
    return digest.hexdigest()[:12]


def word_regex(fragments: list[str] | tuple[str, ...], flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """One alternation of lexicon fragments, each anchored on word boundaries.

    Longer fragments are tried first so that "no evidence of" wins over "no"; fragments of one
    length in alphabetical order, so that the alternation (and with it every reading) is the same
    in every process whatever its hash seed (a set's order is not). A fragment that starts or
    ends with a non-word character (e.g. "?") gets no boundary on that side.
    """
    parts = word_parts(fragments)
    return re.compile("|".join(parts) if parts else r"(?!x)x", flags)


def word_parts(fragments: list[str] | tuple[str, ...]) -> list[str]:
    """The alternatives of ``word_regex``, in its order."""
    parts = []
    for fragment in sorted(set(fragments), key=lambda f: (-len(f), f)):
        left = r"\b" if re.match(r"[\w(\[]", fragment) else ""
        right = r"\b" if re.search(r"[\w)\]?*+]$", fragment) and not fragment.endswith("\\?") else ""
        parts.append(f"{left}(?:{fragment}){right}")
    return parts


# --- skipping patterns that cannot match ---------------------------------------------------------
# The lexicons are read as long sequences of patterns (154 synonym substitutions, 99 site
# patterns per sentence). Almost every pattern starts with literal words, so a plain substring
# test ("does the text hold one of the words a match must start with?") rules most of them out
# at a fraction of the cost of running them. The test is exact only where the matched text is
# ASCII and lower-case (the readers' canonical text): an IGNORECASE pattern also matches
# non-ASCII case variants (the long s, the Kelvin sign) that a substring test would not see.

_PREFIX_LIMIT = 400  # a pattern whose starts would expand into more literals keeps the shorter ones it had


def _regex_module(name: str) -> Any:
    """``re._parser`` / ``re._constants``: the standard library's own regex parser."""
    return importlib.import_module(f"re.{name}")


def _starts(items: Any) -> tuple[set[str], bool]:
    """The literal strings a match of the parsed items starts with, and whether those strings
    are the whole match (so that what follows can be appended)."""
    sre = _regex_module("_constants")  # the parser's node types
    starts, complete = {""}, True
    for op, av in items:
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue  # zero width: matches no character
        if op is sre.LITERAL:
            starts = {s + chr(av) for s in starts}
            continue
        if op is sre.SUBPATTERN:
            inner, complete = _starts(av[-1])
        elif op is sre.BRANCH:
            parts = [_starts(branch) for branch in av[1]]
            inner = set().union(*(p for p, _ in parts))
            complete = all(c for _, c in parts)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[:2] == (0, 1):  # optional: with or without
            inner, complete = _starts(av[2])
            if not complete:
                return starts, False
            inner = inner | {""}
        else:  # a class, another repeat, a reference: the literal start ends here
            return starts, False
        longer = {s + t for s in starts for t in inner}
        if len(longer) > _PREFIX_LIMIT:
            return starts, False  # the starts so far: shorter, and still one of them starts every match
        starts = longer
        if not complete:
            return starts, False
    return starts, complete


def literal_starts(pattern: re.Pattern[str], min_length: int = 3) -> frozenset[str] | None:
    """The literal strings (lower-case when the pattern ignores case) one of which starts every
    match of ``pattern`` in lower-case ASCII text, or None when some match may start otherwise
    or with fewer than ``min_length`` known characters (nothing to test)."""
    try:
        starts, _ = _starts(_regex_module("_parser").parse(pattern.pattern, pattern.flags))
    except (ValueError, RecursionError):
        return None
    if not starts or min(len(s) for s in starts) < max(min_length, 1):
        return None
    fold = bool(pattern.flags & re.IGNORECASE)
    return frozenset(s.lower() if fold else s for s in starts)


def required_literal(pattern: re.Pattern[str]) -> str:
    """The longest run of literal characters that every match of ``pattern`` contains (lower-
    case when the pattern ignores case; "" when there is none, or when it is not ASCII)."""
    return _longest_literal(list(_regex_module("_parser").parse(pattern.pattern, pattern.flags)),
                            pattern.flags)


def alternative_literals(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """For a pattern with one alternation at its top level ("\\bct\\b|computed tomograph", a
    prefix the parser took out of every alternative included, and a group without flags of its
    own around it lifted, as the parser lifts it: "x(?:ab|cd)y"), the ``required_literal`` of each
    alternative: a text that holds none of them has no match ("" in the tuple: any text may).
    For any other pattern, its ``required_literal`` alone."""
    sre = _regex_module("_constants")
    items = list(_regex_module("_parser").parse(pattern.pattern, pattern.flags))
    branches = [k for k, (op, _) in enumerate(items) if op is sre.BRANCH]
    if len(branches) != 1:
        return (_longest_literal(items, pattern.flags),)
    k = branches[0]
    return tuple(_longest_literal([*items[:k], *alternative, *items[k + 1:]], pattern.flags)
                 for alternative in items[k][1][1])


def _longest_literal(items: list[Any], flags: int) -> str:
    sre = _regex_module("_constants")
    best, run = "", ""
    while items:
        op, av = items.pop(0)
        if op is sre.SUBPATTERN and not av[1] and not av[2]:  # a group without flags of its own
            items[:0] = list(av[-1])
            continue
        if op is sre.LITERAL:
            run += chr(av)
        elif op not in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):  # zero width: the run goes on
            run = ""
        best = max(best, run, key=len)
    fold = bool(flags & re.IGNORECASE)
    return (best.lower() if fold else best) if best.isascii() else ""


def min_width(pattern: re.Pattern[str]) -> int:
    """The fewest characters a match of ``pattern`` can have."""
    return int(_regex_module("_parser").parse(pattern.pattern, pattern.flags).getwidth()[0])


# the first three characters from each place where a word starts
_WORD_START_GRAMS = re.compile(r"\b(?=(\w.{0,2}))", re.DOTALL)
_WORD_CHAR = re.compile(r"\w")


@lru_cache(maxsize=4096)
def word_start_grams(text: str) -> frozenset[str]:
    """The first three characters of every word of the text (fewer at its end). Cached: two of
    every three look-ups in a reward pass ask again about a text that another index (a lexicon's
    rewrites, the wording's, the reader's alternations) has just asked about."""
    return frozenset(_WORD_START_GRAMS.findall(text))


def word_start_index(pattern: re.Pattern[str], starts: frozenset[str] | None) -> bool:
    """Whether every match of ``pattern`` starts where a word starts, with one of its literal
    ``starts`` (ASCII): then a text whose ``word_start_grams`` hold none of the starts' first
    three characters (lower-cased) has no match."""
    return starts is not None and pattern.pattern.startswith(r"\b") \
        and all(s.isascii() and _WORD_CHAR.match(s) for s in starts)


def gram_index(items: Iterable[tuple[int, Iterable[str]]]) -> dict[str, tuple[tuple[int, str], ...]]:
    """Items by the first three characters of their literal starts, each start read from its
    first telling word (``telling_start``): for each, (item, the longest prefix its starts that
    begin so share), which a text holds if it holds one of them."""
    grouped: dict[str, dict[int, list[str]]] = {}
    for i, starts in items:
        for start in map(telling_start, starts):
            grouped.setdefault(start[:3], {}).setdefault(i, []).append(start)
    return {gram: tuple((i, _common_prefix(found)) for i, found in by_item.items())
            for gram, by_item in grouped.items()}


# Words in nearly every sentence: a start that begins with one ("the density of", "no joint
# space") tells little by its first three characters.
_COMMON_LEADS = ("the ", "a ", "an ", "no ", "in ", "on ", "of ", "at ", "to ", "is ", "are ", "with ",
                 "and ", "or ")


def telling_start(start: str) -> str:
    """``start`` from the word after its leading common words ("density of" for "the density
    of"), when at least three characters are left: a text that holds the start holds that, at
    the start of a word, so indexing by it keeps every pattern that may match."""
    while True:
        lead = next((w for w in _COMMON_LEADS if start.startswith(w) and len(start) - len(w) >= 3
                     and _WORD_CHAR.match(start, len(w))), None)
        if lead is None:
            return start
        start = start[len(lead):]


def _common_prefix(strings: list[str]) -> str:
    first, last = min(strings), max(strings)
    n = 0
    while n < len(first) and first[n] == last[n]:
        n += 1
    return first[:n]


class StartIndex:
    """A sequence of patterns by the first three characters of their ``literal_starts``: which
    of them may match a text, found from the text's ``word_start_grams`` in a few set
    operations, then from the whole literal starts and, where a start alone tells little ("is ",
    "left "), a second literal every match holds (a plain substring test each). Patterns
    that need not match where a word starts are tested on the literals one of which every match
    holds (``_telling_literals``); those that no such literal tells ("(\\d+)(mm|cm)", "x (is|are)
    full") by one search for all of them. With ``exact`` False (text that may not be lower-case
    ASCII) every pattern may match."""

    def __init__(self, patterns: Sequence[re.Pattern[str]], exact: bool = True) -> None:
        # (pattern, the literals one of which its every match holds) of those tested one by one
        always: list[tuple[int, tuple[str, ...]]] = []
        indexed: list[tuple[int, frozenset[str]]] = []
        untold: list[int] = []
        for i, pattern in enumerate(patterns):
            starts = literal_starts(pattern) if exact else None
            if starts is not None and word_start_index(pattern, starts):
                indexed.append((i, starts))
            elif needed := (_telling_literals(pattern) if exact else None):
                always.append((i, needed))
            else:
                untold.append(i)
        # each start with the literals one of which a match also holds (None where the start
        # itself holds one): "is " starts "is lost signal on", whose " on " most texts lack
        needs = {i: _second_literals(patterns[i]) for i, _ in indexed}
        self.by_gram = by_gram = {gram: tuple((i, start, _needed_beyond(start, needs[i])) for i, start in found)
                                  for gram, found in gram_index(indexed).items()}
        self.grams = frozenset(by_gram)
        self.untold = tuple(untold)
        self.untold_search = _one_search([patterns[i] for i in untold]) if exact else None
        # each literal the patterns of ``always`` need, once, with the patterns that need it: one
        # substring test per literal (this runs for every sentence and after every rewrite)
        by_literal: dict[str, list[int]] = {}
        for i, needed in always:
            for literal in needed:
                by_literal.setdefault(literal, []).append(i)
        self.always_literals = tuple((literal, tuple(found)) for literal, found in by_literal.items())

    def candidates(self, text: str, after: int = -1) -> list[int]:
        """Indices (ascending, above ``after``) of the patterns that may match ``text`` (lower-
        case ASCII)."""
        found: set[int] = set()
        for literal, needing in self.always_literals:
            if literal in text:
                found.update(needing)
        for gram in self.grams & word_start_grams(text):
            for i, start, needs in self.by_gram[gram]:
                if start in text and (needs is None or any(n in text for n in needs)):
                    found.add(i)
        if self.untold and self.untold[-1] > after and (
                self.untold_search is None or self.untold_search.search(text)):
            found.update(self.untold)
        return sorted(i for i in found if i > after)


def _needed_beyond(start: str, needed: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """``needed``, or None where ``start`` holds one of them (a text holding the start holds it)."""
    return None if needed is None or any(n in start for n in needed) else needed


def _second_literals(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """``alternative_literals`` of an indexed pattern, or None when they tell nothing (a text
    may match with none of them)."""
    needed = alternative_literals(pattern)
    return None if not needed or "" in needed else needed


def _telling_literals(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Literals one of which every match of ``pattern`` holds, each of at least three letters
    other than spaces (" " or "t" would be in nearly every sentence): its literal starts, the
    literals of its alternatives, or the literal they all hold; None when none of these tells."""
    telling = [tuple(sorted(needed)) for needed in (literal_starts(pattern, min_length=1),
                                                   alternative_literals(pattern), (required_literal(pattern),))
               if needed and all(len(n.strip()) >= 3 for n in needed)]
    return min(telling, key=len) if telling else None  # the fewest: one substring test each


_BACKREFERENCE_RE = re.compile(r"\\[1-9]|\(\?P=")


def _one_search(patterns: Sequence[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One pattern that matches where any of ``patterns`` does, or None when they cannot be
    joined (flags of their own, named groups or back-references, whose numbers would shift)."""
    if not patterns or len({p.flags for p in patterns}) != 1 or any(
            p.groupindex or _BACKREFERENCE_RE.search(p.pattern) for p in patterns):
        return None
    return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), patterns[0].flags)


class AnyMatch:
    """Whether any of several patterns matches a text: on ASCII text (lower-cased for the look-up,
    when every pattern ignores case) the ``StartIndex`` names the few patterns that may match,
    usually none, and only those are searched; other text is searched by each. The answer is the
    one a search by each pattern in turn gives. One alternation of them all, the simpler way,
    tries every pattern at every position of the text: for the wording's 59 rewrites 27 us a
    sentence against 12 us this way, 4 % of a fresh reward pass (docs/speed.md, round 6)."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self.patterns = tuple(patterns)
        # the look-up reads lower-case ASCII: exact for patterns that ignore case and are ASCII
        self._folds = all(p.flags & re.IGNORECASE and p.pattern.isascii() for p in self.patterns)
        self._index = StartIndex(self.patterns) if self._folds else None

    def __call__(self, text: str) -> bool:
        if self._index is not None and text.isascii():
            return any(self.patterns[i].search(text) for i in self._index.candidates(text.lower()))
        return any(p.search(text) for p in self.patterns)


class Rewrites:
    """Substitutions run in order on lower-case text, each only where it may match
    (``StartIndex``): after one changes the text, the later ones are looked up again on what
    it wrote. The same result as running every substitution in turn, without scanning the
    text once per substitution (most sentences meet none of a lexicon's forms)."""

    def __init__(self, substitutions: Sequence[tuple[re.Pattern[str], str]]) -> None:
        self.substitutions = tuple(substitutions)
        # the index is exact only while every substitution writes lower-case ASCII
        self.exact = all(written.isascii() and written == written.lower() for _, written in self.substitutions)
        self.index = StartIndex([pattern for pattern, _ in self.substitutions], self.exact)

    def apply(self, text: str) -> str:
        if not text.isascii():  # the index tests lower-case ASCII only
            for pattern, written in self.substitutions:
                text = pattern.sub(written, text)
            return text
        todo = self.index.candidates(text)
        while todo:
            i = todo.pop(0)
            pattern, written = self.substitutions[i]
            changed = pattern.sub(written, text)
            if changed != text:
                text = changed
                todo = self.index.candidates(text, after=i)
        return text
