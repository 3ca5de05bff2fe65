"""Batch summary plots: the score distribution of every metric, plus per-metric corpus views
(CREPE category totals, CLEAR per-condition F1) drawn from the summary's corpus aggregates.

Like the pair views, corpus views are looked up by metric name; a metric without one simply
has no extra plot. With a second system every plot draws both, side by side in one colour
each (``SYSTEM_COLOURS``) and named in the legend.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from radscope.engine.metrics.clear.schema import CONDITIONS
from radscope.engine.metrics.crepe.score import CATEGORY_KEYS
from radscope.engine.metrics.framework.registry import family_of
from radscope.engine.reader.error_words import REXVAL_NAMES
from radscope.ui.views.common import find_section, themed
from radscope.ui.views.crepe import category_tick

log = logging.getLogger(__name__)

# System B's summary entry and rows, beside system A's, when a batch compares two systems.
SystemB = tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]
CorpusView = Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], str, "SystemB | None"],
                      "go.Figure | None"]
_CORPUS_VIEWS: dict[str, CorpusView] = {}
SYSTEM_COLOURS = {"A": "#4c78a8", "B": "#f58518"}


def register_corpus_view(*names: str) -> Callable[[CorpusView], CorpusView]:
    def wrap(fn: CorpusView) -> CorpusView:
        for name in names:
            _CORPUS_VIEWS[name] = fn
        return fn
    return wrap


def corpus_view_for(name: str) -> CorpusView | None:
    """The corpus view registered for ``name``, else for the family its spec declares."""
    return _CORPUS_VIEWS.get(name) or _CORPUS_VIEWS.get(family_of(name))


def corpus_figure(name: str, entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                  system_b: SystemB | None = None) -> go.Figure | None:
    """The corpus plot of one metric, or None (no view, or nothing to draw). ``entry`` is the
    metric's block of the run summary, ``rows`` the per-pair result rows; ``system_b`` the
    same for a second system, drawn beside the first."""
    view = corpus_view_for(name)
    if view is None:
        return None
    try:
        fig = view(entry, rows, name, system_b)
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
        for label, source in (("A", rows), ("B", rows_b)):
            if source is None:
                continue
            colour = SYSTEM_COLOURS[label]
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
def crepe_totals(entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], name: str,
                 system_b: SystemB | None = None) -> go.Figure | None:
    """Predicted errors per category summed over the corpus (mean x n, from the aggregates;
    from the stored per-pair counts when the aggregates lack them). Two systems: each one's
    mean per pair, which stays comparable when they scored different numbers of pairs."""
    if system_b is not None:
        return _crepe_two_systems(name, _crepe_category_totals(entry, rows, name),
                                  _crepe_category_totals(*system_b, name))
    totals, n = _crepe_category_totals(entry, rows, name)
    x = [category_tick(k) for k in CATEGORY_KEYS]
    names = [f"ReXVal: {REXVAL_NAMES[k]}" for k in CATEGORY_KEYS]
    if not any(totals.values()) and not n:
        return None
    fig = go.Figure(go.Bar(
        x=x, y=[totals[k] for k in CATEGORY_KEYS], customdata=names,
        text=[f"{totals[k]:.1f}" for k in CATEGORY_KEYS], textposition="outside",
        marker_color=SYSTEM_COLOURS["A"],
        hovertemplate="<b>%{x}</b>: %{customdata}<br>total %{y:.2f}<extra></extra>"))
    top = max(totals.values()) or 1.0
    fig.update_layout(title=f"{name}: predicted errors per category, summed over {n} pairs "
                            "(lower is better)", height=380, margin=dict(l=40, r=20, t=60, b=80),
                      yaxis=dict(title="total predicted errors", range=[0, top * 1.2]))
    return fig


def _crepe_two_systems(name: str, a: tuple[dict[str, float], int],
                       b: tuple[dict[str, float], int]) -> go.Figure | None:
    """System A's and B's mean predicted errors per pair, category by category."""
    means = {label: [totals[k] / n if n else None for k in CATEGORY_KEYS]
             for label, (totals, n) in (("A", a), ("B", b))}
    if not (a[1] or b[1]):
        return None
    fig = go.Figure()
    for label, (_, n) in (("A", a), ("B", b)):
        fig.add_trace(go.Bar(
            x=[category_tick(k) for k in CATEGORY_KEYS], y=means[label], name=f"system {label} ({n} pairs)",
            customdata=[f"ReXVal: {REXVAL_NAMES[k]}" for k in CATEGORY_KEYS], marker_color=SYSTEM_COLOURS[label],
            text=[f"{v:.2f}" if v is not None else "" for v in means[label]], textposition="outside",
            hovertemplate=f"<b>system {label}</b> %{{x}}: %{{customdata}}<br>"
                          "mean %{y:.3f} per pair<extra></extra>"))
    top = max([v for values in means.values() for v in values if v is not None] + [0.0]) or 1.0
    fig.update_layout(title=f"{name}: predicted errors per category, mean per pair, system A and "
                            "system B (lower is better)", barmode="group", height=360,
                      margin=dict(l=40, r=20, t=60, b=80), legend=dict(orientation="h", y=1.1),
                      yaxis=dict(title="mean predicted errors per pair", range=[0, top * 1.25]))
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


_F1_KEYS = (("pos_f1_per_condition", "positive F1", "#54a24b"),
            ("neg_f1_per_condition", "negative F1", "#9d755d"))


def _per_condition(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    return find_section(entry.get("corpus") or {}, tuple(key for key, _, _ in _F1_KEYS))


@register_corpus_view("clear")
def clear_per_condition(entry: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], name: str,
                        system_b: SystemB | None = None) -> go.Figure | None:
    """Positive and negative F1 per condition over the corpus (n/a conditions left blank).
    Two systems: positive F1 above, negative F1 below, each with system A's bar beside B's."""
    section = _per_condition(entry)
    if system_b is not None:
        return _clear_two_systems(name, section, _per_condition(system_b[0]))
    if section is None:
        return None
    fig = go.Figure()
    for key, label, colour in _F1_KEYS:
        per = section[key]
        values = [per.get(c) for c in CONDITIONS]
        fig.add_trace(go.Bar(x=list(CONDITIONS), y=values, name=label, marker_color=colour,
                             hovertemplate="%{x}<br>" + label + " %{y:.3f}<extra></extra>"))
    fig.update_layout(title=f"{name}: F1 per condition (blank = no report has it in that class)",
                      barmode="group", height=380, yaxis=dict(range=[0, 1.05], title="F1"),
                      margin=dict(l=40, r=20, t=60, b=110), legend=dict(orientation="h", y=1.08))
    return fig


def _clear_two_systems(name: str, section_a: Mapping[str, Any] | None,
                       section_b: Mapping[str, Any] | None) -> go.Figure | None:
    if section_a is None and section_b is None:
        return None
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        subplot_titles=[label for _, label, _ in _F1_KEYS])
    for row, (key, label, _) in enumerate(_F1_KEYS, start=1):
        for system, section in (("A", section_a), ("B", section_b)):
            per = (section or {}).get(key) or {}
            fig.add_trace(go.Bar(
                x=list(CONDITIONS), y=[per.get(c) for c in CONDITIONS], name=f"system {system}",
                legendgroup=system, showlegend=row == 1, marker_color=SYSTEM_COLOURS[system],
                hovertemplate=f"%{{x}}<br>system {system} {label} %{{y:.3f}}<extra></extra>"),
                row=row, col=1)
        fig.update_yaxes(range=[0, 1.05], title_text="F1", row=row, col=1)
    fig.update_layout(title=f"{name}: F1 per condition, system A and system B (blank = no report "
                            "has it in that class)", barmode="group", height=620,
                      margin=dict(l=40, r=20, t=90, b=110), legend=dict(orientation="h", y=1.1))
    return fig
