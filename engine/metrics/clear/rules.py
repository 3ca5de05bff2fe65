"""CLEAR stages 1 and 2 without a language model: a view over the clinical reader.

CLEAR reads the reader's clause layer (``radscope.engine.reader.clauses``): the report's FINDINGS +
IMPRESSION sentences as the reading splits them, their clauses and each clause's negation /
uncertainty scope, cached per text and sentence and shared with the SRR labels in a run. Stage 1
labels the 13 conditions by finding their mentions (``clear_conditions.json``) in each clause
and asking the clause's scope what governs them (``radscope.engine.reader.attributes.certainty``); the mentions of a sentence
are cached with it. The reader's atomic findings are not read: atomisation drops the
prior-study wording and recommendation sentences the attributes need, and a CLEAR-only run
would pay for it. Explicit mentions decide: positive beats uncertain beats negative.
Statements that imply absence without naming the condition ("lungs are clear", "heart size is
normal", "no acute cardiopulmonary process") give a negative only when no explicit mention
exists. Stage 2 reads the attributes of the true positives from cue words near the positive
mentions (``clear_attributes.json``).

Why ``demo_grade`` is False: the rules are deterministic, documented clinical language rules
whose presence labels are measured against human MeSH codes (``bench.quality.rules``); they are
a real, if narrower, reader, unlike the 270M demonstration judge. Their limits (no syntax
parse, fixed vocabulary, no reasoning about prior studies) are listed in the lexicon README.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.clear.schema import (
    CHANGE,
    CONDITION_ATTRIBUTES,
    CONDITIONS,
    DESCRIPTIVE_LOCATION,
    FIRST_OCCURRENCE,
    NA,
    RECOMMENDATION,
    SEVERITY,
    ClearPairExtraction,
    ClearReportExtraction,
)
from radscope.engine.metrics.framework.extraction import Extracted, ExtractorKind, PairwiseExtractor
from radscope.engine.reader.attributes.certainty import NEGATIVE, POSITIVE, UNCERTAIN
from radscope.engine.reader.clauses import sentence_clauses
from radscope.engine.reader.text.report_text import read_text
from radscope.engine.reader.versions import (
    CLEAR_LEXICONS,
    READER_NAME,
    READER_RULES_VERSION,
    READER_VERSION,
)
from radscope.engine.reader.vocabulary.alternation import Alternation, AlternationSet
from radscope.engine.reader.vocabulary.loader import lexicon_hash, load, word_regex

_SEGMENT_RE = re.compile(r",|\bwith\b|\band\b|\bas well as\b|\bwhich\b")


@dataclass(frozen=True)
class Mention:
    """One mention of a condition: where it is and what the cues make of it."""

    condition: str
    status: str  # positive | negative | uncertain | implicit-negative
    sentence_index: int
    clause: str
    start: int  # within the clause
    end: int
    text: str


@dataclass
class ConditionLexicon:
    mentions: Alternation
    exclude: Alternation
    implicit: Alternation | None


@dataclass
class ReportReading:
    """Everything stage 1 found in one report, kept for stage 2 and for explanations."""

    sentences: list[str]
    mentions: list[Mention] = field(default_factory=list)
    presence: dict[str, str] = field(default_factory=dict)

    def positive_mentions(self, condition: str) -> list[Mention]:
        return [m for m in self.mentions if m.condition == condition and m.status == POSITIVE]


@lru_cache(maxsize=1)
def _condition_lexicons() -> dict[str, ConditionLexicon]:
    data = load("clear_conditions")
    implicit: dict[str, list[str]] = {c: list(v.get("implicit_negative", []))
                                      for c, v in data["conditions"].items()}
    for group in data["implicit_groups"]:
        for condition in group["conditions"]:
            implicit[condition].extend(group["patterns"])
    return {c: ConditionLexicon(mentions=Alternation(v["mentions"]),
                                exclude=Alternation(v.get("exclude", [])),
                                implicit=Alternation(implicit[c]) if implicit[c] else None)
            for c, v in data["conditions"].items()}


@lru_cache(maxsize=1)
def _mention_set() -> AlternationSet:
    """The conditions' mention words, in ``_condition_lexicons`` order."""
    return AlternationSet([lex.mentions for lex in _condition_lexicons().values()])


@lru_cache(maxsize=1)
def _attribute_patterns() -> dict[str, Any]:
    data = load("clear_attributes")
    return {
        FIRST_OCCURRENCE: {k: word_regex(v) for k, v in data["first_occurrence"].items()},
        CHANGE: {k: word_regex(v) for k, v in data["change"].items()},
        SEVERITY: {k: word_regex(v) for k, v in data["severity"].items()},
        "location": word_regex(data["location_terms"]),
        RECOMMENDATION: word_regex(data["recommendation"]),
    }


# --------------------------------------------------------------------------- stage 1


def read_report(text: str) -> ReportReading:
    """The CLEAR reading of a report: its sentences as the reader splits them, seen through
    ``clear_view`` (read once per text; each call gets a reading of its own)."""
    sentences, mentions, presence = _reading(text)
    return ReportReading(list(sentences), list(mentions), dict(presence))


@lru_cache(maxsize=4096)
def _reading(text: str) -> tuple[tuple[str, ...], tuple[Mention, ...], tuple[tuple[str, str], ...]]:
    """``read_report``'s parts, kept per text: a report is the reference of one pair and the
    candidate of another, and the app's views ask again."""
    view = clear_view(read_text(text).utterances)
    return tuple(view.sentences), tuple(view.mentions), tuple(view.presence.items())


def clear_view(utterances: tuple[str, ...]) -> ReportReading:
    """Every condition mention in the reader's FINDINGS + IMPRESSION sentences, and the 13
    presence labels they give."""
    view = ReportReading(sentences=list(utterances))
    for index, sentence in enumerate(view.sentences):
        view.mentions.extend(Mention(condition, status, index, clause, start, end, text)
                             for condition, status, clause, start, end, text
                             in sentence_mentions(sentence))
    view.presence = {c: _presence(view, c) for c in CONDITIONS}
    return view


@lru_cache(maxsize=50000)
def sentence_mentions(sentence: str) -> tuple[tuple[str, str, str, int, int, str], ...]:
    """(condition, status, clause, start, end, words) of every mention in one sentence, clause
    by clause in text order; implied negatives ("lungs are clear") after a condition's own."""
    found: list[tuple[str, str, str, int, int, str]] = []
    lexicons = _condition_lexicons()
    for clause in sentence_clauses(sentence):
        lower = clause.lower
        mentioned = _mention_set().possible(lower)
        for number, (condition, lex) in enumerate(lexicons.items()):
            mentions = list(lex.mentions.finditer(lower)) if number in mentioned else []
            # exclusions only matter beside a mention
            excluded = [(m.start(), m.end()) for m in lex.exclude.finditer(lower)] if mentions else []
            for m in mentions:
                if any(s <= m.start() and m.end() <= e for s, e in excluded):
                    continue
                found.append((condition, clause.status(m.start(), m.end()), clause.text,
                              m.start(), m.end(), m.group(0)))
            if lex.implicit is not None:
                found.extend((condition, "implicit-negative", clause.text, m.start(), m.end(),
                              m.group(0)) for m in lex.implicit.finditer(lower))
    return tuple(found)


def _presence(reading: ReportReading, condition: str) -> str:
    """Explicit positive > explicit uncertain > explicit negative > implied negative > unclear."""
    statuses = {m.status for m in reading.mentions if m.condition == condition}
    if POSITIVE in statuses:
        return "positive"
    if UNCERTAIN in statuses:
        return "unclear"
    if NEGATIVE in statuses or "implicit-negative" in statuses:
        return "negative"
    return "unclear"


# --------------------------------------------------------------------------- stage 2


def _segment_bounds(clause: str, start: int, end: int) -> tuple[int, int]:
    """The comma / "with" / "and" delimited piece of the clause that holds the mention."""
    cuts = [0] + [m.start() for m in _SEGMENT_RE.finditer(clause)] + [len(clause)]
    left = max(c for c in cuts if c <= start)
    right = min((c for c in cuts if c >= end), default=len(clause))
    return left, right


def _segment(clause: str, start: int, end: int) -> str:
    left, right = _segment_bounds(clause, start, end)
    return clause[left:right]


def _choice(patterns: dict[str, re.Pattern[str]], texts: list[str]) -> set[str]:
    return {label for label, pattern in patterns.items() for t in texts if pattern.search(t)}


def _first_occurrence(segments: list[str], clauses: list[str]) -> str:
    p = _attribute_patterns()[FIRST_OCCURRENCE]
    for texts in (segments, clauses):
        found = _choice(p, texts)
        if "current" in found:
            return "current"
        if "previous" in found:
            return "previous"
    return NA


def _change(segments: list[str], clauses: list[str]) -> str:
    p = _attribute_patterns()[CHANGE]
    for texts in (segments, clauses):
        found = _choice(p, texts)
        directional = found & {"improving", "worsening"}
        if len(directional) == 2:
            return "mixed"
        if directional:
            return directional.pop()
        if "stable" in found:
            return "stable"
    return NA


def _severity(segments: list[str]) -> str:
    found = _choice(_attribute_patterns()[SEVERITY], segments)
    if len(found) > 1:
        return "mixed"
    return found.pop() if found else NA


def _locations(mentions: list[Mention]) -> list[str]:
    """Location and descriptor words next to each positive mention, with the mention itself."""
    pattern = _attribute_patterns()["location"]
    phrases: list[str] = []
    for m in mentions:
        segment_start, segment_end = _segment_bounds(m.clause.lower(), m.start, m.end)
        segment = m.clause.lower()[segment_start:segment_end]
        words = [(w.start() + segment_start, w.group(0)) for w in pattern.finditer(segment)
                 if not (m.start <= w.start() + segment_start < m.end)]
        if not words:
            continue
        words.append((m.start, m.text))
        phrase = " ".join(w for _, w in sorted(words))
        if phrase not in phrases:
            phrases.append(phrase)
    return phrases or [NA]


def _recommendations(reading: ReportReading, condition: str) -> list[str]:
    """Recommendation sentences that name the condition, or follow a sentence naming it."""
    pattern = _attribute_patterns()[RECOMMENDATION]
    named = {m.sentence_index for m in reading.mentions if m.condition == condition
             and m.status in (POSITIVE, UNCERTAIN)}
    mentions_any = {m.sentence_index for m in reading.mentions
                    if m.status in (POSITIVE, UNCERTAIN)}
    found = []
    for index, sentence in enumerate(reading.sentences):
        if not pattern.search(sentence.lower()):
            continue
        own = index in named
        follows = index not in mentions_any and (index - 1) in named
        if own or follows:
            found.append(sentence.rstrip(". "))
    return found or [NA]


def condition_attributes(reading: ReportReading, condition: str) -> dict[str, Any]:
    """Stage 2 for one condition of one report (its attributes only; devices get two)."""
    mentions = reading.positive_mentions(condition)
    segments = [_segment(m.clause.lower(), m.start, m.end) for m in mentions]
    clauses = [m.clause.lower() for m in mentions]
    values: dict[str, Any] = {
        FIRST_OCCURRENCE: _first_occurrence(segments, clauses),
        CHANGE: _change(segments, clauses),
        SEVERITY: _severity(segments),
        DESCRIPTIVE_LOCATION: _locations(mentions),
        RECOMMENDATION: _recommendations(reading, condition),
    }
    return {a: values[a] for a in CONDITION_ATTRIBUTES[condition]}


def report_extraction(reading: ReportReading, conditions: list[str]) -> ClearReportExtraction:
    """The schema record: presence for all 13, attributes for ``conditions`` (positives)."""
    return ClearReportExtraction(presence=dict(reading.presence),
                                 attributes={c: condition_attributes(reading, c)
                                             for c in conditions})


# --------------------------------------------------------------------------- extractor


class ClearRulesExtractor(PairwiseExtractor[ClearPairExtraction]):
    """The deterministic CLEAR extractor (``kind = "rules"``)."""

    kind: ExtractorKind = "rules"
    cpu_bound = True  # pure Python: may run in worker processes

    def model(self) -> ModelInfo:
        return ModelInfo(id=READER_RULES_VERSION, source="rules: engine/reader + engine/data/lexicons",
                         demo_grade=False, device="cpu",
                         detail={"reader": READER_NAME, "reader_version": READER_VERSION,
                                 "lexicon": lexicon_hash(*CLEAR_LEXICONS)})

    def signature_fields(self) -> dict[str, Any]:
        return {"extractor": "rules", "reader": READER_NAME, "reader_version": READER_VERSION,
                "rules": READER_RULES_VERSION, "lexicon": lexicon_hash(*CLEAR_LEXICONS)}

    def extract_pair(self, pair: ReportPair) -> Extracted[ClearPairExtraction]:
        return Extracted(self.read_pair(pair))

    def read_pair(self, pair: ReportPair) -> ClearPairExtraction:
        """Stage 1 for both reports, then the attributes of the true positives."""
        reference, candidate = read_report(pair.reference), read_report(pair.candidate)
        true_positives = [c for c in CONDITIONS if reference.presence[c] == "positive"
                          and candidate.presence[c] == "positive"]
        return ClearPairExtraction(reference=report_extraction(reference, true_positives),
                                   candidate=report_extraction(candidate, true_positives))


def build_extractor(ctx: Any = None) -> ClearRulesExtractor:
    """The ``rules`` entry of the ``clear`` extractor table (``clear.metric.EXTRACTORS``)."""
    return ClearRulesExtractor()
