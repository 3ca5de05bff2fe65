"""CLEAR's per-pair statistics record and every corpus figure computed from records.

A pair is summed up by its 13 presence labels on each side (packed base 3), which choice
attributes matched on each true-positive condition (bits), and the list-attribute similarities
of each true-positive condition. From these, the corpus presence F1s (per condition, @13, @5
for both top-5 sets, supported-only, micro, cell accuracy) and the attribute averages (micro,
condition- and report-averaged, per condition) are ratios of summed features; see
``radscope.engine.statistics.record_percentile``. The figures equal the straight reference on the same
pairs (``score_corpus`` in tests/reference/clear.py).

Bump ``STATS_VERSION`` when the record's meaning changes; stored results of another version
are then refused (and recomputed by a resumed run) instead of read under the new meaning.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from radscope.engine.metrics.clear.schema import (
    CHOICE_ATTRIBUTES,
    CONDITION_ATTRIBUTES,
    CONDITIONS,
    LIST_ATTRIBUTES,
    NEGATIVE,
    POSITIVE,
    PRESENCE_VALUES,
    TOP5,
    TOP5_DEFAULT,
    PresenceClass,
    top5_conditions,
)
from radscope.engine.statistics import record_percentile as cs

METRIC = "clear"
_LABEL_CODE = {label: i for i, label in enumerate(PRESENCE_VALUES)}
_N = len(CONDITIONS)
_INDEX = {c: i for i, c in enumerate(CONDITIONS)}
_LLM_STATUS = {"absent": 0, "ok": 1, "unparsable": 2}
_PER_LIST_ROW = 4  # bleu4, rouge_l, llm (NaN unless ok), llm status code
# Conditions that have choice attributes (Support Devices keeps only the two lists).
_HAS_CHOICE = np.array([CHOICE_ATTRIBUTES[0] in CONDITION_ATTRIBUTES[c] for c in CONDITIONS])


@dataclass(frozen=True, slots=True)
class ClearStats:
    """One pair: presence labels (base 3 over CONDITIONS, digit = index in PRESENCE_VALUES),
    choice matches (bit a * 13 + condition), and per true-positive condition (in CONDITIONS
    order) and list attribute: bleu4, rouge_l, llm (NaN unless judged), llm status code."""

    METRIC: ClassVar[str] = METRIC
    STATS_VERSION: ClassVar[int] = 1
    score: float
    degenerate: int
    reference_cells: int
    candidate_cells: int
    choice_matches: int
    list_values: tuple[float, ...]

    @classmethod
    def from_result(cls, payload: Mapping[str, Any], pair: str = "?") -> ClearStats:
        cs.check_version(METRIC, payload, cls, pair)
        ref = _labels(payload, pair, "reference_presence")
        cand = _labels(payload, pair, "candidate_presence")
        tps = [c for c in CONDITIONS if ref[c] == POSITIVE and cand[c] == POSITIVE]
        matches, seen = _choice_matches(payload, pair, tps)
        lists = _list_rows(payload, pair, tps)
        expected = {(c, a) for c in tps for a in CONDITION_ATTRIBUTES[c] if a in CHOICE_ATTRIBUTES}
        wanted = {(c, a) for c in tps for a in LIST_ATTRIBUTES}
        if seen != expected or set(lists) != wanted:
            raise cs.StatsError(f"{METRIC}: pair {pair}: attribute rows do not cover the true "
                                f"positives {tps} exactly")
        return cls(
            score=cs.number(METRIC, pair, "score", payload.get("score")),
            degenerate=int(bool(cs.require(METRIC, payload, pair, "pos_f1_degenerate"))),
            reference_cells=_pack(ref), candidate_cells=_pack(cand), choice_matches=matches,
            list_values=tuple(v for c in tps for a in LIST_ATTRIBUTES for v in lists[(c, a)]))


def _choice_matches(payload: Mapping[str, Any], pair: str,
                    tps: list[str]) -> tuple[int, set[tuple[str, str]]]:
    """The choice rows as match bits (attribute * 13 + condition), and the (condition,
    attribute) keys they cover; a row outside the true positives' choice attributes is refused."""
    matches = 0
    seen = set()
    for row in cs.require(METRIC, payload, pair, "choice_rows"):
        condition, attribute = row.get("condition"), row.get("attribute")
        if condition not in tps or attribute not in CHOICE_ATTRIBUTES:
            raise cs.StatsError(f"{METRIC}: pair {pair}: choice row {condition!r}/{attribute!r} "
                                "is not a choice attribute of a true positive")
        seen.add((condition, attribute))
        if row.get("reference") == row.get("candidate"):
            matches |= 1 << (CHOICE_ATTRIBUTES.index(attribute) * _N + _INDEX[condition])
    return matches, seen


def _list_rows(payload: Mapping[str, Any], pair: str,
               tps: list[str]) -> dict[tuple[str, str], tuple[float, ...]]:
    """(condition, attribute) -> bleu4, rouge_l, llm (NaN unless judged), llm status code, for
    each list row; a row outside the true positives' list attributes is refused."""
    lists: dict[tuple[str, str], tuple[float, ...]] = {}
    for row in cs.require(METRIC, payload, pair, "list_rows"):
        key = (row.get("condition"), row.get("attribute"))
        status = row.get("llm_status", "absent")
        if key[0] not in tps or key[1] not in LIST_ATTRIBUTES or status not in _LLM_STATUS:
            raise cs.StatsError(f"{METRIC}: pair {pair}: list row {key[0]!r}/{key[1]!r} "
                                f"(llm_status {status!r}) does not fit a true positive")
        llm = (cs.number(METRIC, pair, "list_rows.llm", row.get("llm"))
               if status == "ok" else math.nan)
        lists[key] = (cs.number(METRIC, pair, "list_rows.bleu4", row.get("bleu4")),
                      cs.number(METRIC, pair, "list_rows.rouge_l", row.get("rouge_l")),
                      llm, float(_LLM_STATUS[status]))
    return lists


def _labels(payload: Mapping[str, Any], pair: str, name: str) -> dict[str, str]:
    labels = cs.require(METRIC, payload, pair, name)
    if not isinstance(labels, Mapping) or set(labels) != set(CONDITIONS):
        raise cs.StatsError(f"{METRIC}: pair {pair}: field {name!r} must label the 13 conditions")
    bad = [c for c in CONDITIONS if labels[c] not in _LABEL_CODE]
    if bad:
        raise cs.StatsError(f"{METRIC}: pair {pair}: field {name!r} has unknown labels for {bad}")
    return dict(labels)


def _pack(labels: Mapping[str, str]) -> int:
    return sum(_LABEL_CODE[labels[c]] * 3 ** i for i, c in enumerate(CONDITIONS))


def _unpack(packed: np.ndarray) -> np.ndarray:
    """(m,) packed labels -> (m, 13) label codes."""
    return (packed[:, None] // (3 ** np.arange(_N, dtype=np.int64))[None, :]) % 3


# --- features -------------------------------------------------------------------------------
# 0 pairs, 1 score, 2 degenerate, 3 pairs with attribute rows; then per class (positive,
# negative): TP, reference, candidate per condition; then per choice attribute: matches per
# condition, pair mean, pair has rows; then per list attribute: bleu4, rouge_l, llm, llm ok,
# llm unparsable per condition, pair means of bleu4, rouge_l, llm, has rows, has llm.

_PRESENCE = 4
_CHOICE = _PRESENCE + 2 * 3 * _N
_CHOICE_WIDTH = _N + 2
_LIST = _CHOICE + len(CHOICE_ATTRIBUTES) * _CHOICE_WIDTH
_LIST_WIDTH = 5 * _N + 5
_WIDTH = _LIST + len(LIST_ATTRIBUTES) * _LIST_WIDTH


def features(table: cs.RecordTable, start: int, stop: int, options: cs.Options) -> np.ndarray:
    m = stop - start
    out = np.zeros((m, _WIDTH))
    out[:, 0] = 1.0
    out[:, 1] = table.column("score", start, stop)
    out[:, 2] = table.column("degenerate", start, stop)
    ref = _unpack(table.column("reference_cells", start, stop))
    cand = _unpack(table.column("candidate_cells", start, stop))
    tp_mask = (ref == _LABEL_CODE[POSITIVE]) & (cand == _LABEL_CODE[POSITIVE])
    n_tp = tp_mask.sum(axis=1)
    out[:, 3] = n_tp > 0
    for k, label in enumerate((POSITIVE, NEGATIVE)):
        truth, pred = ref == _LABEL_CODE[label], cand == _LABEL_CODE[label]
        base = _PRESENCE + 3 * _N * k
        out[:, base:base + _N] = truth & pred
        out[:, base + _N:base + 2 * _N] = truth
        out[:, base + 2 * _N:base + 3 * _N] = pred
    matches = table.column("choice_matches", start, stop)
    choice_rows = tp_mask & _HAS_CHOICE[None, :]
    n_choice = choice_rows.sum(axis=1)
    for k in range(len(CHOICE_ATTRIBUTES)):
        bits = (matches[:, None] >> (k * _N + np.arange(_N))[None, :]) & 1
        base = _CHOICE + k * _CHOICE_WIDTH
        out[:, base:base + _N] = bits
        out[:, base + _N] = cs.ratio(bits.sum(axis=1), n_choice, 0.0)
        out[:, base + _N + 1] = n_choice > 0
    values, lengths = table.ragged("list_values", start, stop)
    rows = values.reshape(-1, len(LIST_ATTRIBUTES), _PER_LIST_ROW)  # one per true positive
    owner = np.repeat(np.arange(m), lengths // (len(LIST_ATTRIBUTES) * _PER_LIST_ROW))
    condition = np.nonzero(tp_mask)[1]  # true positives in row order, CONDITIONS order within
    for k in range(len(LIST_ATTRIBUTES)):
        base = _LIST + k * _LIST_WIDTH
        part = rows[:, k, :]
        ok = part[:, 3] == _LLM_STATUS["ok"]
        llm = np.where(ok, part[:, 2], 0.0)
        for j, column in enumerate((part[:, 0], part[:, 1], llm, ok, part[:, 3] == 2)):
            np.add.at(out, (owner, base + j * _N + condition), column)
        n_ok = np.bincount(owner, weights=ok, minlength=m)
        out[:, base + 5 * _N] = cs.ratio(np.bincount(owner, part[:, 0], m), n_tp, 0.0)
        out[:, base + 5 * _N + 1] = cs.ratio(np.bincount(owner, part[:, 1], m), n_tp, 0.0)
        out[:, base + 5 * _N + 2] = cs.ratio(np.bincount(owner, llm, m), n_ok, 0.0)
        out[:, base + 5 * _N + 3] = n_tp > 0
        out[:, base + 5 * _N + 4] = n_ok > 0
    return out


# --- figures --------------------------------------------------------------------------------


def _presence(sums: np.ndarray, k: int, top5: str, prefix: str) -> dict[str, np.ndarray]:
    label: PresenceClass = POSITIVE if k == 0 else NEGATIVE
    p = "pos" if k == 0 else "neg"
    base = _PRESENCE + 3 * _N * k
    tp = sums[:, base:base + _N]
    in_class = sums[:, base + _N:base + 2 * _N] + sums[:, base + 2 * _N:base + 3 * _N]
    f1 = cs.ratio(2.0 * tp, in_class, 0.0)
    supported = in_class > 0
    five = [_INDEX[c] for c in top5_conditions(top5, label)]
    n = sums[:, 0]
    total_in, total_tp = in_class.sum(axis=1), tp.sum(axis=1)
    out = {
        f"{p}_f1@13": np.mean(f1, axis=1),
        f"{p}_f1@5": np.mean(f1[:, five], axis=1),
        f"{p}_f1@13_supported": cs.masked_mean(f1, supported),
        f"{p}_f1@5_supported": cs.masked_mean(f1[:, five], supported[:, five]),
        f"{p}_micro_f1": cs.ratio(2.0 * total_tp, total_in),
        f"{p}_cell_accuracy": cs.ratio(_N * n - total_in + 2.0 * total_tp, _N * n),
    }
    for i, c in enumerate(CONDITIONS):
        out[f"{p}_f1_per_condition.{c}"] = np.where(supported[:, i], f1[:, i], np.nan)
    return {f"{prefix}.{name}": v for name, v in out.items()}


def _averages(prefix: str, values: np.ndarray, rows: np.ndarray, pair_sum: np.ndarray,
              pairs: np.ndarray) -> dict[str, np.ndarray]:
    """Averages.of over (B, 13) summed values and row counts."""
    per_condition = cs.ratio(values, rows)
    has = rows > 0
    out = {f"{prefix}.micro": cs.ratio(values.sum(axis=1), rows.sum(axis=1)),
           f"{prefix}.condition_averaged": cs.masked_mean(per_condition, has),
           f"{prefix}.report_averaged": cs.ratio(pair_sum, pairs),
           f"{prefix}.n_rows": rows.sum(axis=1)}
    for i, c in enumerate(CONDITIONS):
        out[f"{prefix}.per_condition.{c}"] = per_condition[:, i]
    return out


def figures(sums: np.ndarray, options: cs.Options) -> dict[str, np.ndarray]:
    top5 = options.get("top5", TOP5_DEFAULT)
    other = next(name for name in TOP5 if name != top5)
    out: dict[str, np.ndarray] = {"presence.n_pairs": sums[:, 0]}
    for k in (0, 1):
        out.update(_presence(sums, k, top5, "presence"))
        out.update(_presence(sums, k, other, "presence_other_top5"))
    out["presence_other_top5.n_pairs"] = sums[:, 0]
    tp_pos = sums[:, _PRESENCE:_PRESENCE + _N]
    for k, attribute in enumerate(CHOICE_ATTRIBUTES):
        base = _CHOICE + k * _CHOICE_WIDTH
        out.update(_averages(f"choice.{attribute}", sums[:, base:base + _N],
                             np.where(_HAS_CHOICE[None, :], tp_pos, 0.0),
                             sums[:, base + _N], sums[:, base + _N + 1]))
    for k, attribute in enumerate(LIST_ATTRIBUTES):
        base = _LIST + k * _LIST_WIDTH
        block = [sums[:, base + j * _N:base + (j + 1) * _N] for j in range(5)]
        tail = base + 5 * _N
        out.update(_averages(f"lists.{attribute}.bleu4", block[0], tp_pos, sums[:, tail],
                             sums[:, tail + 3]))
        out.update(_averages(f"lists.{attribute}.rouge_l", block[1], tp_pos, sums[:, tail + 1],
                             sums[:, tail + 3]))
        out.update(_averages(f"lists.{attribute}.llm", block[2], block[3], sums[:, tail + 2],
                             sums[:, tail + 4]))
        out[f"lists.{attribute}.llm_unparsable"] = block[4].sum(axis=1)
        out[f"lists.{attribute}.n_rows"] = tp_pos.sum(axis=1)
    out["n_pairs"] = sums[:, 0]
    out["n_pairs_with_rows"] = sums[:, 3]
    out["mean_pair_score"] = cs.ratio(sums[:, 1], sums[:, 0])
    out["n_degenerate_pairs"] = sums[:, 2]
    return out


_COUNTS = ("n_pairs", "n_rows", "llm_unparsable", "n_pairs_with_rows", "n_degenerate_pairs")


def nest(figs: Mapping[str, float], table: cs.RecordTable, options: cs.Options) -> dict[str, Any]:
    """The nested corpus dict the ``clear`` metric has always shown (None for undefined figures;
    per-condition attribute averages only for conditions with rows)."""
    if not figs:
        return {}
    top5 = options.get("top5", TOP5_DEFAULT)
    other = next(name for name in TOP5 if name != top5)
    out: dict[str, Any] = {}
    for name, value in figs.items():
        *path, leaf = name.split(".")
        if "per_condition" in path and not path[0].startswith("presence") and math.isnan(value):
            continue
        node = out
        for key in path:
            node = node.setdefault(key, {})
        node[leaf] = int(value) if leaf in _COUNTS else cs.optional(value)
    for block, chosen in (("presence", top5), ("presence_other_top5", other)):
        node = out[block]
        node["top5_set"] = chosen
        node["pos_top5"] = top5_conditions(chosen, POSITIVE)
        node["neg_top5"] = top5_conditions(chosen, NEGATIVE)
    # Averages always carry a per_condition dict, empty when no condition has a row.
    for attribute in CHOICE_ATTRIBUTES:
        out["choice"][attribute].setdefault("per_condition", {})
    for attribute in LIST_ATTRIBUTES:
        for similarity in ("bleu4", "rouge_l", "llm"):
            out["lists"][attribute][similarity].setdefault("per_condition", {})
    out["top5_sets"] = {name: {POSITIVE: sets[POSITIVE], NEGATIVE: sets[NEGATIVE]}
                        for name, sets in TOP5.items()}
    return out


def aggregate(stats: Sequence[ClearStats], options: cs.Options) -> dict[str, float]:
    """Every CLEAR corpus figure of these pairs (flat names, NaN where undefined)."""
    return cs.aggregate(SPEC, stats, options)


SPEC = cs.CorpusStatistics(
    METRIC, ClearStats, ClearStats.from_result, features, figures, nest,
    headline=("presence.pos_f1@13", "presence.pos_f1@5"),
    directions=(("*n_pairs*", "descriptive"), ("*n_rows", "descriptive"),
                ("n_degenerate_pairs", "descriptive"), ("*.llm_unparsable", "descriptive"),
                ("mean_pair_score", "metric"), ("presence*", "higher"), ("choice.*", "higher"),
                ("lists.*", "higher")),
    score_figure="mean_pair_score")
