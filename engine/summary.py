"""A run's corpus summary, built as results arrive so that no caller has to hold every row.

``SummaryBuilder.add_row`` takes one pair's results (metric name -> result JSON) as the runner
produces or reads them; ``summary`` gives the means with bootstrap intervals, the error,
cannot-read and not-applicable counts, each metric's corpus aggregates (``Metric.corpus``) and
the run's model-call counters. ``format_summary`` prints it for the terminal.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine import readable, stats
from engine.metrics.base import Metric, PairScore
from engine.results import pair_score_from_dict


class SummaryBuilder:
    """Collects per-pair results metric by metric and turns them into the summary dict."""

    def __init__(self, metrics: Sequence[Metric], signatures: Mapping[str, str] | None = None):
        self._metrics = list(metrics)
        self._signatures = dict(signatures or {})
        self._results: dict[str, list[PairScore]] = {m.name: [] for m in self._metrics}

    def add_row(self, row_metrics: Mapping[str, dict[str, Any]]) -> None:
        """One pair's results as written to the output (metric name -> result JSON)."""
        for name, payload in row_metrics.items():
            if name in self._results:
                self._results[name].append(pair_score_from_dict(payload))

    def summary(self, counters: Counter) -> dict[str, Any]:
        """Corpus summary: mean with bootstrap CI, errors, metric aggregates, and this run's
        model-call counters."""
        summary: dict[str, Any] = {"metrics": {}}
        for metric in self._metrics:
            per_pair = self._results[metric.name]
            summary["metrics"][metric.name] = self._metric_entry(metric, per_pair)
        # Named apart so that no reader takes a demo model's number for a measurement.
        summary["demo_grade_metrics"] = {name: m["model"] for name, m in summary["metrics"].items()
                                         if m["demo_grade"]}
        summary["model_calls"] = int(counters.get("model_calls", 0))  # LLM judge calls only
        summary["encoder_batches"] = int(counters.get("encoder_batches", 0))
        summary["cache_hits"] = int(counters.get("cache_hits", 0))
        for key in ("prompt_tokens", "completion_tokens"):
            if key in counters:
                summary[key] = int(counters[key])
        return summary

    def _metric_entry(self, metric: Metric, per_pair: Sequence[PairScore]) -> dict[str, Any]:
        ok = [r for r in per_pair if r.error is None and r.score is not None]
        ci = stats.bootstrap_mean_ci([r.score for r in ok])
        model = metric.model()
        unreadable = readable.count_cannot_read([r.error for r in per_pair])
        entry: dict[str, Any] = {
            "mean": ci.mean, "ci_low": ci.ci_low, "ci_high": ci.ci_high,
            "n": ci.n, "n_errors": sum(1 for r in per_pair if r.error is not None) - unreadable,
            "n_cannot_read": unreadable,
            "n_not_applicable": sum(1 for r in per_pair if r.details.get("not_applicable")),
            "direction": metric.direction,
            "range": list(metric.card.range),
            "signature": self._signatures.get(metric.name) or metric.signature(),
            "model": model.id if model else None,
            "demo_grade": bool(model and model.demo_grade),
        }
        try:
            entry["corpus"] = metric.corpus(ok)
        except Exception as exc:  # noqa: BLE001 - the means above are still valid; say what failed
            entry["corpus"] = {"error": f"{type(exc).__name__}: {exc}"}
        return entry


def format_summary(summary: dict[str, Any]) -> str:
    """A short human-readable table of a summary (for the terminal)."""
    lines = []
    for name, m in summary["metrics"].items():
        value = "n/a" if m["mean"] is None else f"{m['mean']:.4f} [{m['ci_low']:.4f}, {m['ci_high']:.4f}]"
        arrow = "↑" if m["direction"] == "higher" else "↓"
        demo = "  (demo-grade model)" if m.get("demo_grade") else ""
        apart = f" not applicable={m['n_not_applicable']}" if m.get("n_not_applicable") else ""
        lines.append(f"{name:<10} {arrow} {value}  n={m['n']} errors={m['n_errors']} "
                     f"cannot read={m.get('n_cannot_read', 0)}{apart}{demo}")
        lines.append(f"{'':<10}   {m['signature']}")
    demo_models = summary.get("demo_grade_metrics") or {}
    if demo_models:
        named = ", ".join(f"{name} ({model})" for name, model in demo_models.items())
        lines.append(f"demo-grade numbers, not measurements: {named}")
    lines.append(f"model calls: {summary['model_calls']} (LLM judge)  cache hits: {summary['cache_hits']}"
                 f"  encoder batches: {summary.get('encoder_batches', 0)}")
    resumed = summary.get("resumed") or {}
    if resumed.get("reused") or resumed.get("recomputed") or resumed.get("retried"):
        lines.append(f"resumed: {resumed['reused']} stored results reused, {resumed['recomputed']} "
                     "recomputed because the pair's text or the metric's signature changed, "
                     f"{resumed.get('retried', 0)} retried after the judge process failed")
    return "\n".join(lines)
