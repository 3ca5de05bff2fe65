"""BLEU's per-pair statistics record (the sentence score and its n-gram counts) and its corpus
figures: corpus BLEU as sacreBLEU computes it (``corpus_bleu``: the clipped n-gram matches and
the candidate n-grams pooled over every pair, one brevity penalty from the pooled lengths,
sacreBLEU's default "exp" smoothing of an order without a match) beside the mean of per-pair
sentence BLEU (``mean``). Researchers quote the first; the second is what each pair's score
averages to. Both are on the 0-1 scale (sacreBLEU reports 0-100)."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from radscope.engine.statistics import record_percentile as cs

STATS_VERSION = 2  # 1 was the mean score alone (no record); 2 adds the n-gram counts


@dataclass(frozen=True, slots=True)
class BleuStats:
    """One pair's sentence BLEU, its clipped n-gram matches and candidate n-grams per order
    (1..n), and the candidate's and reference's lengths in tokens."""

    METRIC: ClassVar[str] = "bleu"
    STATS_VERSION: ClassVar[int] = STATS_VERSION
    score: float
    matches: tuple[float, ...]
    totals: tuple[float, ...]
    candidate_length: float
    reference_length: float


def _from_result(metric: str, payload: Mapping[str, Any], pair: str) -> BleuStats:
    cs.check_version(metric, payload, BleuStats, pair)

    def counts(key: str) -> tuple[float, ...]:
        values = cs.require(metric, payload, pair, key)
        if not isinstance(values, list):
            raise cs.StatsError(f"{metric}: pair {pair}: {key} is not a list")
        return tuple(cs.number(metric, pair, key, v) for v in values)

    return BleuStats(cs.number(metric, pair, "score", payload.get("score")), counts("ngram_matches"),
                     counts("ngram_totals"),
                     cs.number(metric, pair, "candidate_length", cs.require(metric, payload, pair, "candidate_length")),
                     cs.number(metric, pair, "reference_length", cs.require(metric, payload, pair, "reference_length")))


def corpus_bleu(matches: np.ndarray, totals: np.ndarray, candidate_length: np.ndarray,
                reference_length: np.ndarray) -> np.ndarray:
    """sacreBLEU's ``compute_bleu`` (smooth_method "exp", no effective order) on pooled counts,
    one row per set of counts: ``matches`` and ``totals`` are (B, n); the lengths (B,). 0-1."""
    rows, n = matches.shape
    out = np.empty(rows)
    for row in range(rows):
        logs, doubled = [], 1.0
        for order in range(n):
            total, matched = totals[row, order], matches[row, order]
            if total == 0:  # no n-grams of this order at all: sacreBLEU's precision stays 0
                logs.extend([-9999999999.0] * (n - order))
                break
            if matched == 0:
                doubled *= 2
                logs.append(math.log(100.0 / (doubled * total)))
            else:
                logs.append(math.log(100.0 * matched / total))
        sys_len, ref_len = candidate_length[row], reference_length[row]
        penalty = 1.0  # the brevity penalty: only a candidate side shorter than the references pays
        if sys_len < ref_len:
            penalty = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
        out[row] = penalty * math.exp(sum(logs) / n) / 100.0
    return out


def statistics(metric: str, n: int) -> cs.CorpusStatistics:
    """The statistics of the BLEU-``n`` metric named ``metric``."""

    def features(table: cs.RecordTable, start: int, stop: int, options: cs.Options) -> np.ndarray:
        matches, _ = table.ragged("matches", start, stop)
        totals, _ = table.ragged("totals", start, stop)
        return np.column_stack([np.ones(stop - start), table.column("score", start, stop),
                                table.column("candidate_length", start, stop),
                                table.column("reference_length", start, stop),
                                matches.reshape(-1, n), totals.reshape(-1, n)])

    def figures(sums: np.ndarray, options: cs.Options) -> dict[str, np.ndarray]:
        pooled = corpus_bleu(sums[:, 4:4 + n], sums[:, 4 + n:4 + 2 * n], sums[:, 2], sums[:, 3])
        return {"n_pairs": sums[:, 0], "mean": cs.ratio(sums[:, 1], sums[:, 0]),
                "corpus_bleu": np.where(sums[:, 0] > 0, pooled, math.nan)}

    def nest(figs: Mapping[str, float], table: cs.RecordTable, options: cs.Options) -> dict[str, Any]:
        if not figs:
            return {"n_pairs": 0, "corpus_bleu": None, "mean_sentence_bleu": None}
        return {"n_pairs": int(figs["n_pairs"]), "corpus_bleu": figs["corpus_bleu"],
                "mean_sentence_bleu": figs["mean"]}

    return cs.CorpusStatistics(metric, BleuStats, lambda payload, pair="?": _from_result(metric, payload, pair),
                               features, figures, nest, headline=("corpus_bleu",),
                               directions=(("mean", "metric"), ("corpus_bleu", "higher"),
                                           ("n_pairs", "descriptive")),
                               score_figure="mean")


def aggregate(spec: cs.CorpusStatistics, stats: Sequence[BleuStats], options: cs.Options) -> dict[str, float]:
    """Every corpus figure of these pairs (a test's way in)."""
    return cs.aggregate(spec, stats, options)
