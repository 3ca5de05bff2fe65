"""Per-metric views: metric name -> a function that turns one per-pair result into what its
panel shows. Metrics without a view get the generic one (the score plus the JSON details), so a
newly registered metric shows up in the app without any change here.

The runner and the metric registry know nothing about views; this is the only place where a
metric's name meets the way it is drawn. A view is registered under a family's name, and a
metric is drawn by the view of the family its spec declares (``MetricSpec.family``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from pandas.io.formats.style import Styler

from radscope.engine.metrics.framework.registry import family_of
from radscope.ui.views.common import details_of, esc, pretty_json, sections_html


@dataclass
class PanelView:
    """What a metric panel shows besides its header; empty fields are hidden."""

    summary_html: str = ""
    table: pd.DataFrame | Styler | None = None
    table_label: str = ""
    figure: go.Figure | None = None
    body_html: str = ""


ViewBuilder = Callable[[Mapping[str, Any]], PanelView]
Slot = str  # "table" | "plot": the components a view may fill besides its HTML
SLOTS: tuple[Slot, ...] = ("table", "plot")
_VIEWS: dict[str, tuple[ViewBuilder, tuple[Slot, ...]]] = {}
_TABLE_WIDTHS: dict[str, list[str | int]] = {}  # Gradio's column_widths type


def register_view(*names: str, slots: tuple[Slot, ...] = (),
                  table_widths: Sequence[str] = ()) -> Callable[[ViewBuilder], ViewBuilder]:
    """Decorator: draw results of the metrics called ``names`` with the decorated function.
    ``slots`` says which components it fills (a table, a plot), so that panels are built with
    exactly those; ``table_widths`` (CSS widths per column) keeps a wide table inside its panel."""
    unknown = set(slots) - set(SLOTS)
    if unknown:
        raise ValueError(f"unknown view slot(s) {sorted(unknown)}; use {SLOTS}")

    def wrap(fn: ViewBuilder) -> ViewBuilder:
        for name in names:
            _VIEWS[name] = (fn, tuple(slots))
            if table_widths:
                _TABLE_WIDTHS[name] = list(table_widths)
        return fn
    return wrap


def _registered_as(name: str) -> str | None:
    """The name ``name``'s view is registered under: itself, else the family its spec declares
    (``MetricSpec.family``)."""
    for key in (name, family_of(name)):
        if key in _VIEWS:
            return key
    return None


def _lookup(name: str) -> tuple[ViewBuilder, tuple[Slot, ...]] | None:
    key = _registered_as(name)
    return None if key is None else _VIEWS[key]


def view_for(name: str) -> ViewBuilder:
    """The view registered for ``name``; a variant (a spec with ``family="clear"``) falls back to
    the view of its family; anything else is generic."""
    found = _lookup(name)
    return found[0] if found else generic_view


def view_slots(name: str) -> tuple[Slot, ...]:
    """The components (beyond HTML) that the view of ``name`` fills."""
    found = _lookup(name)
    return found[1] if found else ()


def table_widths(name: str) -> list[str | int] | None:
    """Column widths of the view's table (None: Gradio sizes the columns)."""
    key = _registered_as(name)
    return None if key is None else _TABLE_WIDTHS.get(key)


def has_view(name: str) -> bool:
    return view_for(name) is not generic_view


def generic_view(result: Mapping[str, Any]) -> PanelView:
    """Fallback: the metric's own details as JSON (the header already shows the score)."""
    details = details_of(result)
    if not details:
        return PanelView()
    return PanelView(body_html="<div class='rs-sub'>Details</div>" + pretty_json(details))


def not_applicable_view(result: Mapping[str, Any]) -> PanelView:
    """Why a metric gave no score on this pair: the study is outside what it was designed for."""
    return PanelView(summary_html=(
        f"<div class='rs-warn rs-na-note'><b>{esc(result['not_applicable'])}</b><br>This "
        "metric's labels describe other studies, so any number here would be about nothing. "
        "The exam comes from the Modality and Body area fields when filled, otherwise from "
        "words in the reports. To score it anyway, tick <i>force applicability</i> in the "
        "metric options.</div>"))


def render(name: str, result: Mapping[str, Any]) -> PanelView:
    """Build a panel; a view that cannot read the result falls back to the generic view and says
    why, so one unexpected field never hides a score."""
    builder = view_for(name)
    if result.get("error") and result.get("score") is None and not details_of(result):
        return PanelView()
    if result.get("not_applicable"):
        return not_applicable_view(result)
    try:
        view = builder(result)
        view.summary_html = sections_html(result) + view.summary_html
        return view
    except Exception as exc:  # noqa: BLE001 - shown to the user next to the raw details
        fallback = generic_view(result)
        if result.get("error"):  # a failed pair has no structure to draw; the header says why
            return fallback
        note = (f"<div class='rs-warn'>This result could not be drawn as a {esc(name)} view "
                f"({esc(type(exc).__name__)}: {esc(exc)}); its details follow as JSON.</div>")
        fallback.body_html = note + fallback.body_html
        return fallback


def _import_views() -> None:
    """Import every module of this package so that its views register: a metric's panel is a
    module here (``ui/views/<family>.py``) and needs no line anywhere else."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


_import_views()  # at the end: the view modules import this one
