"""Two systems' results on the same references, compared metric by metric: one answer for the
CLI (``radscope compare``) and the app.

Per metric: the mean per-pair score of both systems with bootstrap intervals, B - A with its
paired bootstrap interval and p-value (``radscope.engine.statistics.mean_bca.paired_comparison``), and every corpus
figure of the metric (CLEAR F1@13, F1-SRR-BERT micro/macro, RadSEM class F1, ...) compared on
the same pairs (``radscope.engine.statistics.record_percentile.paired_figures``). Each figure's direction is declared by
its metric (``CorpusStatistics.directions``: error counts are lower-better, counts of pairs or
sentences descriptive and given no verdict), and each has exactly one method: one paired
bootstrap gives its interval and its p-value (the interval read backwards,
``radscope.engine.statistics.inverted_p``), so an interval that excludes 0 always sits beside
p < 0.05 and a verdict; the figure that is the per-pair mean is not compared twice. The verdict is
withheld when the two systems were scored under different signatures (the difference may be
the set-up's, not the systems'), and for demo-grade metrics unless ``include_demo``: their
differences are noise about nothing.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from radscope.engine.metrics.framework.signature import parse_signature, signature_differences
from radscope.engine.metrics.framework.statistics_by_metric import statistics_for
from radscope.engine.statistics import mean_bca as stats
from radscope.engine.statistics import record_percentile as corpus_stats

ALPHA = 0.05
LEFT_OUT_DEMO = "left out: demo-grade model"
NO_DIFFERENCE = "no significant difference"
DESCRIPTIVE = "descriptive: no verdict"
P_METHOD = "paired bootstrap: the interval's own p-value"


def _results(rows: Iterable[Mapping[str, Any]], metric: str) -> dict[str, Mapping[str, Any]]:
    """Pair id -> the metric's result in that row (rows without one are skipped)."""
    out = {}
    for row in rows:
        result = (row.get("metrics") or {}).get(metric)
        if result is not None:
            out[str(row["id"])] = result
    return out


def _scored(result: Mapping[str, Any] | None) -> bool:
    return (result is not None and result.get("error") is None
            and isinstance(result.get("score"), (int, float)))


def verdict(diff: float | None, p_value: float | None, direction: str) -> str:
    """"A better" / "B better" at p < 0.05 in the metric's direction, else no difference."""
    if diff is None or p_value is None:
        return "—"
    if p_value >= ALPHA or diff == 0:
        return NO_DIFFERENCE
    better = "B" if (diff > 0) == (direction == "higher") else "A"
    return f"{better} better (p < 0.05)"


def setup_check(results_a: Iterable[Mapping[str, Any]], results_b: Iterable[Mapping[str, Any]]
                ) -> dict[str, Any]:
    """Whether both systems were scored under one and the same signature; if not, the
    signatures and (when each side has one) the fields on which they differ."""
    sig_a = sorted({r["signature"] for r in results_a if r.get("signature")})
    sig_b = sorted({r["signature"] for r in results_b if r.get("signature")})
    if not sig_a and not sig_b:
        return {"same_setup": None}  # nothing recorded to compare
    if len(sig_a) == 1 and sig_a == sig_b:
        return {"same_setup": True, "signature": sig_a[0]}
    out: dict[str, Any] = {"same_setup": False, "signatures": {"a": sig_a, "b": sig_b}}
    if len(sig_a) == 1 and len(sig_b) == 1:
        out["signature_differences"] = signature_differences(sig_a[0], sig_b[0])
    return out


def _withheld(setup: Mapping[str, Any], demo: bool, include_demo: bool) -> str | None:
    if demo and not include_demo:
        return LEFT_OUT_DEMO
    if setup["same_setup"] is False:
        fields = ", ".join(setup.get("signature_differences") or {}) or "signature"
        return f"no verdict: set-ups differ ({fields})"
    return None


def compare_metric(rows_a: Sequence[Mapping[str, Any]], rows_b: Sequence[Mapping[str, Any]],
                   metric: str, direction: str = "higher", include_demo: bool = False,
                   n_resamples: int = stats.DEFAULT_RESAMPLES, seed: int = stats.DEFAULT_SEED,
                   figure_resamples: int = corpus_stats.FIGURE_RESAMPLES) -> dict[str, Any]:
    """One metric of ``compare_systems``."""
    a, b = _results(rows_a, metric), _results(rows_b, metric)
    ids = [i for i in a if i in b]
    setup = setup_check(a.values(), b.values())
    demo = any(r.get("demo_grade") for r in (*a.values(), *b.values()))
    scores_a = [a[i].get("score") if _scored(a[i]) else None for i in ids]
    scores_b = [b[i].get("score") if _scored(b[i]) else None for i in ids]
    paired = stats.paired_comparison(scores_a, scores_b, n_resamples=n_resamples, seed=seed)
    withheld = _withheld(setup, demo, include_demo)
    out: dict[str, Any] = {
        "metric": metric, "direction": direction, "demo_grade": demo, "pairs_in_both": len(ids),
        **setup,
        "a": stats.bootstrap_mean_ci(scores_a, n_resamples=n_resamples, seed=seed).to_json(),
        "b": stats.bootstrap_mean_ci(scores_b, n_resamples=n_resamples, seed=seed).to_json(),
        "paired": {**paired.to_json(), "p_method": P_METHOD},
        "verdict": withheld or verdict(paired.mean_diff, paired.p_value, direction),
        "figures": {},
    }
    if withheld == LEFT_OUT_DEMO:
        return out  # no figure tests for numbers that are not measurements
    both = [i for i in ids if _scored(a[i]) and _scored(b[i])]
    _compare_figures(out, [a[i] for i in both], [b[i] for i in both], both, withheld,
                     n_resamples=figure_resamples, seed=seed)
    return out


def _compare_figures(out: dict[str, Any], a: Sequence[Mapping[str, Any]],
                     b: Sequence[Mapping[str, Any]], pair_ids: Sequence[str], withheld: str | None,
                     n_resamples: int, seed: int) -> None:
    """The metric's corpus figures, A against B over the pairs both scored, into ``out``
    (``figures`` and ``headline``, or ``figures_error`` when the records cannot be read)."""
    spec = statistics_for(out["metric"])
    direction = out["direction"]
    try:
        records_a = corpus_stats.RecordTable(spec.record, [spec.from_result(r, pair=i)
                                                           for r, i in zip(a, pair_ids, strict=True)])
        records_b = corpus_stats.RecordTable(spec.record, [spec.from_result(r, pair=i)
                                                           for r, i in zip(b, pair_ids, strict=True)])
        options = parse_signature(out["signature"]) if out.get("signature") else {}
        compared = corpus_stats.paired_figures(spec, records_a, records_b, options,
                                               n_resamples=n_resamples, seed=seed)
    except (corpus_stats.StatsError, ValueError, KeyError) as exc:
        out["figures_error"] = f"{type(exc).__name__}: {exc}"
        return
    for name, c in compared.items():
        if name == spec.score_figure_for(options):
            continue  # the per-pair score's mean: compared above, with its one p-value
        declared = spec.direction_of(name)
        figure_direction = direction if declared == "metric" else str(declared)
        out["figures"][name] = {**c.to_json(), "direction": figure_direction,
                                "verdict": withheld or figure_verdict(c.diff, c.p_value,
                                                                      figure_direction)}
    out["headline"] = [name for name in spec.headline if name in out["figures"]]


def figure_verdict(diff: float | None, p_value: float | None, direction: str) -> str:
    """A figure's verdict in its declared direction; none for a descriptive figure."""
    if direction == "descriptive":
        return DESCRIPTIVE
    return verdict(diff, p_value, direction)


def compare_systems(rows_a: Sequence[Mapping[str, Any]], rows_b: Sequence[Mapping[str, Any]],
                    metrics: Sequence[str], include_demo: bool = False,
                    directions: Mapping[str, str] | None = None,
                    n_resamples: int = stats.DEFAULT_RESAMPLES, seed: int = stats.DEFAULT_SEED,
                    figure_resamples: int = corpus_stats.FIGURE_RESAMPLES) -> dict[str, dict[str, Any]]:
    """Metric name -> comparison of system B against system A (rows as the CLI writes them:
    ``{"id": ..., "metrics": {name: result}}``; pairs matched by id, pairs that either system
    failed left out). ``directions`` gives each metric's better direction (the CLI and the app
    pass their registry's cards'; default: the rows' ``direction``, else higher)."""
    out = {}
    for metric in metrics:
        direction = (directions or {}).get(metric) or _direction(rows_a, metric)
        out[metric] = compare_metric(rows_a, rows_b, metric, direction, include_demo,
                                     n_resamples, seed, figure_resamples)
    return out


def _direction(rows: Sequence[Mapping[str, Any]], metric: str) -> str:
    for result in _results(rows, metric).values():
        if result.get("direction") in ("higher", "lower"):
            return str(result["direction"])
    return "higher"
