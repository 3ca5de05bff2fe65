"""CREPE panel: a bar per error category and one for the total (lower is better)."""
from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go

from radscope.engine.metrics.crepe.score import CATEGORY_KEYS, CrepeCounts
from radscope.engine.reader.error_words import CATEGORY_WORDS, REXVAL_NAMES, category_label
from radscope.ui.views import PanelView, register_view
from radscope.ui.views.common import esc, find_section, find_value, fmt, html_list, status_attr, themed

CATEGORY_COLOUR = "#4c78a8"
TOTAL_COLOUR = "#e45756"


def category_tick(key: str) -> str:
    """A category as a bar's label: its letter over its words (``vocabulary.CATEGORY_WORDS``),
    wrapped to fit under a bar."""
    return f"{key}<br>" + "<br>".join(textwrap.wrap(CATEGORY_WORDS[key], 16))


def crepe_figure(counts: CrepeCounts, title: str = "Predicted errors per category") -> go.Figure:
    """Six category bars, named as everywhere else (``vocabulary.category_label``), and a total
    bar; hover gives ReXVal's own name of each category."""
    x = [category_tick(k) for k in CATEGORY_KEYS] + ["Total"]
    y = [counts.counts[k] for k in CATEGORY_KEYS] + [counts.total]
    names = [f"ReXVal: {REXVAL_NAMES[k]}" for k in CATEGORY_KEYS] + ["Sum of the six categories (the CREPE score)"]
    fig = go.Figure(go.Bar(
        x=x, y=y, text=[f"{v:.2f}" for v in y], textposition="outside",
        marker_color=[CATEGORY_COLOUR] * len(CATEGORY_KEYS) + [TOTAL_COLOUR],
        customdata=names, hovertemplate="<b>%{x}</b>: %{customdata}<br>%{y:.3f}<extra></extra>"))
    top = max(y) if max(y) > 0 else 1.0
    fig.update_layout(title=f"{title} (lower is better)", height=380, margin=dict(l=40, r=20, t=50, b=80),
                      yaxis=dict(title="predicted count", range=[0, top * 1.25]),
                      xaxis=dict(tickangle=0), showlegend=False)
    return themed(fig)


def reader_line(result: Mapping[str, Any]) -> str:
    """Which reader produced the result, from its ``reader`` detail ("" when it has none)."""
    reader = find_value(result, "reader")
    if not isinstance(reader, Mapping):
        return ""
    text = reader.get("label") or f"{reader.get('name', '')} {reader.get('model') or reader.get('judge') or ''}"
    return f"<div class='rs-kv'><b>Reader</b> {esc(str(text).strip())}</div>"


@register_view("crepe", slots=("plot",))
def crepe_view(result: Mapping[str, Any]) -> PanelView:
    section = find_section(result, ("counts", "total"))
    if section is None:
        raise ValueError("no CREPE counts in this result")
    counts = CrepeCounts.from_json(section)
    legend = "".join(f"<li{status_attr(k)}><b>{esc(k)}</b> {esc(CATEGORY_WORDS[k])}: "
                     f"{esc(fmt(counts.counts[k], 2))}</li>"
                     for k in CATEGORY_KEYS)
    summary = (reader_line(result)
               + f"<div class='rs-kv'><b>Total predicted errors</b> {esc(fmt(counts.total, 2))}</div>"
               f"<ul class='rs-list rs-compact'>{legend}</ul>")
    errors = [e for e in section.get("errors", []) if isinstance(e, Mapping)]
    if errors:
        summary += html_list([f"{category_label(str(e.get('category')))}: {e.get('text')}"
                              if str(e.get('category')).upper() in CATEGORY_WORDS else str(e.get('text'))
                              for e in errors])
    return PanelView(summary_html=summary, figure=crepe_figure(counts))
