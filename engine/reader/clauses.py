"""The reader's clause layer: a report's FINDINGS + IMPRESSION sentences (the reading's
``utterances``), each cut into clauses once, each clause with its negation / uncertainty scope.

CLEAR's condition mentions (``clear.rules``) and the SRR leaf labels (``srr.rule_labels``) are
both read off these clauses, so the two views agree on what a clause is and on which cue governs
a word, and a sentence's cues are found once however many views read it. The sentences come from
the text stage (``text.report_text.read_text``), below the atomic findings: a CLEAR-only run reads
clauses without paying for the atomiser it does not use.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from radscope.engine.reader.attributes.certainty import ClauseScope, Status, clause_spans


@dataclass(frozen=True)
class Clause:
    """One clause of a sentence (split at . ; : ! and new lines)."""

    text: str
    start: int  # offset in the sentence

    @cached_property
    def lower(self) -> str:
        return self.text.lower()

    @cached_property
    def scope(self) -> ClauseScope:
        """The clause's cues, found on first use (a clause that names nothing needs none)."""
        return ClauseScope(self.text)

    def status(self, start: int, end: int) -> Status:
        """positive / negative / uncertain for the words at ``start``..``end`` of the clause."""
        return self.scope.status(start, end)


@lru_cache(maxsize=50000)
def sentence_clauses(sentence: str) -> tuple[Clause, ...]:
    """The clauses of one sentence (cached by text: sentences recur across reports and views)."""
    return tuple(Clause(sentence[start:end], start) for start, end in clause_spans(sentence))
