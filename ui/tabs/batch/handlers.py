"""The Batch tab's event handlers, as module-level functions of the tab's components
(``BatchView``); ``radscope.ui.tabs.batch.tab`` builds the components and binds these to them."""
from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import gradio as gr

from radscope.engine.runs.runner import BatchRun
from radscope.engine.runs.store import StoreError
from radscope.ui.public import for_visitor, owner_of, redact, secret_values, visitor_message, visitor_run_id
from radscope.ui.runtime import needs_model
from radscope.ui.tabs.batch import logic as batch_logic
from radscope.ui.tabs.batch import open_pair as batch_open
from radscope.ui.tabs.compare.logic import InputProblem, parse_metrics
from radscope.ui.views.corpus import corpus_figure, distribution_figure
from radscope.ui.widgets import AppContext, options_from, status_box

log = logging.getLogger(__name__)

MAX_IN_FLIGHT = 16  # the slider's top, enforced for API callers too


@dataclass
class BatchView:
    """The Batch tab's components that handlers read or write, and the app they serve."""

    app: AppContext
    option_names: list[str]
    progress_box: Any
    summary: Any
    comparison: Any
    results: Any
    dist: Any
    corpus_plots: dict[str, Any]
    dl_jsonl: Any
    dl_csv: Any
    dl_summary: Any
    batch_state: Any
    shown_later: list[Any] = field(init=False)

    def __post_init__(self) -> None:
        self.shown_later = [self.comparison, self.results, self.dist, *self.corpus_plots.values()]

    def outputs(self) -> list[Any]:
        """What the batch stream writes."""
        return [self.progress_box, self.summary, *self.shown_later, self.dl_jsonl, self.dl_csv,
                self.dl_summary, self.batch_state]


def scrubbed(run: BatchRun | None, options: dict[str, Any], public: bool) -> BatchRun | None:
    """The run's rows and summary with every secret masked and, in public mode, every failure
    shown as its category (what the page and files show)."""
    secrets = secret_values(options)
    if run is None or not (secrets or public):
        return run
    return replace(run, rows=for_visitor(redact(run.rows, secrets), public),
                   summary=redact(run.summary, secrets))


def owner_for(public: bool, request: gr.Request | None) -> str | None:
    """Whose runs a request sees: None (all) locally; in public mode the visitor's browser
    session, or an owner of nothing when the request carries no session."""
    if not public:
        return None
    return owner_of(getattr(request, "session_hash", None)) or batch_logic.NO_OWNER


def on_upload(n_dropdowns: int, path: str | None) -> list[Any]:
    """A new file: guess its columns, show a preview and say what was understood."""
    if not path:
        return [""] + [gr.update(visible=False)] + [gr.update() for _ in range(n_dropdowns)]
    try:
        frame, _ = batch_logic.read_upload(path)
    except batch_logic.BatchProblem as exc:
        return ([status_box("error", str(exc)), gr.update(visible=False)]
                + [gr.update() for _ in range(n_dropdowns)])
    cols = [str(c) for c in frame.columns]
    guess = batch_logic.guess_columns(cols)
    optional = [batch_logic.NO_COLUMN, *cols]
    values = [guess["id"] or batch_logic.NUMBER_ROWS, guess["reference"], guess["candidate"],
              guess["candidate_b"] or batch_logic.NO_COLUMN, guess["modality"] or batch_logic.NO_COLUMN,
              guess["area"] or batch_logic.NO_COLUMN]
    choices = [[batch_logic.NUMBER_ROWS, *cols], cols, cols, optional, optional, optional]
    updates = [gr.update(choices=c, value=v) for c, v in zip(choices, values, strict=True)]
    message = status_box(*batch_logic.mapping_status(path, frame, values))
    return [message, gr.update(value=batch_logic.preview_frame(frame), visible=True), *updates]


def on_mapping(path: str | None, *values: str | None) -> str:
    """A choice in any column dropdown re-checks the mapping, so a warning about a column
    that could not be guessed goes away once it is chosen (and a clash shows at once)."""
    if not path:
        return ""
    try:
        frame, _ = batch_logic.read_upload(path)
    except batch_logic.BatchProblem as exc:
        return status_box("error", str(exc))
    return status_box(*batch_logic.mapping_status(path, frame, values))


def cleared(view: BatchView, message: str) -> dict[Any, Any]:
    """Plain values only (see Panel): the stream never changes visibility."""
    out: dict[Any, Any] = {view.progress_box: message, view.summary: "", view.dl_jsonl: None,
                           view.dl_csv: None, view.dl_summary: None, view.batch_state: {}}
    out.update({c: None for c in view.shown_later})
    return out


def hide_results(view: BatchView) -> list[Any]:
    return [gr.update(visible=False) for _ in view.shown_later]


def run_batch_ui(view: BatchView, path: str | None, id_c: str, ref_c: str, cand_c: str,
                 cand_b_c: str, mod_c: str, area_c: str, chosen: list[str], rid: str, conc: float,
                 include_demo: bool, request: gr.Request = None,  # type: ignore[assignment]
                 *values: Any) -> Iterator[dict[Any, Any]]:
    """Score the file, one progress bar for the whole run, then the results, plots, summary,
    downloads and (with a system B) the system comparison."""
    app, config = view.app, view.app.config
    options: dict[str, Any] = {}
    try:
        selected = parse_metrics(app.registry, chosen)
        mapping = batch_logic.ColumnMapping.from_ui(id_c, ref_c, cand_c, cand_b_c, mod_c, area_c)
        if not path:  # read_upload's own check, repeated so that `path` is a str below
            raise batch_logic.BatchProblem(batch_logic.NO_UPLOAD)
        pairs, pairs_b = batch_logic.build_pairs(path, mapping, config.max_pairs)
        options = config.request_options(options_from(view.option_names, values))
        uses_models = needs_model(app.cache, options, selected)
        with app.models.held(uses_models):  # building may load a model
            built = [app.cache.metric(options, n)[1] for n in selected]
        runtime = app.cache.runtime(options)
        owner = owner_for(config.public, request)
        typed = batch_logic.check_run_id(rid)
        if typed and owner not in (None, batch_logic.NO_OWNER):
            typed = visitor_run_id(typed, owner)
        run_id = typed or batch_logic.default_run_id(app.store, pairs, built, config.max_chars,
                                                     config.public)
        batch_logic.claim_run_ids(app.store, [run_id] + ([f"{run_id}-b"] if pairs_b else []), owner)
    except (InputProblem, batch_logic.BatchProblem) as exc:
        yield cleared(view, status_box("error", str(exc)))
        return
    except Exception as exc:  # noqa: BLE001 - a metric that cannot load, a bad option value
        # Logged and shown redacted: the text may echo an API key back (a server's error reply).
        message = redact(f"Could not start: {type(exc).__name__}: {exc}", secret_values(options))
        log.warning("batch: %s", message)
        yield cleared(view, status_box("error", visitor_message(message, config.public)))
        return
    session = getattr(request, "session_hash", None) or "api"
    job = batch_logic.BatchJob(pairs=pairs, pairs_b=pairs_b, metric_names=selected, metrics=built,
                               registry=app.registry, ctx=runtime.ctx, store=app.store, run_id=run_id,
                               input_label=Path(path or "").name, max_chars=config.max_chars,
                               concurrency=max(1, min(MAX_IN_FLIGHT, int(conc or 1))),
                               gate=app.models if uses_models else None, cancel=app.cancel_event(session))
    systems = 2 if pairs_b is not None else 1
    yield cleared(view, batch_logic.progress_html(None, note=f"Starting run {run_id}…"))
    started = time.monotonic()  # one bar, one clock for the whole run (both systems)
    job.start()
    last, first_done = None, None
    try:
        for update in job.follow():
            if first_done is None:
                first_done = batch_logic.whole_run(update, systems, started, 0).done
            last = batch_logic.whole_run(update, systems, started, first_done)
            yield {view.progress_box: batch_logic.progress_html(last, systems, note=f"run id {run_id}")}
    finally:
        if job.alive():  # the page went away: stop the worker between two results
            job.cancel.set()
            job.join(timeout=60)
        app.release_cancel(session, job.cancel)  # "Stopping…" only while a batch runs
    if isinstance(job.error, batch_logic.Cancelled):
        note = (f"Stopped. Finished results are stored in run {run_id}; to resume, run the same "
                "file, columns and metrics again (with this run id, or with none: it is found "
                "by its input).")
        yield {view.progress_box: batch_logic.progress_html(last, systems, "stopped", note)}
        return
    if job.error is not None:
        message = str(job.error) if isinstance(job.error, StoreError) else \
            f"{type(job.error).__name__}: {job.error}"
        message = redact(f"The run stopped: {message}", secret_values(options))
        yield {view.progress_box: status_box("error", visitor_message(message, config.public))}
        return
    yield finished(view, job, options, selected, pairs, pairs_b, bool(include_demo), last, started,
                   run_id)


def finished(view: BatchView, job: batch_logic.BatchJob, options: dict[str, Any], selected: list[str],
             pairs: Any, pairs_b: Any, include_demo: bool, last: batch_logic.Progress | None,
             started: float, run_id: str) -> dict[Any, Any]:
    """Everything a finished run shows (secrets masked)."""
    public = view.app.config.public
    run_a, run_b = scrubbed(job.run_a, options, public), scrubbed(job.run_b, options, public)
    assert run_a is not None
    systems = 2 if run_b is not None else 1
    directions = {n: view.app.registry.get(n).card.direction for n in selected}
    compare_frame, compare_raw = (batch_logic.system_comparison(run_a.rows, run_b.rows, selected,
                                                                directions, include_demo=include_demo)
                                  if run_b is not None else (None, None))
    files = batch_logic.write_downloads(run_a, run_b, compare_raw, pairs=pairs, pairs_b=pairs_b)
    done: dict[Any, Any] = {
        view.progress_box: batch_logic.progress_html(
            last or batch_logic.Progress("A", 1, 1, len(pairs) * systems, started), systems, "done",
            f"run id {run_id}"),
        view.summary: batch_logic.summary_html(run_a.summary, "Summary (system A)" if run_b else "Summary")
        + (batch_logic.summary_html(run_b.summary, "Summary (system B)") if run_b else ""),
        view.comparison: compare_frame,
        view.results: batch_logic.results_table(run_a.rows, selected, run_b.rows if run_b else None),
        view.dist: distribution_figure(run_a.rows, selected, directions, run_b.rows if run_b else None),
        view.dl_jsonl: str(files[0]), view.dl_csv: str(files[1]), view.dl_summary: str(files[2]),
    }
    for name, plot in view.corpus_plots.items():
        if name not in selected:
            done[plot] = None
            continue
        system_b = (run_b.summary["metrics"][name], run_b.rows) if run_b is not None else None
        done[plot] = corpus_figure(name, run_a.summary["metrics"][name], run_a.rows, system_b)
    columns = list(getattr(done[view.results], "data", done[view.results]).columns)
    done[view.batch_state] = {
        "shown": [i for i, c in enumerate(view.shown_later) if done.get(c) is not None],
        **batch_open.rows_state(pairs, pairs_b, run_a.rows, run_b.rows if run_b else None, columns)}
    return done


def reveal(view: BatchView, state: dict[str, Any], request: gr.Request) -> list[Any]:
    """After the stream: show what the run produced, refresh the list of earlier runs."""
    shown = set((state or {}).get("shown", []))
    owner = owner_for(view.app.config.public, request)
    return ([gr.update(visible=i in shown) for i in range(len(view.shown_later))]
            + [batch_logic.runs_frame(view.app.store, owner=owner),
               gr.update(choices=batch_logic.resumable_runs(view.app.store, owner), value=None)])


def on_stop(app: AppContext, request: gr.Request) -> str:
    event = app.cancels.get(getattr(request, "session_hash", None) or "api")
    if event is None:
        return status_box("warn", "No batch is running in this page.")
    event.set()
    return status_box("warn", "Stopping after the result in progress…")


def on_refresh(app: AppContext, request: gr.Request) -> tuple[Any, Any]:
    owner = owner_for(app.config.public, request)
    return (batch_logic.runs_frame(app.store, owner=owner),
            gr.update(choices=batch_logic.resumable_runs(app.store, owner)))


def pick_run(run_id: str | None) -> Any:
    return run_id or gr.update()
