"""The Batch tab: upload, column mapping with a preview, a batch run with progress, results,
summary plots, downloads, system comparison and resume. The handlers live in
``radscope.ui.tabs.batch.handlers``; this module builds the components and wires them."""
from __future__ import annotations

from typing import Any

import gradio as gr

from radscope.ui.handlers import bind
from radscope.ui.tabs.batch import handlers
from radscope.ui.tabs.batch import logic as batch_logic
from radscope.ui.tabs.batch.handlers import MAX_IN_FLIGHT, BatchView
from radscope.ui.tabs.compare.handlers import on_metrics
from radscope.ui.views.corpus import corpus_view_for
from radscope.ui.widgets import BATCH, BATCH_LIMIT, AppContext, option_controls, relevant_options

__all__ = ["UPLOAD_TYPES", "batch_tab"]
UPLOAD_TYPES = list(batch_logic.UPLOAD_SUFFIXES)


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
        controls = option_controls(config, "batch", relevant_options(app.registry, default_metrics),
                                  option_names)
    with gr.Row():
        run_id = gr.Textbox(label="Run id (empty: a new run; an earlier id: resume it)", max_lines=1,
                            elem_id="batch-run-id", scale=2)
        concurrency = gr.Slider(1, MAX_IN_FLIGHT, value=1, step=1, label="Pairs in flight (useful with a judge server)",
                                elem_id="batch-concurrency", scale=1)
        include_demo = gr.Checkbox(False, label="Include demo-grade metrics in the verdicts",
                                   info="System B against A: a metric scored by a demo-grade model "
                                        "gets a verdict only when this is ticked.",
                                   elem_id="batch-include-demo", scale=1)
    with gr.Row():
        run = gr.Button("Score batch", variant="primary", elem_id="batch-run", scale=3)
        stop = gr.Button("Stop", variant="stop", elem_id="batch-stop", scale=1)
    progress_box = gr.HTML(elem_id="batch-progress")
    summary = gr.HTML(elem_id="batch-summary")
    comparison = gr.Dataframe(label="System B against system A (paired bootstrap: each row's CI and p from the same resamples)",
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
    view = BatchView(app=app, option_names=option_names, progress_box=progress_box,
                     summary=summary, comparison=comparison, results=results, dist=dist,
                     corpus_plots=corpus_plots, dl_jsonl=dl_jsonl, dl_csv=dl_csv, dl_summary=dl_summary,
                     batch_state=gr.State({}))

    upload.change(bind(handlers.on_upload, len(dropdowns)), upload, [file_status, preview, *dropdowns],
                  api_name="inspect_file")
    gr.on([d.input for d in dropdowns], handlers.on_mapping, [upload, *dropdowns], file_status,
          api_name="check_mapping", queue=False)
    metrics.change(bind(on_metrics, app.registry, option_names), metrics, control_list, api_name="batch_options",
                   api_visibility="undocumented", queue=False)
    run.click(bind(handlers.hide_results, view), None, view.shown_later, api_name="batch_start",
              api_visibility="undocumented", queue=False) \
        .then(bind(handlers.run_batch_ui, view),
              [upload, *dropdowns, metrics, run_id, concurrency, include_demo, *control_list],
              view.outputs(), api_name="batch", concurrency_id=BATCH, concurrency_limit=BATCH_LIMIT) \
        .then(bind(handlers.reveal, view), view.batch_state, [*view.shown_later, runs, resume_pick],
              api_name="batch_finish", api_visibility="undocumented", queue=False)
    stop.click(bind(handlers.on_stop, app), None, progress_box, api_name="stop_batch")
    refresh.click(bind(handlers.on_refresh, app), None, [runs, resume_pick], api_name="list_runs")
    resume_pick.change(handlers.pick_run, resume_pick, run_id, api_name="pick_run",
                       api_visibility="undocumented", queue=False)
    return {"controls": controls, "runs": runs, "resume_pick": resume_pick, "results": results,
            "state": view.batch_state}
