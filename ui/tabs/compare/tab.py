"""The Compare tab: one pair, scored metric by metric into the panels; the /compare API; the
structured-report action; the link that reopens a stored comparison. The handlers live in
``radscope.ui.tabs.compare.handlers``; this module builds the components and wires them."""
from __future__ import annotations

from typing import Any

import gradio as gr

from radscope.engine.io.examples import example_pairs
from radscope.ui.handlers import bind
from radscope.ui.judge_build import runtime_box
from radscope.ui.panels import build_panel
from radscope.ui.public import for_visitor, redact, secret_values
from radscope.ui.runtime import needs_model
from radscope.ui.tabs.compare import handlers
from radscope.ui.tabs.compare.handlers import NO_DIFFERENCES, CompareView, compare_differences
from radscope.ui.tabs.compare.logic import InputProblem, compare_pair, parse_metrics
from radscope.ui.tabs.compare.structure_action import DEFAULT_WRITER, WRITER_CHOICES, structure_available
from radscope.ui.views import has_view
from radscope.ui.widgets import COMPARE, COMPARE_LIMIT, LLM, AppContext, option_controls, relevant_options

__all__ = ["NO_DIFFERENCES", "compare_api", "compare_differences", "compare_tab"]
VISITOR_KEY = "radscope-visitor"  # local-storage key of a public visitor's secret key
# On Run, at once: scroll so that the overview (#compare-status) starts near the top of the
# window, unless it already sits in the upper part of it (then nothing moves). The page is made
# tall enough first: the panels that fill it are not shown yet.
SHOW_OVERVIEW = """() => {
  const el = document.querySelector('#compare-status');
  if (!el) return;
  const top = el.getBoundingClientRect().top;
  if (top >= 0 && top <= window.innerHeight * 0.4) return;
  const page = document.querySelector('.gradio-container');
  if (page) page.style.minHeight = `${window.scrollY + top + window.innerHeight}px`;
  window.scrollBy({top: top - 12, behavior: 'instant'});
}"""


def compare_tab(app: AppContext, names: list[str], default_metrics: list[str],
                 choices: list[tuple[str, str]], option_names: list[str]) -> dict[str, Any]:
    config, registry = app.config, app.registry
    # Inputs on the left, Run and what it runs on the right: Run stays in the first screen at
    # 1280 x 720, whatever the options accordion holds; the overview comes right below.
    with gr.Row(elem_id="compare-inputs"):
        with gr.Column(scale=3, min_width=460):
            with gr.Row():
                with gr.Column(min_width=220):
                    reference = gr.Textbox(label="Reference report", lines=6, elem_id="reference",
                                           placeholder="Paste the reference (ground-truth) report…")
                    ref_upload = gr.UploadButton("Load reference (.txt)", file_types=[".txt"],
                                                size="sm", elem_id="reference-upload")
                with gr.Column(min_width=220):
                    candidate = gr.Textbox(label="Candidate report", lines=6, elem_id="candidate",
                                           placeholder="Paste the candidate (generated) report…")
                    cand_upload = gr.UploadButton("Load candidate (.txt)", file_types=[".txt"],
                                                 size="sm", elem_id="candidate-upload")
            with gr.Row():
                modality = gr.Textbox(label="Modality (optional)", placeholder="CR, CT, MR…",
                                      max_lines=1, elem_id="modality", min_width=160)
                area = gr.Textbox(label="Body area (optional)", placeholder="Chest, abdomen…",
                                  max_lines=1, elem_id="area", min_width=160)
            examples = example_pairs()
            gr.Examples(examples=[[e.pair.reference, e.pair.candidate, e.pair.modality or "",
                                   e.pair.area or ""] for e in examples],
                        inputs=[reference, candidate, modality, area],
                        example_labels=[e.title for e in examples],
                        label="Example pairs (written by the project; fictional)", elem_id="examples",
                        cache_examples=False)
        with gr.Column(scale=1, min_width=280, elem_id="compare-actions"):
            run = gr.Button("Run", variant="primary", elem_id="run", size="lg")
            metrics = gr.CheckboxGroup(choices=choices, value=default_metrics, label="Metrics",
                                       elem_id="metrics")
            with gr.Accordion("Metric options", open=False, elem_id="compare-options"):
                gr.Markdown("Only the options of the ticked metrics are shown. Blank text uses "
                            "the configured value or the default.")
                runtime_box(config.public, "compare-judge-runtime", quiet_when_ready=True)
                controls = option_controls(config, "compare",
                                          relevant_options(registry, default_metrics), option_names)
    stale = gr.HTML(elem_id="stale-notice")
    status = gr.HTML(elem_id="compare-status")
    with gr.Column(elem_id="differences-panel", elem_classes=["rs-panel"]):
        gr.HTML("<h2 class='rs-h2'>Differences</h2>")
        diff_stale = gr.HTML(elem_id="differences-stale")
        differences = gr.HTML(NO_DIFFERENCES, elem_id="differences")
        with gr.Row():  # disabled until a comparison has been scored
            dl_html = gr.DownloadButton(handlers.DL_HTML, value=None, elem_id="dl-report-html",
                                        size="sm", interactive=False)
            dl_json = gr.DownloadButton(handlers.DL_JSON, value=None, elem_id="dl-report-json",
                                        size="sm", interactive=False)
        link_box = gr.HTML(elem_id="compare-link")
    # Metrics with a dedicated view first (their panels carry tables and plots), the rest after.
    ordered = [n for n in names if has_view(n)] + [n for n in names if not has_view(n)]
    panels = {name: build_panel(registry.get(name)) for name in ordered}
    # A separate action, after the results (it never sits between Run and the answer).
    with gr.Accordion("Rewrite a report in the structured format", open=False,
                      elem_id="structure-section"):
        with gr.Row():
            side = gr.Radio(["Reference", "Candidate"], value="Candidate", label="Which report",
                            elem_id="structure-side")
            writer = gr.Radio(list(WRITER_CHOICES), value=DEFAULT_WRITER, label="Written by",
                              elem_id="structure-writer")
        with gr.Row():
            structure_btn = gr.Button("Structure report", elem_id="structure",
                                      interactive=structure_available())
            structure_cancel = gr.Button("Cancel", elem_id="structure-cancel", visible=False,
                                         variant="stop")
        with gr.Column(visible=False) as structure_box:
            structure_out = gr.HTML(elem_id="structure-output")
    visitor = gr.BrowserState(None, storage_key=VISITOR_KEY)
    view = CompareView(app=app, option_names=option_names, panels=panels, reference=reference,
                       candidate=candidate, modality=modality, area=area, status=status,
                       results_state=gr.State({}), differences=differences, dl_html=dl_html,
                       dl_json=dl_json, link_box=link_box, visitor=visitor, stale=stale,
                       diff_stale=diff_stale, shown_inputs=gr.State(None))
    control_list = [controls[n] for n in option_names]

    metrics.change(bind(handlers.on_metrics, registry, option_names), metrics, control_list,
                   api_name="compare_options", api_visibility="undocumented", queue=False)
    load_txt = bind(handlers.load_txt, config.max_chars)
    ref_upload.upload(load_txt, [ref_upload, reference], [reference, status], api_name="load_reference")
    cand_upload.upload(load_txt, [cand_upload, candidate], [candidate, status], api_name="load_candidate")

    inputs = [reference, candidate, modality, area, metrics, visitor, *control_list]
    edited: list[Any] = [reference, candidate, modality, area, metrics, *control_list]
    fresh = [stale, diff_stale, dl_html, dl_json]
    # In the browser, at once: the overview's place (the reader's answer, progress, then the
    # scores) comes into view before anything is scored.
    run.click(None, js=SHOW_OVERVIEW, api_visibility="private", queue=False)
    run.click(bind(handlers.start, view), [reference, candidate, metrics],
              [status, *fresh, view.shown_inputs, *view.columns_and_slots],
              api_name="compare_start", api_visibility="undocumented", queue=False) \
        .then(bind(handlers.stream, view), inputs, view.streamed, api_name="compare_panels",
              concurrency_id=COMPARE, concurrency_limit=COMPARE_LIMIT,
              show_progress="hidden") \
        .then(bind(handlers.finish, view), [view.results_state, view.shown_inputs, *edited],
              [*fresh, *view.columns_and_slots],
              api_name="compare_finish", api_visibility="undocumented", queue=False)
    # Any edit after a run marks what is shown as out of date (and back, if undone).
    gr.on([c.change for c in edited], bind(handlers.on_edit, view), [view.shown_inputs, *edited],
          fresh, api_visibility="private", queue=False, show_progress="hidden")
    # The rules rewrite needs no model; the LLM rewrite takes the model gate inside the handler.
    structuring = structure_btn.click(
        bind(handlers.run_structure, app, option_names),
        [reference, candidate, side, *control_list, writer],
        [structure_box, structure_out, structure_cancel],
        api_name="structure", concurrency_id=LLM, concurrency_limit=1)
    structure_cancel.click(lambda: gr.update(visible=False), None, structure_cancel,
                           cancels=[structuring], api_name="structure_cancel",
                           api_visibility="undocumented", queue=False)
    return {"controls": controls, "metrics": metrics, "reference": reference, "candidate": candidate,
            "view": view, "show_stored": bind(handlers.show_stored, view),
            "stored_outputs": view.stored_outputs()}


def compare_api(app: AppContext, default_metrics: list[str]) -> Any:
    default = ",".join(default_metrics)

    def compare(reference: str, candidate: str, metrics: str = default, modality: str = "",
                area: str = "", options: dict | None = None) -> dict:
        """Score one pair. ``metrics``: comma-separated names; ``options``: metric options
        (e.g. {"judge": "qwen2.5-7b-instruct"}; on a public server only those with fixed
        choices, such as {"extractor": "llm"}). Returns metric name -> result, as the CLI's
        "metrics" field."""
        try:
            for name, value in (("reference", reference), ("candidate", candidate),
                                ("metrics", metrics), ("modality", modality), ("area", area)):
                if not isinstance(value, str):
                    raise InputProblem(f"input {name!r} must be a string, not {type(value).__name__}")
            if options is not None and not isinstance(options, dict):
                raise InputProblem(f"input 'options' must be an object, not {type(options).__name__}")
            chosen = parse_metrics(app.registry, metrics, default_metrics)
            known = app.registry.all_options()
            unknown = [k for k in (options or {}) if k not in known]
            if unknown:
                raise InputProblem(f"Unknown option(s): {', '.join(unknown)}. Known: "
                                   f"{', '.join(known)}.")
            merged = app.config.request_options(options)
            with app.models.held(needs_model(app.cache, merged, chosen)):
                results = compare_pair(app.cache, reference, candidate, chosen, merged, modality,
                                       area, app.config.max_chars)
            return for_visitor(redact(results, secret_values(merged)), app.config.public)
        except InputProblem as exc:
            raise gr.Error(str(exc), print_exception=False) from None
        except ValueError as exc:  # an option with an impossible value
            raise gr.Error(str(exc), print_exception=False) from None

    return compare
