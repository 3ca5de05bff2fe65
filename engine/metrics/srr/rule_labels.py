"""SRR labels from rules: the 55 SRR-BERT leaves, each Present / Uncertain / Absent.

Every FINDINGS + IMPRESSION sentence of a report is cut into the reader's clauses
(``reader.clauses``, the same ones CLEAR's rules read); each leaf's mentions
(``srr_leaves.json``, sharing CLEAR's condition words and exclusions where the two overlap)
are read with the clause's negation / uncertainty scope. A
sentence that denies a CLEAR condition without naming it ("heart size is normal") gives the
matching leaves Absent; a sentence that names no leaf and states a normal study ("no acute
cardiopulmonary process") gives "No Finding" instead.
The labels per sentence are kept, so the SRR panel shows where each came from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from radscope.engine.reader.attributes.certainty import NEGATIVE, UNCERTAIN
from radscope.engine.reader.clauses import Clause, sentence_clauses
from radscope.engine.reader.findings import ReportReading
from radscope.engine.reader.vocabulary.alternation import Alternation, AlternationSet
from radscope.engine.reader.vocabulary.loader import load
from radscope.models.srr_labels import ABSENT, NO_FINDING, PRESENT, LabelLevel, labels_for

STATUS = {NEGATIVE: ABSENT, UNCERTAIN: "Uncertain"}
ORGAN_REACH_CHARS = 40  # an organ this close to a mention places it ("nodule in the liver")
_RANK = {ABSENT: 1, "Uncertain": 2, PRESENT: 3}


@dataclass(frozen=True, eq=False)
class LeafRule:
    leaf: str
    mentions: Alternation
    exclude: Alternation
    requires: Alternation | None
    implicit: Alternation | None
    fallback_group: str | None  # label even without ``requires`` when no sibling matched
    chest_only: bool  # not given when the clause names an organ outside the chest


@lru_cache(maxsize=1)
def leaf_rules() -> tuple[tuple[LeafRule, ...], Alternation, Alternation]:
    """Compiled leaf rules (checked against the SRR-BERT vocabulary), the No Finding cue and
    the organs outside the chest."""
    data = load("srr_leaves")
    clear = load("clear_conditions")
    conditions = clear["conditions"]
    implicit: dict[str, list[str]] = {c: list(v.get("implicit_negative", []))
                                      for c, v in conditions.items()}
    for group in clear["implicit_groups"]:
        for condition in group["conditions"]:
            implicit[condition].extend(group["patterns"])
    position = data["position_problem"]
    rules = []
    for leaf, spec in data["leaves"].items():
        shared = conditions.get(spec.get("clear", ""), {})
        mentions = list(spec.get("mentions", [])) + (
            list(shared.get("mentions", [])) if spec.get("clear_mentions") else [])
        requires = list(spec.get("requires", [])) + (position if spec.get(
            "requires_position_problem") else [])
        imp = implicit.get(spec.get("clear_implicit", ""), [])
        rules.append(LeafRule(
            leaf=leaf, mentions=Alternation(mentions),
            exclude=Alternation(list(spec.get("exclude", [])) + list(shared.get("exclude", []))),
            requires=Alternation(requires) if requires else None,
            implicit=Alternation(imp) if imp else None,
            fallback_group=spec.get("fallback_for"), chest_only=bool(spec.get("chest_only"))))
    known = set(labels_for(LabelLevel.LEAVES)) - {NO_FINDING}
    named = {r.leaf for r in rules}
    if named != known:
        raise ValueError(f"srr_leaves.json must name exactly the 54 SRR-BERT finding leaves; "
                         f"missing {sorted(known - named)}, unknown {sorted(named - known)}")
    return tuple(rules), Alternation(data["no_finding"]), Alternation(data["outside_chest"])


@lru_cache(maxsize=50000)
def sentence_labels(sentence: str) -> tuple[str, ...]:
    """Leaf-with-status labels of one sentence (sorted); the strongest status per leaf wins."""
    rules, no_finding, outside_chest = leaf_rules()
    best: dict[str, str] = {}
    explicit = False  # a leaf named in the sentence (not only implied by a normal statement)
    for clause in sentence_clauses(sentence):
        explicit |= _clause_labels(clause, rules, outside_chest, best)
    if not explicit and no_finding.search(sentence.lower()):
        return (NO_FINDING,)
    return tuple(sorted(f"{leaf} ({status})" for leaf, status in best.items()))


def _clause_labels(clause: Clause, rules: tuple[LeafRule, ...], outside_chest: Alternation,
                   best: dict[str, str]) -> bool:
    """Put the clause's leaves with their status into ``best``; whether it names a leaf."""
    lower = clause.lower
    fallbacks: dict[str, tuple[LeafRule, str]] = {}
    fired: set[str] = set()
    explicit = False
    organs = [m.span() for m in outside_chest.finditer(lower)]
    mentioned = _mention_set().possible(lower)
    for number, rule in enumerate(rules):
        found = _mentions(rule, lower, organs) if number in mentioned else []
        if not found:
            if rule.implicit is not None and rule.implicit.search(lower):
                _put(best, rule.leaf, ABSENT)
            continue
        explicit = True
        status = max((STATUS.get(clause.status(m.start(), m.end()), PRESENT) for m in found),
                     key=_RANK.__getitem__)
        if rule.requires is not None and not rule.requires.search(lower):
            if rule.fallback_group:
                fallbacks[rule.fallback_group] = (rule, status)
            continue
        fired.add(rule.leaf)
        _put(best, rule.leaf, status)
    for rule, status in fallbacks.values():
        siblings = {r.leaf for r in rules if r.fallback_group is None and r.requires
                    and r.mentions.pattern == rule.mentions.pattern}
        if not (fired & siblings):
            _put(best, rule.leaf, status)
    return explicit


def _mentions(rule: LeafRule, lower: str, organs: list[tuple[int, int]]) -> list[re.Match[str]]:
    """The rule's mentions in the clause, without those near an organ outside the chest (for a
    chest-only leaf) and those inside an excluded phrase."""
    found = list(rule.mentions.finditer(lower))
    if rule.chest_only and organs:
        found = [m for m in found if not _near(m.span(), organs)]
    if found:
        excluded = [m.span() for m in rule.exclude.finditer(lower)]
        found = [m for m in found
                 if not any(s <= m.start() and m.end() <= e for s, e in excluded)]
    return found


def _put(best: dict[str, str], leaf: str, status: str) -> None:
    if _RANK[status] > _RANK.get(best.get(leaf, ""), 0):
        best[leaf] = status


@lru_cache(maxsize=1)
def _mention_set() -> AlternationSet:
    return AlternationSet([rule.mentions for rule in leaf_rules()[0]])


def _near(span: tuple[int, int], organs: list[tuple[int, int]]) -> bool:
    start, end = span
    return any(o_end >= start - ORGAN_REACH_CHARS and o_start <= end + ORGAN_REACH_CHARS
               for o_start, o_end in organs)


def report_labels(reading: ReportReading) -> tuple[list[str], list[tuple[str, tuple[str, ...]]]]:
    """A report's label set and the labels of each of its sentences.

    "No Finding" stays only when no sentence names a finding as present or uncertain (a normal
    impression beside an abnormal finding is not a normal study).
    """
    per_sentence = [(s, sentence_labels(s)) for s in reading.utterances]
    labels = {label for _, labs in per_sentence for label in labs}
    if any(not label.endswith(f"({ABSENT})") and label != NO_FINDING for label in labels):
        labels.discard(NO_FINDING)
    return sorted(labels), per_sentence
