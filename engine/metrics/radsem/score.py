"""RadSEM stage 3: turn stage-2 tags into class F1s and the final score (pure, deterministic).

Follows the project spec (metrics.md §5) and the reference scorer at the RadSEM repository's
HEAD (max-flow matching, the penalty for partial matches when nothing is unmatched, class
weights renormalised over the classes present). Scores of the repository's first scorer
(plain sum of weights, fixed 0.9/0.1) are not comparable with these.

Why max-flow: a model may pair one sentence with several on the other side. Giving every
sentence one unit of capacity means a sentence can never be "matched" more than once, so
many-to-many pairs cannot inflate the matched mass M.

One deliberate difference from the reference code: for the partial-match penalty it averages
the weight of the *first* occurrence of a duplicated (Ref, Gen) text pair, while its max-flow
uses the *highest*. Here both use the highest weight, as the spec says; the two agree unless a
model repeats a text pair with different tags.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from radscope.engine.metrics.radsem.flow import FlowNetwork
from radscope.engine.metrics.radsem.schema import SIDES, RadsemPair, RadsemTags

ABNORMAL, NORMAL = "abnormal", "normal"
CLASSES = (ABNORMAL, NORMAL)
CLASS_WEIGHTS = {ABNORMAL: 0.9, NORMAL: 0.1}
PART_WHOLE_RELATIONS = ("anatomical_relationship", "asserted_abnormality_relationship",
                        "negated_abnormality_relationship")
DETAIL_FACTORS = {"partial": 0.75, "none": 0.5}
PENALTY_SCALE = 0.25  # lambda = PENALTY_SCALE / sqrt(n unique pairs)
EPS = 1e-12

# Every weight (1/3)^k * d with k <= 3 and d in {1, 3/4, 1/2} is a whole number of 1/108ths,
# so the flow network runs on integer capacities and the max-flow is exact (no float drift).
_UNITS = 108
_DETAIL_QUARTERS = {"partial": 3, "none": 2}

RULE_F1 = "f1"  # something unmatched: 2M / (2M + U_ref + U_gen)
RULE_ALL_MATCHED = "all_matched"  # nothing unmatched, every pair weight 1: 1.0
RULE_PARTIAL_PENALTY = "partial_penalty"  # nothing unmatched, some weight < 1: 1 - lambda(1 - q)
RULE_ABSENT = "absent"  # no pair and no unmatched sentence of this class


def part_whole_count(pair: RadsemPair) -> int:
    """k: how many of the three relations are "part-whole"."""
    return sum(getattr(pair, name) == "part-whole" for name in PART_WHOLE_RELATIONS)


def pair_weight(pair: RadsemPair) -> float:
    """(1/3)^k x d, with d = 0.75 for partial details, 0.5 for none, else 1."""
    detail = DETAIL_FACTORS.get(pair.details_of_abnormality_relationship or "", 1.0)
    return (1.0 / 3.0) ** part_whole_count(pair) * detail


def _weight_units(pair: RadsemPair) -> int:
    quarters = _DETAIL_QUARTERS.get(pair.details_of_abnormality_relationship or "", 4)
    return (27 // 3 ** part_whole_count(pair)) * quarters


@dataclass
class ScoredPair:
    """One tagged pair as the scorer saw it: its weight, whether it counted, its share of M."""

    index: int  # position in the tags' pair list
    ref_sentence: str  # stripped: the node identity
    gen_sentence: str
    normality: str
    part_whole: int
    weight: float
    counted: bool
    reason: str | None = None  # why it did not count
    flow: float = 0.0  # the part of its weight used by one maximum flow (for the graph view)

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "ref_sentence": self.ref_sentence,
                "gen_sentence": self.gen_sentence, "normality": self.normality,
                "part_whole": self.part_whole, "weight": self.weight, "counted": self.counted,
                "reason": self.reason, "flow": self.flow}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoredPair:
        return cls(index=int(data["index"]), ref_sentence=str(data["ref_sentence"]),
                   gen_sentence=str(data["gen_sentence"]), normality=str(data["normality"]),
                   part_whole=int(data["part_whole"]), weight=float(data["weight"]),
                   counted=bool(data["counted"]), reason=data.get("reason"),
                   flow=float(data.get("flow", 0.0)))


@dataclass
class ClassScore:
    """Score of one normality class; ``f1`` is None when the class is absent."""

    normality: str
    present: bool
    n_pairs: int  # distinct (Ref, Gen) text pairs that counted
    matched: float  # M, the max-flow value
    unmatched_ref: int
    unmatched_gen: int
    mean_pair_weight: float | None  # q over the distinct pairs
    f1: float | None
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"normality": self.normality, "present": self.present, "n_pairs": self.n_pairs,
                "matched": self.matched, "unmatched_ref": self.unmatched_ref,
                "unmatched_gen": self.unmatched_gen, "mean_pair_weight": self.mean_pair_weight,
                "f1": self.f1, "rule": self.rule}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassScore:
        q, f1 = data.get("mean_pair_weight"), data.get("f1")
        return cls(normality=str(data["normality"]), present=bool(data["present"]),
                   n_pairs=int(data["n_pairs"]), matched=float(data["matched"]),
                   unmatched_ref=int(data["unmatched_ref"]),
                   unmatched_gen=int(data["unmatched_gen"]),
                   mean_pair_weight=None if q is None else float(q),
                   f1=None if f1 is None else float(f1), rule=str(data["rule"]))


@dataclass
class RadsemScore:
    """RadSEM for one report pair, with everything the alignment graph needs."""

    score: float
    abnormal: ClassScore
    normal: ClassScore
    pairs: list[ScoredPair] = field(default_factory=list)
    ignored_unmatched: list[int] = field(default_factory=list)  # unusable side or normality

    def class_score(self, normality: str) -> ClassScore:
        return {ABNORMAL: self.abnormal, NORMAL: self.normal}[normality]

    def to_json(self) -> dict[str, Any]:
        return {"score": self.score, "abnormal": self.abnormal.to_json(),
                "normal": self.normal.to_json(), "pairs": [p.to_json() for p in self.pairs],
                "ignored_unmatched": list(self.ignored_unmatched)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RadsemScore:
        return cls(score=float(data["score"]), abnormal=ClassScore.from_json(data["abnormal"]),
                   normal=ClassScore.from_json(data["normal"]),
                   pairs=[ScoredPair.from_json(p) for p in data.get("pairs", [])],
                   ignored_unmatched=[int(i) for i in data.get("ignored_unmatched", [])])


def score_tags(tags: RadsemTags) -> RadsemScore:
    """Stage 3 on one pair's tags. No usable pair or unmatched sentence -> score 0."""
    scored = _screen_pairs(tags.pairs)
    unmatched = {side: {c: 0 for c in CLASSES} for side in SIDES}
    ignored_unmatched = []
    for index, item in enumerate(tags.unmatched_sentences):
        if item.sentence_is_from in SIDES and item.normality in CLASSES:
            unmatched[item.sentence_is_from][item.normality] += 1
        else:
            ignored_unmatched.append(index)

    classes = {}
    for normality in CLASSES:
        counted = [p for p in scored if p.counted and p.normality == normality]
        units = {p.index: _weight_units(tags.pairs[p.index]) for p in counted}
        matched = _max_flow(counted, units)
        classes[normality] = _class_score(normality, counted, matched,
                                          unmatched["Ref"][normality], unmatched["Gen"][normality])

    present = [c for c in CLASSES if classes[c].present]
    total = sum(CLASS_WEIGHTS[c] for c in present)
    final = sum(CLASS_WEIGHTS[c] * f1 for c in present
                if (f1 := classes[c].f1) is not None) / total if present else 0.0  # present: f1 set
    return RadsemScore(score=_clamp(final), abnormal=classes[ABNORMAL], normal=classes[NORMAL],
                       pairs=scored, ignored_unmatched=ignored_unmatched)


def _screen_pairs(pairs: list[RadsemPair]) -> list[ScoredPair]:
    """Mark pairs that cannot count, and keep one pair per distinct text pair and class.

    The kept duplicate is the one with the highest weight (the earliest on a tie).
    """
    scored = []
    for index, pair in enumerate(pairs):
        item = ScoredPair(index=index, ref_sentence=(pair.ref_sentence or "").strip(),
                          gen_sentence=(pair.gen_sentence or "").strip(),
                          normality=pair.normality or "", part_whole=part_whole_count(pair),
                          weight=pair_weight(pair), counted=True)
        if pair.normality not in CLASSES:
            item.counted = False
            item.reason = f"normality {pair.normality!r} is not one of {list(CLASSES)}"
        elif not item.ref_sentence or not item.gen_sentence:
            item.counted, item.reason = False, "empty sentence"
        scored.append(item)

    def key(item: ScoredPair) -> tuple[str, str, str]:
        return item.normality, item.ref_sentence, item.gen_sentence

    best: dict[tuple[str, str, str], ScoredPair] = {}
    for item in scored:
        if item.counted and (key(item) not in best or item.weight > best[key(item)].weight):
            best[key(item)] = item
    for item in scored:
        if item.counted and best[key(item)] is not item:
            item.counted, item.reason = False, f"duplicate of pair {best[key(item)].index}"
    return scored


def _max_flow(pairs: list[ScoredPair], units: dict[int, int]) -> float:
    """M: source -> Ref sentence (cap 1) -> Gen sentence (cap w) -> sink (cap 1).

    Also stores on each pair the flow it carries in the maximum flow found (one of possibly
    several maximum flows; only the total is unique).
    """
    if not pairs:
        return 0.0
    if len({p.ref_sentence for p in pairs}) == len({p.gen_sentence for p in pairs}) == len(pairs):
        # No sentence in two pairs: the graph is disjoint source-ref-gen-sink paths, and the
        # only maximum flow fills each path to its narrowest edge (what dinitz finds, without
        # building the graph: most pairs of reports are matched one to one).
        for pair in pairs:
            pair.flow = min(_UNITS, units[pair.index]) / _UNITS
        return sum(min(_UNITS, units[p.index]) for p in pairs) / _UNITS
    network = FlowNetwork(edge for pair in pairs for edge in (
        ("source", ("ref", pair.ref_sentence), _UNITS), (("gen", pair.gen_sentence), "sink", _UNITS),
        (("ref", pair.ref_sentence), ("gen", pair.gen_sentence), units[pair.index])))
    value, flows = network.maximum_flow("source", "sink")
    for pair in pairs:
        pair.flow = flows[(("ref", pair.ref_sentence), ("gen", pair.gen_sentence))] / _UNITS
    return value / _UNITS


def _class_score(normality: str, pairs: list[ScoredPair], matched: float,
                 unmatched_ref: int, unmatched_gen: int) -> ClassScore:
    n = len(pairs)
    unmatched = unmatched_ref + unmatched_gen
    q = sum(p.weight for p in pairs) / n if n else None
    if n == 0 and unmatched == 0:
        return ClassScore(normality, False, 0, 0.0, 0, 0, None, None, RULE_ABSENT)
    if unmatched > 0:
        value, rule = 2 * matched / (2 * matched + unmatched), RULE_F1
    elif q is not None and any(p.weight < 1.0 - EPS for p in pairs):  # q is None only when n == 0
        value, rule = 1.0 - PENALTY_SCALE / math.sqrt(n) * (1.0 - q), RULE_PARTIAL_PENALTY
    else:
        value, rule = 1.0, RULE_ALL_MATCHED
    return ClassScore(normality, True, n, matched, unmatched_ref, unmatched_gen, q,
                      _clamp(value), rule)


def _clamp(value: float) -> float:
    return max(0.0, min(1.0, float(value)))
