"""A run's corpus summary, built as results arrive so that no caller has to hold every row.

``SummaryBuilder.add_row`` takes one pair's results (metric name -> result JSON) as the runner
produces or reads them and keeps, per metric, only the pair's score and its compact statistics
record (``radscope.engine.statistics.record_percentile``; tens of bytes, never the result payload). ``summary`` gives
the means with bootstrap intervals, the error, cannot-read and not-applicable counts, each
metric's corpus figures with 95 % intervals, and the run's model-call counters.
``format_summary`` prints it for the terminal.

Per metric the summary has ``corpus`` (the nested aggregates as always shown) and
``corpus_figures`` (every figure by flat name -> value, ci_low, ci_high); ``headline`` names
the figures tables show first (CLEAR F1@13 and F1@5, F1-SRR-BERT micro and macro, RadSEM
class F1); ``score_figure`` names the figure that is the mean per-pair score itself (CREPE's
``mean_total``, RadSEM's ``mean``), which carries the mean's own interval, so that one mean
never shows two intervals, and which tables leave out under the mean.
"""
from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from radscope.engine.eligibility import readable
from radscope.engine.metrics.framework.base import Metric
from radscope.engine.metrics.framework.signature import parse_signature
from radscope.engine.metrics.framework.statistics_by_metric import statistics_for
from radscope.engine.reader.error_words import ran_title
from radscope.engine.statistics import mean_bca
from radscope.engine.statistics import record_percentile as corpus_stats


class _MetricAccumulator:
    """One metric's pairs as they arrive: scores, records and counts."""

    def __init__(self, metric: Metric, signature: str) -> None:
        self.metric = metric
        self.signature = signature
        self.spec = statistics_for(metric.name)
        # A score-only metric's one figure is the mean of ``scores``: no second copy.
        self.records: corpus_stats.RecordTable | None = (
            None if self.spec.record is corpus_stats.ScoreStats
            else corpus_stats.RecordTable(self.spec.record))
        self.scores = array("d")
        self.counts: Counter[str] = Counter()
        self.judge_failures: Counter[str] = Counter()  # failure category -> pairs
        self.failure: str | None = None  # the first stored result that did not fit the record

    def add(self, payload: Mapping[str, Any], pair: str) -> None:
        error, score = payload.get("error"), payload.get("score")
        if payload.get("not_applicable"):
            self.counts["not_applicable"] += 1
        if error is not None:
            self.counts["cannot_read" if readable.is_cannot_read(error) else "errors"] += 1
            judge_error = payload.get("judge_error")
            if isinstance(judge_error, Mapping):
                self.judge_failures[str(judge_error.get("category") or "schema")] += 1
            return
        if score is None:
            return
        self.scores.append(float(score))
        if self.records is None:
            return
        try:
            self.records.append(self.spec.from_result(payload, pair=pair))
        except corpus_stats.StatsError as exc:
            # No figure from part of the pairs: the corpus block says what did not fit.
            self.failure, self.records = str(exc), None


class SummaryBuilder:
    """Collects per-pair results metric by metric and turns them into the summary dict."""

    def __init__(self, metrics: Sequence[Metric], signatures: Mapping[str, str] | None = None,
                 n_resamples: int = corpus_stats.FIGURE_RESAMPLES):
        signatures = dict(signatures or {})
        self._metrics = {m.name: _MetricAccumulator(m, signatures.get(m.name) or m.signature())
                         for m in metrics}
        self._n_resamples = n_resamples
        self._rows = 0

    def add_row(self, row_metrics: Mapping[str, dict[str, Any]], pair_id: str | None = None) -> None:
        """One pair's results as written to the output (metric name -> result JSON)."""
        self._rows += 1
        pair = str(pair_id) if pair_id is not None else f"#{self._rows}"
        for name, payload in row_metrics.items():
            if name in self._metrics:
                self._metrics[name].add(payload, pair)

    def summary(self, counters: Counter) -> dict[str, Any]:
        """Corpus summary: mean with bootstrap CI, errors, metric figures with intervals, and
        this run's model-call counters."""
        summary: dict[str, Any] = {"metrics": {}}
        for name, acc in self._metrics.items():
            summary["metrics"][name] = self._metric_entry(acc)
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

    def _metric_entry(self, acc: _MetricAccumulator) -> dict[str, Any]:
        metric = acc.metric
        ci = mean_bca.bootstrap_mean_ci(acc.scores)
        model = metric.model()
        kind = getattr(getattr(metric, "extractor", None), "kind", None)
        entry: dict[str, Any] = {
            # what ran, in the words every view uses (``vocabulary.ran_title``)
            "title": ran_title(metric.card.title, metric.card.rules_reader, kind, model.id if model else None),
            "mean": ci.mean, "ci_low": ci.ci_low, "ci_high": ci.ci_high,
            "n": ci.n, "n_errors": acc.counts["errors"],
            "n_cannot_read": acc.counts["cannot_read"],
            "n_not_applicable": acc.counts["not_applicable"],
            # failed judge calls per category (engine.runtimes.judge.FAILURE_CAUSES)
            "judge_failures": dict(sorted(acc.judge_failures.items())),
            "direction": metric.direction,
            "range": list(metric.card.range),
            "signature": acc.signature,
            "model": model.id if model else None,
            "demo_grade": bool(model and model.demo_grade),
        }
        if acc.spec.record is corpus_stats.ScoreStats:
            # The mean is the only figure, and its (BCa) interval is the one above.
            entry.update({"corpus": {}, "corpus_figures": {"mean": {
                "value": ci.mean, "ci_low": ci.ci_low, "ci_high": ci.ci_high}} if ci.n else {},
                "headline": [], "score_figure": "mean"})
        else:
            options = parse_signature(acc.signature)
            entry.update(corpus_block(acc.spec, acc.records, options, acc.failure,
                                      self._n_resamples))
            entry["score_figure"] = acc.spec.score_figure_for(options)
            if entry["score_figure"] in entry["corpus_figures"]:
                # The mean per-pair score again: one mean, one value and one (BCa) interval.
                entry["corpus_figures"][entry["score_figure"]] = {
                    "value": ci.mean, "ci_low": ci.ci_low, "ci_high": ci.ci_high}
        return entry


def corpus_block(spec: corpus_stats.CorpusStatistics, records: corpus_stats.RecordTable | None,
                 options: Mapping[str, str], failure: str | None = None,
                 n_resamples: int = corpus_stats.FIGURE_RESAMPLES) -> dict[str, Any]:
    """``corpus``, ``corpus_figures`` and ``headline`` of one metric's summary entry."""
    if records is None:
        return {"corpus": {"error": failure}, "corpus_figures": {}, "headline": []}
    try:
        figures = corpus_stats.figure_intervals(spec, records, options, n_resamples=n_resamples)
        points = {name: (f["value"] if f["value"] is not None else float("nan"))
                  for name, f in figures.items()}
        nested = spec.nest(points, records, spec.options_for(records, options))
    except (ValueError, KeyError) as exc:  # e.g. pairs of mixed SRR levels: say so, no numbers
        return {"corpus": {"error": f"{type(exc).__name__}: {exc}"}, "corpus_figures": {},
                "headline": []}
    return {"corpus": nested, "corpus_figures": figures,
            "headline": [name for name in spec.headline if name in figures]}


def shown_figures(entry: Mapping[str, Any]) -> list[str]:
    """The headline figures a table shows under a metric's mean: all but the one that is that
    mean (shown once, with its one interval)."""
    return [key for key in entry.get("headline") or []
            if key != entry.get("score_figure") and key in (entry.get("corpus_figures") or {})]


def format_summary(summary: dict[str, Any]) -> str:
    """A short human-readable table of a summary (for the terminal)."""
    lines = []
    for name, m in summary["metrics"].items():
        lines += _metric_lines(name, m)
    demo_models = summary.get("demo_grade_metrics") or {}
    if demo_models:
        named = ", ".join(f"{name} ({model})" for name, model in demo_models.items())
        lines.append(f"demo-grade numbers, not measurements: {named}")
    lines.append(f"model calls: {summary['model_calls']} (LLM judge)  cache hits: {summary['cache_hits']}"
                 f"  encoder batches: {summary.get('encoder_batches', 0)}")
    lines += _resumed_lines(summary)
    return "\n".join(lines)


def _metric_lines(name: str, m: Mapping[str, Any]) -> list[str]:
    """One metric's lines: its mean with its interval and counts, its judge failures, the
    headline figures shown under the mean, and its signature (what produced the numbers)."""
    value = "n/a" if m["mean"] is None else f"{m['mean']:.4f} [{m['ci_low']:.4f}, {m['ci_high']:.4f}]"
    arrow = "↑" if m["direction"] == "higher" else "↓"
    demo = "  (demo-grade model)" if m.get("demo_grade") else ""
    apart = f" not applicable={m['n_not_applicable']}" if m.get("n_not_applicable") else ""
    title = f" {m['title']}" if m.get("title") and m["title"] != name else ""
    lines = [f"{name:<10}{title} {arrow} {value}  n={m['n']} errors={m['n_errors']} "
             f"cannot read={m.get('n_cannot_read', 0)}{apart}{demo}"]
    if m.get("judge_failures"):
        lines.append(f"{'':<10}   judge failures: " + ", ".join(
            f"{category} {n}" for category, n in m["judge_failures"].items()))
    for key in shown_figures(m):
        f = m["corpus_figures"][key]
        if f["value"] is not None and f["ci_low"] is not None:
            lines.append(f"{'':<10}   {key} {f['value']:.4f} [{f['ci_low']:.4f}, {f['ci_high']:.4f}]")
    lines.append(f"{'':<10}   {m['signature']}")
    return lines


def _resumed_lines(summary: Mapping[str, Any]) -> list[str]:
    """What a resumed run took from the store rather than scored: stored results reused, and
    results of unchanged pairs taken from an earlier run of the same input."""
    lines = []
    resumed = summary.get("resumed") or {}
    if resumed.get("reused") or resumed.get("recomputed") or resumed.get("retried"):
        lines.append(f"resumed: {resumed['reused']} stored results reused, {resumed['recomputed']} "
                     "recomputed because the pair's text or the metric's signature changed, "
                     f"{resumed.get('retried', 0)} retried after the judge process failed")
    if resumed.get("from_earlier_run"):
        lines.append(f"unchanged pairs: {resumed['from_earlier_run']} results taken from the earlier run "
                     f"{summary.get('earlier_run')} of this input (same pair, text and signature), not scored again")
    return lines
