"""Negation and uncertainty scope for rule-based report reading (shared by CLEAR and RadSEM).

The approach follows the published CheXpert labeller in spirit: find a mention, then decide
whether a negation or uncertainty cue governs it. Without a dependency parser the "governs"
test is positional: a cue before the mention reaches it when no termination word ("but",
"however", "which", ...) and no clause boundary lies between them and, for short-reach cues
such as "not" or "non", when the mention starts within the cue's word limit; a cue after the
mention ("... is not seen", "... has resolved") reaches back over at most a few words. The
nearest cue on each side decides; uncertainty wins over negation, because "cannot exclude X"
must not read as "no X". Phrases that look like negation but are not ("no change in ...")
are masked first.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from radscope.engine.reader.lexicon_loader import load, word_regex

Status = Literal["positive", "negative", "uncertain"]
POSITIVE: Final = "positive"
NEGATIVE: Final = "negative"
UNCERTAIN: Final = "uncertain"

_WORD_RE = re.compile(r"[a-z0-9']+")
POST_REACH_WORDS = 6  # how far back a post-mention cue ("... is not seen") reaches


@dataclass(frozen=True)
class Cue:
    kind: str  # "neg" | "unc"
    side: str  # "pre" | "post"
    start: int
    end: int
    reach: int | None  # words after the cue it may govern (None = to the clause end)


def _split_cue_entries(entries: list) -> tuple[list[str], dict[str, int]]:
    plain, limited = [], {}
    for entry in entries:
        if isinstance(entry, list):
            limited[entry[0]] = int(entry[1])
        else:
            plain.append(entry)
    return plain, limited


@dataclass
class ScopeRules:
    """Compiled cue patterns from ``cues.json``."""

    pseudo: re.Pattern[str]
    unc_pre: re.Pattern[str]
    unc_post: re.Pattern[str]
    neg_pre: re.Pattern[str]
    neg_pre_limited: list[tuple[re.Pattern[str], int]]
    neg_post: re.Pattern[str]
    termination: re.Pattern[str]

    @classmethod
    def from_lexicon(cls) -> ScopeRules:
        cues = load("cues")
        plain, limited = _split_cue_entries(cues["negation_pre"])
        return cls(pseudo=word_regex(cues["pseudo_negation"]),
                   unc_pre=word_regex(cues["uncertainty_pre"]),
                   unc_post=word_regex(cues["uncertainty_post"]),
                   neg_pre=word_regex(plain),
                   neg_pre_limited=[(word_regex([k]), v) for k, v in limited.items()],
                   neg_post=word_regex(cues["negation_post"]),
                   termination=word_regex(cues["termination"]))


@lru_cache(maxsize=1)
def scope_rules() -> ScopeRules:
    return ScopeRules.from_lexicon()


def clause_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the clauses of ``text`` (split at . ; : ! and new lines).

    A period inside a number ("2.5 cm") does not split.
    """
    spans, start = [], 0
    for m in re.finditer(r"[;:!\n]|\.(?!\d)", text):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


class ClauseScope:
    """The cues of one clause, ready to answer "what is the status of the mention at i..j"."""

    def __init__(self, clause: str, rules: ScopeRules | None = None) -> None:
        self.text = clause.lower()
        self.rules = rules or scope_rules()
        text, masked = self.text, self._masked_spans()
        cues: list[Cue] = []

        def free(m: re.Match[str]) -> bool:
            return not any(s < m.end() and m.start() < e for s, e in masked)

        uncertain_spans = []
        for pattern, side in ((self.rules.unc_pre, "pre"), (self.rules.unc_post, "post")):
            for m in pattern.finditer(text):
                if free(m):
                    cues.append(Cue("unc", side, m.start(), m.end(), None))
                    uncertain_spans.append((m.start(), m.end()))
        masked = masked + uncertain_spans
        for m in self.rules.neg_post.finditer(text):
            if free(m):
                cues.append(Cue("neg", "post", m.start(), m.end(), None))
                masked.append((m.start(), m.end()))
        for m in self.rules.neg_pre.finditer(text):
            if free(m):
                cues.append(Cue("neg", "pre", m.start(), m.end(), None))
        for pattern, reach in self.rules.neg_pre_limited:
            for m in pattern.finditer(text):
                if free(m) and not any(c.start <= m.start() < c.end for c in cues):
                    cues.append(Cue("neg", "pre", m.start(), m.end(), reach))
        self.cues = sorted(cues, key=lambda c: c.start)
        self.terminations = [(m.start(), m.end()) for m in self.rules.termination.finditer(text)]

    def _masked_spans(self) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in self.rules.pseudo.finditer(self.text)]

    def _blocked(self, start: int, end: int) -> bool:
        """True when a termination word lies between character positions start and end."""
        return any(start <= s and e <= end for s, e in self.terminations)

    def _words_between(self, start: int, end: int) -> int:
        return len(_WORD_RE.findall(self.text[start:end]))

    def cues_for(self, start: int, end: int) -> list[Cue]:
        """The cues that reach the mention at ``start``..``end`` (nearest per side)."""
        found = []
        pre = [c for c in self.cues if c.side == "pre" and c.end <= end
               and not self._blocked(c.end, start)
               and (c.reach is None or self._words_between(c.end, start) < c.reach)]
        if pre:
            found.append(max(pre, key=lambda c: c.end))
        post = [c for c in self.cues if c.side == "post" and c.start >= end
                and not self._blocked(end, c.start)
                and self._words_between(end, c.start) <= POST_REACH_WORDS]
        if post:
            found.append(min(post, key=lambda c: c.start))
        return found

    def status(self, start: int, end: int) -> Status:
        """positive / negative / uncertain for the mention at ``start``..``end`` of the clause."""
        cues = self.cues_for(start, end)
        if any(c.kind == "unc" for c in cues):
            return UNCERTAIN
        if any(c.kind == "neg" for c in cues):
            return NEGATIVE
        return POSITIVE


@lru_cache(maxsize=4096)
def clause_scope(clause: str) -> ClauseScope:
    """``ClauseScope(clause)`` read once per text: a sentence's features and its finding's
    attributes ask about the same canonical text (a scope never changes once built)."""
    return ClauseScope(clause)
