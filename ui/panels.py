"""A metric's panel on the Compare tab: header and headline numbers beside the metric card,
then the table or plot its view draws, then the raw result; and the score overview line."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import gradio as gr

from radscope.engine.context import RuntimeContext
from radscope.engine.metrics.framework.registry import MetricRegistry, MetricSpec
from radscope.engine.reader import error_words as vocabulary
from radscope.engine.reader.error_words import error_name, kind_words
from radscope.ui.views import PanelView, render, table_widths, view_slots
from radscope.ui.views.common import esc, find_value, fmt, fmt_ms, panel_header, ran_title
from radscope.ui.widgets import card_html


@dataclass
class Panel:
    """The components of one metric's panel on the Compare tab.

    Results stream into the panels as plain values only; visibility changes happen in the
    events before and after the stream. (Gradio sends a generator's outputs as diffs, and
    visibility updates mixed into that stream were seen to get lost in the browser.)"""

    name: str
    title: str
    column: gr.Column
    head: gr.HTML
    summary: gr.HTML
    body: gr.HTML
    raw: gr.JSON
    table: gr.Dataframe | None = None
    plot: gr.Plot | None = None

    def slots(self) -> list[Any]:
        return [c for c in (self.table, self.plot) if c is not None]

    def streamed(self) -> list[Any]:
        """The components the stream writes values into."""
        return [self.head, self.summary, *self.slots(), self.body, self.raw]

    def pending(self, state: str) -> dict[Any, Any]:
        out = {self.head: panel_header(self.title, self.name, None, state), self.summary: "",
               self.body: "", self.raw: None}
        out.update({slot: None for slot in self.slots()})
        return out

    def show(self, result: dict[str, Any]) -> dict[Any, Any]:
        view: PanelView = render(self.name, result)
        caption = (f"<div class='rs-caption'>{esc(view.table_label)}</div>"
                   if view.table_label and view.table is not None and self.table is not None else "")
        out: dict[Any, Any] = {self.head: panel_header(self.title, self.name, result),
                               self.summary: view.summary_html + caption, self.body: view.body_html,
                               self.raw: result}
        if self.table is not None:
            out[self.table] = view.table
        if self.plot is not None:
            out[self.plot] = view.figure
        return out

    def hide_empty(self, result: dict[str, Any]) -> dict[Any, Any]:
        """After a run (the slots were shown before it): hide the table or plot the result does
        not fill, and send nothing for the others (each update redraws in the browser)."""
        view = render(self.name, result)
        out: dict[Any, Any] = {}
        if self.table is not None and view.table is None:
            out[self.table] = gr.update(visible=False)
        if self.plot is not None and view.figure is None:
            out[self.plot] = gr.update(visible=False)
        return out

    def visibility(self, shown: bool, result: dict[str, Any] | None = None) -> dict[Any, Any]:
        """Show or hide the panel; with a result, show only the slots it fills."""
        view = render(self.name, result) if result is not None else None
        out: dict[Any, Any] = {self.column: gr.update(visible=shown)}
        if self.table is not None:
            out[self.table] = gr.update(visible=shown and (view is None or view.table is not None))
        if self.plot is not None:
            out[self.plot] = gr.update(visible=shown and (view is None or view.figure is not None))
        return out


def build_panel(spec: MetricSpec) -> Panel:
    """Header and headline numbers beside the metric card; table and plot (when the metric's
    view draws them) below, full width; the raw result last."""
    name = spec.name
    slots = view_slots(name)
    with gr.Column(visible=False, elem_id=f"panel-{name}", elem_classes=["rs-panel"]) as column:
        with gr.Row(elem_classes=["rs-panel-top"]):
            with gr.Column(scale=3):
                head = gr.HTML(elem_id=f"head-{name}")
                summary = gr.HTML(elem_id=f"summary-{name}")
            with gr.Column(scale=1, min_width=240):
                gr.HTML(card_html(spec.card), elem_id=f"card-{name}")
        table = (gr.Dataframe(interactive=False, wrap=True, max_height=640, show_label=False,
                              column_widths=table_widths(name),
                              elem_id=f"table-{name}", buttons=["copy", "fullscreen"],
                              elem_classes=["rs-dataframe"])
                 if "table" in slots else None)
        plot = gr.Plot(elem_id=f"plot-{name}", show_label=False) if "plot" in slots else None
        body = gr.HTML(elem_id=f"body-{name}")
        with gr.Accordion("Raw result (JSON)", open=False):
            raw = gr.JSON(elem_id=f"raw-{name}", show_label=False)
    return Panel(name, spec.card.title, column, head, summary, body, raw, table, plot)


def kinds_found(summary: Mapping[str, Any] | None) -> list[str]:
    """The error kinds the reader found in the pair ("impression" when the impressions alone show
    one), from ``radscope.engine.reader.by_section.clinical_summary``."""
    counts = (summary or {}).get("clinical_errors") or {}
    return [k for k, n in counts.items() if n]


def clinical_html(summary: Mapping[str, Any]) -> str:
    """The overview's first line: what the reader found, counted by kind, then each error by
    its name (``vocabulary.error_name``, the name Differences gives it) and in words."""
    counts = {k: n for k, n in (summary.get("clinical_errors") or {}).items()
              if n and k in vocabulary.KIND_WORDS}
    reader = esc(summary.get("reader") or "clinical reader")
    alone = counts.pop("impression", 0)
    if not counts:
        return (f"<div class='rs-clinical' id='clinical-summary'><b>Clinical reader</b> "
                f"<span class='rs-muted'>({reader})</span>: no clinically significant difference "
                "found in what it can read.</div>")
    said = ", ".join(f"{n} {kind_words(k, n)}" for k, n in counts.items())
    if alone:
        said += f" ({alone} of them in the impression alone)"
    items = "".join(f"<li data-kind='{esc(e.get('kind'))}'><b class='rs-error-name'>"
                    f"{esc(error_name(str(e.get('kind') or ''), str(e.get('category') or '')))}</b>: "
                    f"{esc(e.get('text'))}</li>"
                    for e in summary.get("errors") or [] if isinstance(e, Mapping))
    return (f"<div class='rs-clinical' id='clinical-summary'><b>Clinical reader found:</b> "
            f"{esc(said)} <span class='rs-muted'>({reader})</span>"
            f"<ul class='rs-list rs-compact'>{items}</ul></div>")


def planned_title(spec: MetricSpec, options: Mapping[str, Any] | None) -> str:
    """What will run a metric under the run's options, before it has run (the progress line):
    the same name its row shows after (``vocabulary.ran_title``); its base title when the
    options are not known or name no extractor it has."""
    table = spec.extractors
    if options is None or table is None:
        return vocabulary.base_title(spec.card.title)
    try:
        kind = table.choose(RuntimeContext(options=dict(options)))
    except ValueError:  # an extractor it lacks: the panel will say so
        return vocabulary.base_title(spec.card.title)
    return vocabulary.ran_title(spec.card.title, spec.card.rules_reader, kind)


def blind_to(spec: MetricSpec, found: list[str], result: dict[str, Any]) -> list[str]:
    """The kinds found (``kinds_found``) that ``spec``'s score cannot see by design: a kind its
    card's ``sees`` lacks; "impression" (an error only the impressions show) only when the
    metric did not read the impression (its result's ``sections.read``, else its card's
    ``reads``): one that reads it sees the missed or invented finding there. A card that
    declares nothing is not marked."""
    sees = spec.card.sees
    if not sees:
        return []
    sections = find_value(result, "sections")
    read = (sections.get("read") if isinstance(sections, Mapping) else None) or spec.card.reads
    return [k for k in found if (k != "impression" and k not in sees)
            or (k == "impression" and read and "impression" not in read)]


def overview_html(registry: MetricRegistry, results: dict[str, dict[str, Any]], total: int,
                  running: str | None = None, run: str = "",
                  clinical: Mapping[str, Any] | None = None,
                  options: Mapping[str, Any] | None = None) -> str:
    """The block above the panels: what the clinical reader found (``clinical``:
    ``radscope.engine.reader.by_section.clinical_summary``), then progress while scoring (naming what
    the run's ``options`` will run), and every score at a glance, a score that cannot see those
    errors marked."""
    found = kinds_found(clinical)
    cells = [_overview_cells(registry, name, res, found) for name, res in results.items()]
    table = ("<table class='rs-table' id='score-overview'><tbody>"
             + "".join(f"<tr>{c}</tr>" for c in cells) + "</tbody></table>") if cells else ""
    head = _overview_head(registry, results, total, running, run, options)
    if clinical is not None:  # the reader's answer leads, from the first moment of a run
        head = clinical_html(clinical) + head
    return head + table


def _overview_cells(registry: MetricRegistry, name: str, res: dict[str, Any], found: list[str]) -> str:
    """One metric's row of the overview: its title and direction, its value (with why it gave
    none, or what it cannot see), its model and its time."""
    arrow = "↑" if res.get("direction") == "higher" else "↓"
    value_html = f"<span class='rs-value'>{esc(_overview_value(res))}</span>"
    demo = " <span class='rs-badge rs-demo'>demo-grade model</span>" if res.get("demo_grade") else ""
    css = "rs-bad" if res.get("error") else "rs-demo-value" if res.get("demo_grade") else ""
    blind_html = _blind_html(res, blind_to(registry.get(name), found, res))
    return (f"<td><b>{esc(ran_title(registry.get(name).card.title, name, res))} {arrow}</b></td>"
            f"<td class='{css}'>{value_html}{blind_html}</td>"
            f"<td class='rs-muted'>{esc(res.get('model') or '—')}{demo}</td>"
            f"<td class='rs-muted'>{esc(fmt_ms(res.get('elapsed_ms')))}</td>")


def _overview_value(res: Mapping[str, Any]) -> str:
    """A metric's value as the overview writes it: its score, or that it failed or does not
    apply, with its score note after it."""
    value = ("error" if res.get("error") else
             "not applicable" if res.get("not_applicable") else fmt(res.get("score")))
    if res.get("score_note"):
        value = f"{value} · {res['score_note']}"
    return value


def _blind_html(res: Mapping[str, Any], blind: list[str]) -> str:
    """The line under a value: why a metric gave no number, or the kinds of error found that
    its score cannot see."""
    # The value first, the badge on a line of its own: they never read as one phrase. A
    # metric that gave no number says only why (what it cannot see matters to a number).
    if res.get("not_applicable"):
        return f"<div class='rs-muted rs-na-reason'>{esc(str(res['not_applicable']))}</div>"
    if blind and not res.get("error"):
        return (f"<div><span class='rs-badge rs-blind' data-blind='{esc(' '.join(blind))}'>"
                f"Cannot see {esc(', '.join(kind_words(k, 2) for k in blind))} (by design)"
                "</span></div>")
    return ""


def _overview_head(registry: MetricRegistry, results: Mapping[str, Mapping[str, Any]], total: int,
                   running: str | None, run: str, options: Mapping[str, Any] | None) -> str:
    """The overview's status line: the metric being scored with a progress bar, or, when the
    run is done, how many metrics were scored and how many failed."""
    if running:
        return (f"<div class='rs-running' role='status'>Scoring {len(results) + 1}/{total}: "
                f"{esc(planned_title(registry.get(running), options))}… <progress "
                f"aria-label='metrics scored' max='{total}' value='{len(results)}'></progress></div>")
    failed = sum(1 for r in results.values() if r.get("error"))
    note = f" ({failed} failed; see their panels)" if failed else ""
    return (f"<div class='rs-ok' data-done='1' data-run='{esc(run)}'>Scored {len(results)} "
            f"metric(s){esc(note)}.</div>")
