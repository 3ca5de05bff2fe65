"""The Batch tab: upload, column mapping with a preview, a batch run with progress, results,
summary plots, downloads, system comparison and resume."""
from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import gradio as gr

from engine.metrics import registry
from engine.runner import BatchRun
from engine.store import StoreError
from ui import batch as batch_logic
from ui import batch_open
from ui.compare import InputProblem, parse_metrics
from ui.public import owner_of, redact, secret_values
from ui.views.corpus import corpus_figure, corpus_view_for, distribution_figure
from ui.widgets import LLM, AppContext, option_controls, options_from, relevant_options, status_box

UPLOAD_TYPES = list(batch_logic.UPLOAD_SUFFIXES)
MAX_IN_FLIGHT = 16  # the slider's top, enforced for API callers too


def scrubbed(run: BatchRun | None, options: dict[str, Any]) -> BatchRun | None:
    """The run's rows and summary with every secret masked (what the page and files show)."""
    secrets = secret_values(options)
    if run is None or not secrets:
        return run
    return replace(run, rows=redact(run.rows, secrets), summary=redact(run.summary, secrets))


def batch_tab(app: AppContext, names: list[str], default_metrics: list[str],
               choices: list[tuple[str, str]], option_names: list[str]) -> dict[str, Any]:
    config = app.config
    gr.Markdown("Upload a file of report pairs, check which column is which, choose metrics and "
                "run. Results are stored as each pair finishes: a stopped or interrupted run "
                "resumes when you start it again with the same run id and the same file.")
    with gr.Row():
        with gr.Column(scale=1):
            upload = gr.File(label="Pairs file (CSV, TSV, JSONL or JSON)", file_types=UPLOAD_TYPES,
                             type="filepath", elem_id="batch-file")
        with gr.Column(scale=2):
            with gr.Row():
                id_col = gr.Dropdown([batch_logic.NUMBER_ROWS, "id"], value="id", label="Id column",
                                     allow_custom_value=True, elem_id="col-id")
                ref_col = gr.Dropdown(["reference"], value="reference", label="Reference column",
                                      allow_custom_value=True, elem_id="col-reference")
                cand_col = gr.Dropdown(["candidate"], value="candidate", label="Candidate column",
                                       allow_custom_value=True, elem_id="col-candidate")
            with gr.Row():
                cand_b_col = gr.Dropdown([batch_logic.NO_COLUMN], value=batch_logic.NO_COLUMN,
                                         label="Second candidate column (system B, optional)",
                                         allow_custom_value=True, elem_id="col-candidate-b")
                mod_col = gr.Dropdown([batch_logic.NO_COLUMN], value=batch_logic.NO_COLUMN,
                                      label="Modality column (optional)", allow_custom_value=True,
                                      elem_id="col-modality")
                area_col = gr.Dropdown([batch_logic.NO_COLUMN], value=batch_logic.NO_COLUMN,
                                       label="Area column (optional)", allow_custom_value=True,
                                       elem_id="col-area")
    file_status = gr.HTML(elem_id="batch-file-status")
    preview = gr.Dataframe(label="Preview (first rows)", interactive=False, visible=False, wrap=True,
                           max_height=260, elem_id="batch-preview")
    metrics = gr.CheckboxGroup(choices=choices, value=default_metrics, label="Metrics",
                               elem_id="batch-metrics")
    with gr.Accordion("Metric options", open=False, elem_id="batch-options"):
        controls = option_controls(config, "batch", relevant_options(default_metrics), option_names)
    with gr.Row():
        run_id = gr.Textbox(label="Run id (empty: a new run; an earlier id: resume it)", max_lines=1,
                            elem_id="batch-run-id", scale=2)
        concurrency = gr.Slider(1, MAX_IN_FLIGHT, value=1, step=1, label="Pairs in flight (useful with a judge server)",
                                elem_id="batch-concurrency", scale=1)
    with gr.Row():
        run = gr.Button("Score batch", variant="primary", elem_id="batch-run", scale=3)
        stop = gr.Button("Stop", variant="stop", elem_id="batch-stop", scale=1)
    progress_box = gr.HTML(elem_id="batch-progress")
    summary = gr.HTML(elem_id="batch-summary")
    comparison = gr.Dataframe(label="System B against system A (paired bootstrap and permutation tests)",
                              interactive=False, visible=False, wrap=True, elem_id="batch-comparison")
    results = gr.Dataframe(label="Per-pair results (sort or filter with a column's ⋮ menu; click a row "
                                 "to open that pair in Compare)", interactive=False,
                           wrap=True, max_height=420, elem_id="batch-results", show_search="search",
                           visible=False)
    dist = gr.Plot(visible=False, elem_id="batch-distribution", show_label=False)
    corpus_names = [n for n in names if corpus_view_for(n) is not None]
    corpus_plots = {n: gr.Plot(visible=False, elem_id=f"batch-corpus-{n}", show_label=False)
                    for n in corpus_names}
    with gr.Row():
        dl_jsonl = gr.DownloadButton("Download results (JSONL)", value=None, elem_id="dl-jsonl")
        dl_csv = gr.DownloadButton("Download results (CSV)", value=None, elem_id="dl-csv")
        dl_summary = gr.DownloadButton("Download summary (JSON)", value=None, elem_id="dl-summary")
    with gr.Accordion("Earlier runs (resume an interrupted one)", open=False, elem_id="batch-runs"):
        with gr.Row():
            resume_pick = gr.Dropdown([], label="Interrupted runs", elem_id="resume-pick", scale=3)
            refresh = gr.Button("Refresh", scale=1)
        runs = gr.Dataframe(interactive=False, elem_id="runs-table", wrap=True)

    dropdowns = [id_col, ref_col, cand_col, cand_b_col, mod_col, area_col]
    control_list = [controls[n] for n in option_names]

    def owner_for(request: gr.Request | None) -> str | None:
        """Whose runs a request sees: None (all) locally; in public mode the visitor's browser
        session, or an owner of nothing when the request carries no session."""
        if not config.public:
            return None
        return owner_of(getattr(request, "session_hash", None)) or batch_logic.NO_OWNER

    def on_upload(path: str | None) -> list[Any]:
        if not path:
            return [""] + [gr.update(visible=False)] + [gr.update() for _ in dropdowns]
        try:
            frame, _ = batch_logic.read_upload(path)
        except batch_logic.BatchProblem as exc:
            return [status_box("error", str(exc)), gr.update(visible=False)] + [gr.update() for _ in dropdowns]
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

    upload.change(on_upload, upload, [file_status, preview, *dropdowns], api_name="inspect_file")

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

    gr.on([d.input for d in dropdowns], on_mapping, [upload, *dropdowns], file_status,
          api_name="check_mapping", queue=False)

    def on_metrics(chosen: list[str]) -> list[Any]:
        show = relevant_options(chosen)
        return [gr.update(visible=n in show) for n in option_names]

    metrics.change(on_metrics, metrics, control_list, api_name="batch_options",
                   api_visibility="undocumented", queue=False)

    batch_state = gr.State({})
    shown_later = [comparison, results, dist, *corpus_plots.values()]
    outputs = [progress_box, summary, *shown_later, dl_jsonl, dl_csv, dl_summary, batch_state]

    def cleared(message: str) -> dict[Any, Any]:
        """Plain values only (see Panel): the stream never changes visibility."""
        out: dict[Any, Any] = {progress_box: message, summary: "", dl_jsonl: None, dl_csv: None,
                               dl_summary: None, batch_state: {}}
        out.update({c: None for c in shown_later})
        return out

    def hide_results() -> list[Any]:
        return [gr.update(visible=False) for _ in shown_later]

    def run_batch_ui(path: str | None, id_c: str, ref_c: str, cand_c: str, cand_b_c: str, mod_c: str,
                     area_c: str, chosen: list[str], rid: str, conc: float,
                     request: gr.Request | None = None, *values: Any) -> Iterator[dict[Any, Any]]:
        options: dict[str, Any] = {}
        try:
            selected = parse_metrics(chosen)
            mapping = batch_logic.ColumnMapping.from_ui(id_c, ref_c, cand_c, cand_b_c, mod_c, area_c)
            if not path:  # read_upload's own check, repeated so that `path` is a str below
                raise batch_logic.BatchProblem(batch_logic.NO_UPLOAD)
            pairs, pairs_b = batch_logic.build_pairs(path, mapping, config.max_pairs)
            options = config.request_options(options_from(option_names, values))
            built = [app.cache.metric(options, n)[1] for n in selected]
            runtime = app.cache.runtime(options)
            run_id = batch_logic.check_run_id(rid) or batch_logic.default_run_id(
                app.store, pairs, built, config.max_chars, config.public)
            batch_logic.claim_run_ids(app.store, [run_id] + ([f"{run_id}-b"] if pairs_b else []),
                                      owner_for(request))
        except (InputProblem, batch_logic.BatchProblem) as exc:
            yield cleared(status_box("error", str(exc)))
            return
        except Exception as exc:  # noqa: BLE001 - a metric that cannot load, a bad option value
            yield cleared(status_box("error", redact(f"Could not start: {type(exc).__name__}: {exc}",
                                                     secret_values(options))))
            return
        session = getattr(request, "session_hash", None) or "api"
        job = batch_logic.BatchJob(pairs=pairs, pairs_b=pairs_b, metric_names=selected, metrics=built,
                                   ctx=runtime.ctx, store=app.store, run_id=run_id,
                                   input_label=Path(path).name, max_chars=config.max_chars,
                                   concurrency=max(1, min(MAX_IN_FLIGHT, int(conc or 1))),
                                   cancel=app.cancel_event(session))
        systems = 2 if pairs_b is not None else 1
        yield cleared(batch_logic.progress_html(None, note=f"Starting run {run_id}…"))
        started = time.monotonic()  # one bar, one clock for the whole run (both systems)
        job.start()
        last, first_done = None, None
        try:
            for update in job.follow():
                if first_done is None:
                    first_done = batch_logic.whole_run(update, systems, started, 0).done
                last = batch_logic.whole_run(update, systems, started, first_done)
                yield {progress_box: batch_logic.progress_html(last, systems, note=f"run id {run_id}")}
        finally:
            if job.alive():  # the page went away: stop the worker between two results
                job.cancel.set()
                job.join(timeout=60)
        if isinstance(job.error, batch_logic.Cancelled):
            note = (f"Stopped. Finished results are stored in run {run_id}; to resume, run the same "
                    "file, columns and metrics again (with this run id, or with none: it is found "
                    "by its input).")
            yield {progress_box: batch_logic.progress_html(last, systems, "stopped", note)}
            return
        if job.error is not None:
            message = str(job.error) if isinstance(job.error, StoreError) else \
                f"{type(job.error).__name__}: {job.error}"
            yield {progress_box: status_box("error", redact(f"The run stopped: {message}",
                                                            secret_values(options)))}
            return
        run_a, run_b = scrubbed(job.run_a, options), scrubbed(job.run_b, options)
        assert run_a is not None
        compare_frame, compare_raw = (batch_logic.system_comparison(run_a.rows, run_b.rows, selected)
                                      if run_b is not None else (None, None))
        files = batch_logic.write_downloads(run_a, run_b, compare_raw, pairs=pairs, pairs_b=pairs_b)
        directions = {n: registry.get(n).card.direction for n in selected}
        done: dict[Any, Any] = {
            progress_box: batch_logic.progress_html(
                last or batch_logic.Progress("A", 1, 1, len(pairs) * systems, started), systems, "done",
                f"run id {run_id}"),
            summary: batch_logic.summary_html(run_a.summary, "Summary (system A)" if run_b else "Summary")
            + (batch_logic.summary_html(run_b.summary, "Summary (system B)") if run_b else ""),
            comparison: compare_frame,
            results: batch_logic.results_table(run_a.rows, selected, run_b.rows if run_b else None),
            dist: distribution_figure(run_a.rows, selected, directions, run_b.rows if run_b else None),
            dl_jsonl: str(files[0]), dl_csv: str(files[1]), dl_summary: str(files[2]),
        }
        for name, plot in corpus_plots.items():
            done[plot] = (corpus_figure(name, run_a.summary["metrics"][name], run_a.rows)
                          if name in selected else None)
        columns = list(getattr(done[results], "data", done[results]).columns)
        done[batch_state] = {"shown": [i for i, c in enumerate(shown_later) if done.get(c) is not None],
                             **batch_open.rows_state(pairs, pairs_b, run_a.rows,
                                                     run_b.rows if run_b else None, columns)}
        yield done

    def reveal(state: dict[str, Any], request: gr.Request) -> list[Any]:
        """After the stream: show what the run produced, refresh the list of earlier runs."""
        shown = set((state or {}).get("shown", []))
        return ([gr.update(visible=i in shown) for i in range(len(shown_later))]
                + [batch_logic.runs_frame(app.store, owner=owner_for(request)),
                   gr.update(choices=batch_logic.resumable_runs(app.store, owner_for(request)),
                             value=None)])

    run.click(hide_results, None, shown_later, api_name="batch_start", api_visibility="undocumented",
              queue=False) \
        .then(run_batch_ui, [upload, *dropdowns, metrics, run_id, concurrency, *control_list], outputs,
              api_name="batch", concurrency_id=LLM, concurrency_limit=1) \
        .then(reveal, batch_state, [*shown_later, runs, resume_pick], api_name="batch_finish",
              api_visibility="undocumented", queue=False)

    def on_stop(request: gr.Request) -> str:
        event = app.cancels.get(getattr(request, "session_hash", None) or "api")
        if event is None:
            return status_box("warn", "No batch is running in this page.")
        event.set()
        return status_box("warn", "Stopping after the result in progress…")

    stop.click(on_stop, None, progress_box, api_name="stop_batch")

    def on_refresh(request: gr.Request) -> tuple[Any, Any]:
        owner = owner_for(request)
        return (batch_logic.runs_frame(app.store, owner=owner),
                gr.update(choices=batch_logic.resumable_runs(app.store, owner)))

    refresh.click(on_refresh, None, [runs, resume_pick], api_name="list_runs")
    resume_pick.change(lambda r: r or gr.update(), resume_pick, run_id, api_name="pick_run",
                       api_visibility="undocumented", queue=False)
    return {"controls": controls, "runs": runs, "resume_pick": resume_pick, "results": results,
            "state": batch_state}
