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

The cues are records (``CueRule``: literal, category, direction, max_scope), read from
``cues.json``; the reading procedure is fixed: pseudo cues mask first, then uncertainty cues
(both directions), which mask negation cues, then backward negation cues, which mask forward
ones, then forward negation cues, those with a ``max_scope`` last and never inside another cue.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from radscope.engine.reader.text.anatomy import anatomy_lexicon
from radscope.engine.reader.vocabulary.alternation import Alternation
from radscope.engine.reader.vocabulary.loader import load, word_regex

# The reader's one three-state type: what a mention, a clause and a finding (``Finding.polarity``)
# say about presence. Metrics name it in their own label sets at one place each: CLEAR's table
# writes "uncertain" as its paper's "unclear" (``clear.rules._presence``), SRR-BERT's statuses
# are its label names (``srr_labels``).
Status = Literal["positive", "negative", "uncertain"]
POSITIVE: Final = "positive"
NEGATIVE: Final = "negative"
UNCERTAIN: Final = "uncertain"

_WORD_RE = re.compile(r"[a-z0-9']+")
_CLAUSE_END_RE = re.compile(r"[;:!\n]|\.(?!\d)")  # a period inside a number ("2.5") is none
# inside one statement ("Post right hemicolectomy: ..."); a dash between spaces too, before what
# the statement concludes ("6 HU without contrast - diagnostic of a lipid-rich adenoma")
_CLAUSE_EDGE_RE = re.compile(r"[;:]|\s[-\u2013\u2014]\s(?=[a-z])")

Category = Literal["negation", "uncertainty", "termination"]
Direction = Literal["forward", "backward", "pseudo", "terminate"]


@dataclass(frozen=True)
class CueRule:
    """One cue as a record, in the spirit of medspaCy's ``ConTextRule(literal, category,
    direction, max_scope)``: what the cue says about a mention (``category``), which way it
    reaches (``direction``: a forward cue governs what follows it, a backward one what precedes
    it, a pseudo cue only masks cues it overlaps, a terminate cue ends other cues' reach) and how
    far, in words (``max_scope``: the mention must start among the next ``max_scope`` words of a
    forward cue, or end among the ``max_scope`` words before a backward one; None = to the
    clause's edge). ``literal`` is a lower-case regular-expression fragment matched on word
    boundaries (``vocabulary.loader.word_regex``)."""

    literal: str
    category: Category
    direction: Direction
    max_scope: int | None = None

    def __post_init__(self) -> None:
        """Refuse a record the reading procedure below has no place for (a clear error instead
        of a cue silently never read)."""
        allowed = {("negation", "forward"), ("negation", "backward"), ("negation", "pseudo"),
                   ("uncertainty", "forward"), ("uncertainty", "backward"),
                   ("termination", "terminate")}
        if (self.category, self.direction) not in allowed:
            raise ValueError(f"cue rule {self.literal!r}: category {self.category!r} with "
                             f"direction {self.direction!r} is not read")
        if self.max_scope is not None and (self.max_scope < 1 or self.direction in (
                "pseudo", "terminate") or (self.category, self.direction) == ("uncertainty", "forward")):
            raise ValueError(f"cue rule {self.literal!r}: max_scope {self.max_scope} is not read "
                             f"for a {self.category} {self.direction} cue")


_RECORD_KEYS: Final = frozenset({"literal", "category", "direction", "max_scope"})


def _rule(record: dict) -> CueRule:
    unknown = set(record) - _RECORD_KEYS
    if unknown:
        raise ValueError(f"cue rule {record.get('literal')!r}: unknown keys {sorted(unknown)}")
    return CueRule(record["literal"], record["category"], record["direction"],
                   record.get("max_scope"))


def cue_rules() -> tuple[CueRule, ...]:
    """Every cue of ``cues.json`` as a record, in the file's order."""
    return tuple(_rule(record) for record in load("cues")["rules"])


@dataclass(frozen=True)
class Cue:
    kind: str  # "neg" | "unc"
    side: str  # "pre" (forward) | "post" (backward)
    start: int
    end: int
    reach: int | None  # max_scope of its rule (None = to the clause's edge)


@dataclass(frozen=True)
class CuePatterns:
    """One category's cues compiled: forward cues without a limit as one alternation, forward
    cues with one each on their own (in record order), backward cues one alternation per
    ``max_scope``."""

    forward: re.Pattern[str]
    forward_limited: tuple[tuple[re.Pattern[str], int], ...]
    backward: tuple[tuple[re.Pattern[str], int | None], ...]

    @classmethod
    def of(cls, rules: list[CueRule]) -> CuePatterns:
        forward = [r for r in rules if r.direction == "forward"]
        reaches = dict.fromkeys(r.max_scope for r in rules if r.direction == "backward")
        return cls(forward=word_regex([r.literal for r in forward if r.max_scope is None]),
                   forward_limited=tuple((word_regex([r.literal]), r.max_scope)
                                         for r in forward if r.max_scope is not None),
                   backward=tuple((word_regex([r.literal for r in rules if r.direction == "backward"
                                               and r.max_scope == reach]), reach)
                                  for reach in reaches))


@dataclass(frozen=True)
class ScopeRules:
    """The cue records compiled for reading."""

    pseudo: re.Pattern[str]
    uncertainty: CuePatterns
    negation: CuePatterns
    termination: re.Pattern[str]
    # every negation and uncertainty cue: a clause none of them can match has no cue, and its
    # cue patterns are not run (a quarter of the IU reports' clauses: 532 of 2,145 in a pass)
    any_cue: Alternation

    @classmethod
    def from_rules(cls, rules: tuple[CueRule, ...]) -> ScopeRules:
        def literals(direction: Direction) -> list[str]:
            return [r.literal for r in rules if r.direction == direction]

        return cls(pseudo=word_regex(literals("pseudo")),
                   uncertainty=CuePatterns.of([r for r in rules if r.category == "uncertainty"]),
                   negation=CuePatterns.of([r for r in rules if r.category == "negation"]),
                   termination=word_regex(literals("terminate")),
                   any_cue=Alternation([r.literal for r in rules
                                        if r.category in ("negation", "uncertainty")
                                        and r.direction != "pseudo"]))


@lru_cache(maxsize=1)
def scope_rules() -> ScopeRules:
    return ScopeRules.from_rules(cue_rules())


def clause_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the clauses of ``text`` (split at . ; : ! and new lines).

    A period inside a number ("2.5 cm") does not split.
    """
    spans, start = [], 0
    for m in _CLAUSE_END_RE.finditer(text):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    return [(s, e) for s, e in spans if text[s:e].strip()]


def _in_an_aside(text: str, cue_end: int, start: int) -> bool:
    """Whether the mention at ``start`` lies in brackets opened after a cue that ends at
    ``cue_end`` and naming no finding: an aside the cue does not reach ("without restricted
    diffusion (Fazekas grade 3)" denies no grade). Brackets that name findings are denied with
    what they follow ("no focal lesion (cyst or mass)"), and after the brackets close the cue
    reaches on ("no popliteal (Baker's) cyst")."""
    opened = text.rfind("(", cue_end, start)
    if opened < 0 or ")" in text[opened:start]:
        return False
    closed = text.find(")", start)
    return anatomy_lexicon().abnormal.search(text[opened + 1:closed if closed >= 0 else len(text)]) is None


class ClauseScope:
    """The cues of one clause, ready to answer "what is the status of the mention at i..j"."""

    def __init__(self, clause: str, rules: ScopeRules | None = None) -> None:
        self.text = clause.lower()
        self.rules = rules or scope_rules()
        self.terminations = [(m.start(), m.end()) for m in self.rules.termination.finditer(self.text)]
        if ":" in self.text or ";" in self.text or " - " in self.text or "\u2013" in self.text \
                or "\u2014" in self.text:  # a clause's edge ends every cue's reach
            self.terminations += [(m.start(), m.end()) for m in _CLAUSE_EDGE_RE.finditer(self.text)]
        self.cues: list[Cue] = []
        if self.rules.any_cue.may_match(self.text):
            self.cues = self._cues()

    def _cues(self) -> list[Cue]:
        text, masked = self.text, self._masked_spans()
        cues: list[Cue] = []

        def free(m: re.Match[str]) -> bool:
            return not any(s < m.end() and m.start() < e for s, e in masked)

        uncertain_spans = []
        unc, neg = self.rules.uncertainty, self.rules.negation
        for pattern, side, reach in ((unc.forward, "pre", None),
                                     *((p, "post", r) for p, r in unc.backward)):
            for m in pattern.finditer(text):
                if free(m):
                    cues.append(Cue("unc", side, m.start(), m.end(), reach))
                    uncertain_spans.append((m.start(), m.end()))
        masked = masked + uncertain_spans
        for pattern, reach in neg.backward:
            for m in pattern.finditer(text):
                if free(m):
                    cues.append(Cue("neg", "post", m.start(), m.end(), reach))
                    masked.append((m.start(), m.end()))
        for m in neg.forward.finditer(text):
            if free(m):
                cues.append(Cue("neg", "pre", m.start(), m.end(), None))
        for pattern, reach in neg.forward_limited:
            for m in pattern.finditer(text):
                if free(m) and not any(c.start <= m.start() < c.end for c in cues):
                    cues.append(Cue("neg", "pre", m.start(), m.end(), reach))
        return sorted(cues, key=lambda c: c.start)

    def _masked_spans(self) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in self.rules.pseudo.finditer(self.text)]

    def _blocked(self, start: int, end: int) -> bool:
        """True when a termination starts between character positions start and end: the words
        after it, and its own ("consistent" in ", consistent with"), are out of a cue's reach."""
        return any(start <= s <= end for s, _ in self.terminations)

    def _words_between(self, start: int, end: int) -> int:
        return len(_WORD_RE.findall(self.text[start:end]))

    def cues_for(self, start: int, end: int) -> list[Cue]:
        """The cues that reach the mention at ``start``..``end`` (nearest per side)."""
        found = []
        pre = [c for c in self.cues if c.side == "pre" and c.end <= end
               and not self._blocked(c.end, start) and not _in_an_aside(self.text, c.end, start)
               and (c.reach is None or self._words_between(c.end, start) < c.reach)]
        if pre:
            found.append(max(pre, key=lambda c: c.end))
        post = [c for c in self.cues if c.side == "post" and c.start >= end
                and not self._blocked(end, c.start)
                and (c.reach is None or self._words_between(end, c.start) < c.reach)]
        if post:
            found.append(min(post, key=lambda c: c.start))
        return found

    def status(self, start: int, end: int) -> Status:
        """positive / negative / uncertain for the mention at ``start``..``end`` of the clause."""
        if not self.cues:  # a clause without cues: nothing can reach the mention
            return POSITIVE
        cues = self.cues_for(start, end)
        if any(c.kind == "unc" for c in cues):
            return UNCERTAIN
        if any(c.kind == "neg" for c in cues):
            return NEGATIVE
        return POSITIVE
