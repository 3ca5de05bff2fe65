"""Batch summary plots: the score distribution of every metric, plus per-metric corpus views
(CREPE category totals, CLEAR per-condition F1) drawn from the summary's corpus aggregates.

Like the pair views, corpus views are looked up by metric name; a metric without one simply
has no extra plot.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from radscope.engine.metrics.clear.schema import CONDITIONS
from radscope.engine.metrics.crepe.score import CATEGORIES, CATEGORY_KEYS
from radscope.ui.views.common import find_section, themed

log = logging.getLogger(__name__)

CorpusView = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], str], "go.Figure | None"]
_CORPUS_VIEWS: dict[str, CorpusView] = {}


def register_corpus_view(*names: str) -> Callable[[CorpusView], CorpusView]:
    def wrap(fn: CorpusView) -> CorpusView:
        for name in names:
            _CORPUS_VIEWS[name] = fn
        return fn
    return wrap


def corpus_view_for(name: str) -> CorpusView | None:
    if name in _CORPUS_VIEWS:
        return _CORPUS_VIEWS[name]
    for sep in ("-", "_", ":"):
        if name.split(sep, 1)[0] in _CORPUS_VIEWS:
            return _CORPUS_VIEWS[name.split(sep, 1)[0]]
    return None


def corpus_figure(name: str, entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> go.Figure | None:
    """The corpus plot of one metric, or None (no view, or nothing to draw). ``entry`` is the
    metric's block of the run summary, ``rows`` the per-pair result rows."""
    view = corpus_view_for(name)
    if view is None:
        return None
    try:
        fig = view(entry, rows, name)
        return None if fig is None else themed(fig)
    except Exception as exc:  # a plot is optional, but say why it is missing (and log it)
        log.exception("the corpus plot of %s could not be drawn", name)
        fig = go.Figure()
        fig.update_layout(title=f"{name}: the corpus plot could not be drawn ({type(exc).__name__}: "
                                f"{exc}); the summary table still has the numbers", height=160)
        return fig


def pair_scores(rows: Sequence[Mapping[str, Any]], name: str, key: str = "metrics") -> list[float]:
    """The scores of one metric over the pairs that have one (errors left out)."""
    out = []
    for row in rows:
        result = (row.get(key) or {}).get(name)
        if result and result.get("error") is None and isinstance(result.get("score"), (int, float)):
            out.append(float(result["score"]))
    return out


def distribution_figure(rows: Sequence[Mapping[str, Any]], names: Sequence[str],
                        directions: Mapping[str, str], rows_b: Sequence[Mapping[str, Any]] | None = None,
                        per_row: int = 4) -> go.Figure:
    """One box plot per metric with scores (each on its own axis, since ranges differ), every
    pair drawn as a point for small runs; a second system is drawn beside the first."""
    scored = [n for n in names if pair_scores(rows, n) or (rows_b and pair_scores(rows_b, n))]
    if not scored:
        fig = go.Figure()
        fig.update_layout(title="Score distribution: no metric produced a score", height=160)
        return fig
    n_rows = (len(scored) + per_row - 1) // per_row
    n_cols = min(per_row, len(scored))
    fig = make_subplots(rows=n_rows, cols=n_cols, vertical_spacing=0.18 if n_rows > 1 else 0.1,
                        subplot_titles=[f"{n} {'↑' if directions.get(n) == 'higher' else '↓'}"
                                        for n in scored])
    for i, name in enumerate(scored):
        r, c = i // per_row + 1, i % per_row + 1
        for label, source, colour in (("A", rows, "#4c78a8"), ("B", rows_b, "#f58518")):
            if source is None:
                continue
            scores = pair_scores(source, name)
            fig.add_trace(go.Box(y=scores, name=label if rows_b is not None else name,
                                 boxpoints="all" if len(scores) <= 300 else "outliers",
                                 jitter=0.4, pointpos=0, marker=dict(size=4, color=colour),
                                 line=dict(color=colour), showlegend=False,
                                 hovertemplate="%{y:.3f}<extra></extra>"), row=r, col=c)
    fig.update_layout(title="Score distribution per metric (pairs with an error left out)",
                      height=120 + 280 * n_rows, margin=dict(l=40, r=20, t=80, b=40))
    return themed(fig)


@register_corpus_view("crepe")
def crepe_totals(entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], name: str) -> go.Figure | None:
    """Predicted errors per category summed over the corpus (mean x n, from the aggregates;
    from the stored per-pair counts when the aggregates lack them)."""
    totals, n = _crepe_category_totals(entry, rows, name)
    if not any(totals.values()) and not n:
        return None
    x = [c.key for c in CATEGORIES]
    fig = go.Figure(go.Bar(
        x=x, y=[totals[k] for k in CATEGORY_KEYS], customdata=[c.name for c in CATEGORIES],
        text=[f"{totals[k]:.1f}" for k in CATEGORY_KEYS], textposition="outside",
        marker_color="#4c78a8",
        hovertemplate="<b>%{x}</b>: %{customdata}<br>total %{y:.2f}<extra></extra>"))
    top = max(totals.values()) or 1.0
    fig.update_layout(title=f"{name}: predicted errors per category, summed over {n} pairs "
                            "(lower is better)", height=340, margin=dict(l=40, r=20, t=60, b=40),
                      yaxis=dict(title="total predicted errors", range=[0, top * 1.2]),
                      xaxis_title="error category")
    return fig


def _crepe_category_totals(entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                           name: str) -> tuple[dict[str, float], int]:
    """(total predicted errors per category, number of pairs) for ``crepe_totals``."""
    section = find_section(entry.get("corpus") or {}, ("mean_counts",))
    n = (section or {}).get("n_pairs") or entry.get("n") or 0
    if section and section.get("mean_counts"):
        return {k: float(section["mean_counts"][k]) * n for k in CATEGORY_KEYS}, n
    totals = dict.fromkeys(CATEGORY_KEYS, 0.0)
    for row in rows:
        result = (row.get("metrics") or {}).get(name) or {}
        counts = find_section(result, ("counts", "total"))
        if result.get("error") is None and counts:
            for k in CATEGORY_KEYS:
                totals[k] += float(counts["counts"].get(k, 0.0))
    return totals, n


@register_corpus_view("clear")
def clear_per_condition(entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], name: str) -> go.Figure | None:
    """Positive and negative F1 per condition over the corpus (n/a conditions left blank)."""
    section = find_section(entry.get("corpus") or {}, ("pos_f1_per_condition", "neg_f1_per_condition"))
    if section is None:
        return None
    fig = go.Figure()
    for key, label, colour in (("pos_f1_per_condition", "positive F1", "#54a24b"),
                               ("neg_f1_per_condition", "negative F1", "#9d755d")):
        per = section[key]
        values = [per.get(c) for c in CONDITIONS]
        fig.add_trace(go.Bar(x=list(CONDITIONS), y=values, name=label, marker_color=colour,
                             hovertemplate="%{x}<br>" + label + " %{y:.3f}<extra></extra>"))
    fig.update_layout(title=f"{name}: F1 per condition (blank = no report has it in that class)",
                      barmode="group", height=380, yaxis=dict(range=[0, 1.05], title="F1"),
                      margin=dict(l=40, r=20, t=60, b=110), legend=dict(orientation="h", y=1.08))
    return fig
