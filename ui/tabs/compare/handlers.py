"""The Compare tab's event handlers, as module-level functions of the tab's components
(``CompareView``); ``radscope.ui.tabs.compare.tab`` builds the components and binds these to them."""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import gradio as gr
from gradio import route_utils

from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.runs.store import StoreError
from radscope.ui.differences import differences_html
from radscope.ui.panels import Panel, overview_html
from radscope.ui.public import for_visitor, redact, secret_values
from radscope.ui.report import comparison_record, write_report
from radscope.ui.runtime import needs_model
from radscope.ui.tabs.compare import link as compare_link
from radscope.ui.tabs.compare.logic import (
    InputProblem,
    input_problems,
    make_pair,
    parse_metrics,
    read_text_upload,
    score_metric,
)
from radscope.ui.tabs.compare.structure_action import (
    StructureRefused,
    StructureUnavailable,
    refusal_html,
    structure,
    structured_html,
    writer_for,
)
from radscope.ui.views.common import esc
from radscope.ui.widgets import AppContext, options_from, relevant_options, status_box

log = logging.getLogger(__name__)

NO_DIFFERENCES = ("<div class='rs-muted'>Run a comparison: each finding of both reports is then "
                  "highlighted by what the clinical reader made of it.</div>")
STALE = ("<div class='rs-warn rs-stale' role='status' data-stale='1'><b>Out of date:</b> the reports or "
         "options were changed after this run. The scores, Differences, link and downloads shown "
         "are for the previous text; press Run to score the text as it is now.</div>")
DL_HTML, DL_JSON = "Download this comparison (HTML report)", "Download this comparison (JSON)"
DL_STALE = " (previous run: out of date)"
STREAM_EVERY_S = 1.0


@dataclass
class CompareView:
    """The Compare tab's components that handlers read or write, and the app they serve."""

    app: AppContext
    option_names: list[str]
    panels: dict[str, Panel]
    reference: Any
    candidate: Any
    modality: Any
    area: Any
    status: Any
    results_state: Any
    differences: Any
    dl_html: Any
    dl_json: Any
    link_box: Any
    visitor: Any
    stale: Any  # the "out of date" notice above the scores
    diff_stale: Any  # the same notice inside Differences
    shown_inputs: Any  # the inputs the shown results were scored from (a fingerprint)
    columns_and_slots: list[Any] = field(init=False)
    streamed: list[Any] = field(init=False)

    def __post_init__(self) -> None:
        self.columns_and_slots = [c for p in self.panels.values() for c in (p.column, *p.slots())]
        self.streamed = ([self.status, self.results_state, self.differences, self.dl_html,
                          self.dl_json, self.link_box, self.visitor, self.stale, self.diff_stale,
                          self.shown_inputs]
                         + [c for p in self.panels.values() for c in p.streamed()])

    def stored_outputs(self) -> list[Any]:
        """Everything ``show_stored`` fills (a batch row or a link opening a comparison)."""
        return list(dict.fromkeys([self.reference, self.candidate, self.modality, self.area,
                                   *self.columns_and_slots, *self.streamed]))


def fingerprint(ref: str, cand: str, mod: str, ar: str, chosen: list[str] | None = None,
                values: tuple[Any, ...] | None = None) -> dict[str, Any]:
    """What a shown result was scored from; ``chosen`` / ``values`` (the metrics and the option
    controls) are None for results scored elsewhere (a batch row, a stored link)."""
    return {"texts": [ref or "", cand or "", mod or "", ar or ""],
            "metrics": None if chosen is None else sorted(chosen or []),
            "options": None if values is None else [repr(v) for v in values]}


def is_stale(shown: dict[str, Any] | None, now: dict[str, Any]) -> bool:
    """Whether the inputs differ from those of the shown results (fields not recorded count as
    unchanged)."""
    if not shown:
        return False
    return any(shown.get(k) is not None and shown.get(k) != now[k] for k in now)


def downloads(ready: bool, stale: bool = False) -> dict[str, Any]:
    """The two download buttons' state: disabled until there is a comparison to download,
    labelled out of date when the inputs changed since."""
    suffix = DL_STALE if stale else ""
    return {"html": gr.update(interactive=ready, label=DL_HTML + suffix),
            "json": gr.update(interactive=ready, label=DL_JSON + suffix)}


def on_edit(view: CompareView, shown: dict[str, Any] | None, ref: str, cand: str, mod: str, ar: str,
            chosen: list[str], *values: Any) -> dict[Any, Any]:
    """After any edit of the inputs: mark the shown results out of date (or not, when the
    edit brought the inputs back)."""
    stale = is_stale(shown, fingerprint(ref, cand, mod, ar, chosen, values))
    buttons = downloads(bool(shown), stale)
    return {view.stale: STALE if stale else "", view.diff_stale: STALE if stale else "",
            view.dl_html: buttons["html"], view.dl_json: buttons["json"]}


def clinical_summary(reference: str, candidate: str) -> dict[str, Any]:
    """The clinical reader's errors of the pair, for the overview (the reader is imported on
    use: it pulls in scipy, which the app's start-up does not need)."""
    from radscope.engine.reader.by_section import clinical_summary as summary

    return summary(reference, candidate)


def compare_differences(reference: str, candidate: str, results: dict[str, dict[str, Any]]) -> str:
    """The Differences view: the clinical reader's reading of the pair, the one the overview
    counts (whichever metrics ran; nothing before a run)."""
    return differences_html(reference, candidate) if results else NO_DIFFERENCES


def on_metrics(registry: MetricRegistry, option_names: list[str], chosen: list[str]) -> list[Any]:
    """Show only the options of the ticked metrics."""
    show = relevant_options(registry, chosen)
    return [gr.update(visible=n in show) for n in option_names]


def load_txt(max_chars: int, file: Any, current: str) -> tuple[Any, str]:
    """A .txt upload into a report box (or a message saying why it cannot be used)."""
    try:
        text = read_text_upload(getattr(file, "name", file), max_chars)
    except InputProblem as exc:
        return current, status_box("error", str(exc))
    return text, status_box("ok", f"Loaded {len(text):,} characters.")


def check(registry: MetricRegistry, max_chars: int, ref: str, cand: str, chosen: list[str]) -> list[str]:
    selected = parse_metrics(registry, chosen)
    problems = input_problems(ref, cand, max_chars)
    if problems:
        raise InputProblem(" ".join(problems))
    return selected


def start(view: CompareView, ref: str, cand: str, chosen: list[str]) -> dict[Any, Any]:
    """Before scoring: the clinical overview, and the chosen metrics' panels shown (or what is
    wrong)."""
    try:
        selected = check(view.app.registry, view.app.config.max_chars, ref, cand, chosen)
    except InputProblem as exc:
        out: dict[Any, Any] = {view.status: status_box("error", str(exc))}
        for p in view.panels.values():
            out.update(p.visibility(False))
        return out
    buttons = downloads(False)
    # The reader's answer goes out with this first, quick response (milliseconds, no queue).
    out = {view.status: overview_html(view.app.registry, {}, len(selected), selected[0],
                                      clinical=clinical_summary(ref, cand)),
           view.dl_html: buttons["html"], view.dl_json: buttons["json"], view.stale: "",
           view.diff_stale: "", view.shown_inputs: None}
    for name, p in view.panels.items():
        out.update(p.visibility(name in selected))
    return out


def root_url(request: gr.Request | None) -> str:
    """The address the page was served from (behind a proxy too), for links that leave it: the
    event's URL less its ``/gradio_api/...`` route (queued and direct events differ there)."""
    fastapi_request = getattr(request, "request", None)
    if fastapi_request is None:
        return ""
    path = fastapi_request.url.path
    route = path[path.find("/gradio_api/"):] if "/gradio_api/" in path else path
    return route_utils.get_root_url(fastapi_request, route, None)


def link_html(link: str, public: bool) -> str:
    who = ("opens only in this browser (public server)" if public
           else "opens for anyone who can reach this app")
    return (f"<div class='rs-link'><a id='compare-link-a' href='{esc(link)}'>Link to this comparison</a> "
            f"<span class='rs-muted'>(reopens it from the stored results without scoring again; "
            f"{who})</span></div>")


def stream(view: CompareView, ref: str, cand: str, mod: str, ar: str, chosen: list[str],
           visitor_key: str | None, request: gr.Request = None,  # type: ignore[assignment]
           *values: Any) -> Iterator[dict[Any, Any]]:
    """Score metric by metric, yielding each panel as soon as its metric is done; then store
    the comparison and offer its link and report downloads."""
    config, panels, registry = view.app.config, view.panels, view.app.registry
    cleared: dict[Any, Any] = {view.results_state: {}, view.differences: NO_DIFFERENCES,
                               view.dl_html: None, view.dl_json: None, view.link_box: "",
                               view.stale: "", view.diff_stale: "", view.shown_inputs: None}
    try:
        selected = check(registry, config.max_chars, ref, cand, chosen)
    except InputProblem as exc:
        yield {view.status: status_box("error", str(exc)), **cleared}
        return
    options = config.request_options(options_from(view.option_names, values))
    pair = make_pair(ref, cand, mod, ar)
    first: dict[Any, Any] = dict(cleared)
    if config.public and not visitor_key:  # this browser's first comparison
        visitor_key = compare_link.new_visitor_key()
        first[view.visitor] = visitor_key
    # The clinical overview first (the reader answers in milliseconds), the panels after it.
    clinical = clinical_summary(ref, cand)
    first[view.status] = overview_html(registry, {}, len(selected), selected[0], clinical=clinical,
                                       options=options)
    for name in selected:
        first.update(panels[name].pending("waiting"))
    yield first
    results: dict[str, dict[str, Any]] = {}
    # Panels go to the browser together, at most one message each STREAM_EVERY_S and before a
    # metric that loads a model (seconds): every message costs the page far more than the rules
    # metrics' milliseconds (17 messages made a run in the page several times the engine's time).
    shown: dict[Any, Any] = {}
    sent = time.monotonic()
    for i, name in enumerate(selected):
        slow = needs_model(view.app.cache, options, [name])
        if i and (slow or time.monotonic() - sent >= STREAM_EVERY_S):
            yield {**shown, **panels[name].pending("running"), view.results_state: dict(results),
                   view.status: overview_html(registry, results, len(selected), name,
                                              clinical=clinical, options=options)}
            shown, sent = {}, time.monotonic()
        with view.app.models.held(slow):
            result = score_metric(view.app.cache, options, pair, name, config.max_chars)
        results[name] = for_visitor(redact(result, secret_values(options)), config.public)
        shown.update(panels[name].show(results[name]))
    try:
        run_id = compare_link.save_comparison(view.app.store, pair, results, options,
                                              compare_link.owner_for(config.public, visitor_key))
        link = compare_link.link_for(root_url(request), run_id)
        link_box = link_html(link, config.public)
    except (StoreError, compare_link.NotOpenable) as exc:
        run_id, link = "", None
        link_box = status_box("warn", f"This comparison could not be stored, so it has no link: {exc}")
    record = comparison_record(ref, cand, results, mod, ar, link=link, run_id=run_id or None)
    html_path, json_path = write_report(record, registry)
    yield {**shown, view.results_state: dict(results),
           view.status: overview_html(registry, results, len(selected), None, run_id or "unstored",
                                      clinical),
           view.differences: compare_differences(ref, cand, results), view.dl_html: str(html_path),
           view.dl_json: str(json_path), view.link_box: link_box,
           view.shown_inputs: fingerprint(ref, cand, mod, ar, chosen, values)}


def finish(view: CompareView, results: dict[str, dict[str, Any]], shown: dict[str, Any] | None,
           ref: str, cand: str, mod: str, ar: str, chosen: list[str], *values: Any) -> dict[Any, Any]:
    """After scoring: hide the table or plot of a metric that produced none (it failed), offer
    the downloads, and mark the results out of date if the inputs were edited meanwhile."""
    out: dict[Any, Any] = on_edit(view, shown if results else None, ref, cand, mod, ar, chosen,
                                  *values)
    for name, result in (results or {}).items():
        if name in view.panels:
            out.update(view.panels[name].hide_empty(result))
    return out


def run_structure(app: AppContext, option_names: list[str], ref: str, cand: str, which: str,
                  *values: Any) -> Iterator[tuple[Any, str, Any]]:
    """Rewrite the chosen report in the structured format. ``values`` are the option controls
    and, last, the "Written by" choice. The rules rewrite answers at once; the LLM rewrite
    first shows that it is running (with the Cancel button), then the result."""
    config = app.config
    text = ref if which == "Reference" else cand
    side_name = which.lower()
    *controls, writer_choice = values if values else (None,)
    hidden = gr.update(visible=False)
    if not isinstance(text, str) or not text.strip():
        yield gr.update(visible=True), status_box("error", f"The {side_name} report is empty."), hidden
        return
    problems = input_problems(text, text, config.max_chars)
    if problems:
        yield gr.update(visible=True), status_box(
            "error", problems[0].replace("The reference report", f"The {side_name} report")), hidden
        return
    options: dict[str, Any] = {}
    try:
        options = config.request_options(options_from(option_names, tuple(controls)))
        writer = writer_for(writer_choice, options)
        if writer == "llm":
            yield (gr.update(visible=True),
                   status_box("info", f"The LLM judge is rewriting the {side_name} report; "
                                      "this can take a minute (Cancel stops it)."),
                   gr.update(visible=True))
        # The LLM rewrite waits its turn at the model gate; the rules rewrite uses no model.
        with app.models.held() if writer == "llm" else contextlib.nullcontext():
            result = structure(text, app.cache.runtime(options).ctx, writer)
    except StructureUnavailable as exc:
        yield gr.update(visible=True), status_box("warn", str(exc)), hidden
        return
    except StructureRefused as exc:  # the judge dropped, repeated or invented a finding
        log.info("structured report refused: %d problem(s)", len(exc.problems))
        yield gr.update(visible=True), refusal_html(exc), hidden
        return
    except Exception as exc:  # noqa: BLE001 - shown in the panel and logged, both redacted
        # No traceback in the log: the judge's error text may echo an API key back.
        message = redact(f"The rewrite failed: {type(exc).__name__}: {exc}", secret_values(options))
        log.warning("structured report: %s", message)
        yield gr.update(visible=True), status_box("error", message), hidden
        return
    yield gr.update(visible=True), structured_html(result), hidden


def show_stored(view: CompareView, ref: str, cand: str, mod: str, ar: str,
                results: dict[str, dict[str, Any]], note: str, run_id: str = "",
                link: str | None = None) -> dict[Any, Any]:
    """Fill the tab with a pair and results scored elsewhere (a batch row, a stored link):
    texts, panels, Differences and the report downloads, as if it had just been run here."""
    out: dict[Any, Any] = {view.reference: ref, view.candidate: cand, view.modality: mod or "",
                           view.area: ar or "", view.results_state: dict(results)}
    for name, panel in view.panels.items():
        shown = panel.visibility(name in results, results.get(name))
        if name in results:  # one update per component: its value and its visibility
            for component, value in panel.show(results[name]).items():
                shown[component] = ({**shown[component], "value": value} if component in shown
                                    else value)
        out.update(shown)
    record = comparison_record(ref, cand, results, mod, ar, link=link, run_id=run_id or None)
    html_path, json_path = write_report(record, view.app.registry)
    buttons = downloads(True)
    out.update({view.status: status_box("ok", note) + overview_html(view.app.registry, results,
                                                                    len(results), None,
                                                                    run_id or "stored",
                                                                    clinical_summary(ref, cand)),
                view.differences: compare_differences(ref, cand, results),
                view.dl_html: {**buttons["html"], "value": str(html_path)},
                view.dl_json: {**buttons["json"], "value": str(json_path)},
                view.stale: "", view.diff_stale: "", view.shown_inputs: fingerprint(ref, cand, mod, ar),
                view.link_box: link_html(link, view.app.config.public) if link else ""})
    return out


def open_link(view: CompareView, visitor_key: str | None, request: gr.Request) -> dict[Any, Any]:
    """On page load: give a public visitor their key, and open ``?compare=<run id>`` from the
    store when the address has one (nothing is scored)."""
    config = view.app.config
    out: dict[Any, Any] = {}
    if config.public and not visitor_key:
        visitor_key = compare_link.new_visitor_key()
        out[view.visitor] = visitor_key
    run_id = dict(getattr(request, "query_params", None) or {}).get(compare_link.QUERY)
    if run_id is None:
        return out or {view.status: gr.update()}
    try:
        stored = compare_link.load_comparison(view.app.store, run_id,
                                              compare_link.owner_for(config.public, visitor_key),
                                              config.public)
    except (compare_link.NotOpenable, StoreError) as exc:
        return {**out, view.status: status_box("error", str(exc))}
    pair = stored.pair
    note = (f"Comparison {stored.run_id} of {stored.created[:19].replace('T', ' ')} UTC, opened from "
            "its link: stored results, not re-scored.")
    link = compare_link.link_for(root_url(request), stored.run_id)
    return {**out, **show_stored(view, pair.reference, pair.candidate, pair.modality or "",
                                 pair.area or "", stored.results, note, stored.run_id, link)}
