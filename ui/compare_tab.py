"""The Compare tab: one pair, scored metric by metric into the panels; the /compare API; the
structured-report action."""
from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import gradio as gr

from engine.examples import example_pairs
from engine.metrics import registry
from ui.compare import InputProblem, compare_pair, input_problems, make_pair, parse_metrics, \
    read_text_upload, score_metric
from ui.differences import alignment_source, differences_html
from ui.panels import build_panel, overview_html
from ui.report import comparison_record, write_report
from ui.public import redact, secret_values
from ui.structure import StructureUnavailable, structure, structure_available, structured_html
from ui.views import has_view
from ui.widgets import LLM, AppContext, option_controls, options_from, relevant_options, status_box


NO_DIFFERENCES = ("<div class='rs-muted'>Run a comparison with RadSEM ticked: each finding of both "
                  "reports is then highlighted by what happened to it.</div>")


def compare_differences(reference: str, candidate: str, results: dict[str, dict[str, Any]]) -> str:
    """The Differences view from the run's RadSEM alignment (rules reader or LLM judge)."""
    found = alignment_source(results)
    if found is None:
        if any(name.split("-")[0] == "radsem" for name in results):
            return ("<div class='rs-warn'>RadSEM gave no sentence alignment for this pair (its panel "
                    "says why), so the differences cannot be shown in the text.</div>")
        return NO_DIFFERENCES
    name, result = found
    return differences_html(reference, candidate, result, f"{name}, {result.get('model') or 'no model'}")


def compare_tab(app: AppContext, names: list[str], default_metrics: list[str],
                 choices: list[tuple[str, str]], option_names: list[str]) -> dict[str, Any]:
    config = app.config
    with gr.Row():
        with gr.Column():
            reference = gr.Textbox(label="Reference report", lines=9, elem_id="reference",
                                   placeholder="Paste the reference (ground-truth) report…")
            ref_upload = gr.UploadButton("Load reference from a .txt file", file_types=[".txt"],
                                        size="sm", elem_id="reference-upload")
        with gr.Column():
            candidate = gr.Textbox(label="Candidate report", lines=9, elem_id="candidate",
                                   placeholder="Paste the candidate (generated) report…")
            cand_upload = gr.UploadButton("Load candidate from a .txt file", file_types=[".txt"],
                                         size="sm", elem_id="candidate-upload")
    with gr.Row():
        modality = gr.Textbox(label="Modality (optional)", placeholder="CR, CT, MR…", max_lines=1,
                              elem_id="modality")
        area = gr.Textbox(label="Body area (optional)", placeholder="Chest, abdomen…", max_lines=1,
                          elem_id="area")
    examples = example_pairs()
    gr.Examples(examples=[[e.pair.reference, e.pair.candidate, e.pair.modality or "", e.pair.area or ""]
                          for e in examples],
                inputs=[reference, candidate, modality, area], example_labels=[e.title for e in examples],
                label="Example pairs (written by the project; fictional)", elem_id="examples",
                cache_examples=False)
    metrics = gr.CheckboxGroup(choices=choices, value=default_metrics, label="Metrics",
                               elem_id="metrics")
    with gr.Accordion("Metric options", open=False, elem_id="compare-options"):
        gr.Markdown("Only the options of the ticked metrics are shown. Blank text uses the configured value "
                    "or the default.")
        controls = option_controls(config, "compare", relevant_options(default_metrics), option_names)
    with gr.Row():
        run = gr.Button("Run", variant="primary", elem_id="run", scale=2)
        side = gr.Radio(["Reference", "Candidate"], value="Candidate", label="Structure which report",
                        scale=1, elem_id="structure-side")
        structure_btn = gr.Button("Structure report", elem_id="structure", scale=1,
                                  interactive=structure_available())
    status = gr.HTML(elem_id="compare-status")
    with gr.Column(elem_id="differences-panel", elem_classes=["rs-panel"]):
        gr.HTML("<h2 class='rs-h2'>Differences</h2>")
        differences = gr.HTML(NO_DIFFERENCES, elem_id="differences")
        with gr.Row():
            dl_html = gr.DownloadButton("Download this comparison (HTML report)", value=None,
                                        elem_id="dl-report-html", size="sm")
            dl_json = gr.DownloadButton("Download this comparison (JSON)", value=None,
                                        elem_id="dl-report-json", size="sm")
    with gr.Accordion("Structured report", open=True, visible=False) as structure_box:
        structure_out = gr.HTML(elem_id="structure-output")
    # Metrics with a dedicated view first (their panels carry tables and plots), the rest after.
    ordered = [n for n in names if has_view(n)] + [n for n in names if not has_view(n)]
    panels = {name: build_panel(name) for name in ordered}

    control_list = [controls[n] for n in option_names]

    def on_metrics(chosen: list[str]) -> list[Any]:
        show = relevant_options(chosen)
        return [gr.update(visible=n in show) for n in option_names]

    metrics.change(on_metrics, metrics, control_list, api_name="compare_options",
                   api_visibility="undocumented", queue=False)

    def load_txt(file: Any, current: str) -> tuple[Any, str]:
        try:
            text = read_text_upload(getattr(file, "name", file), config.max_chars)
        except InputProblem as exc:
            return current, status_box("error", str(exc))
        return text, status_box("ok", f"Loaded {len(text):,} characters.")

    ref_upload.upload(load_txt, [ref_upload, reference], [reference, status], api_name="load_reference")
    cand_upload.upload(load_txt, [cand_upload, candidate], [candidate, status], api_name="load_candidate")

    results_state = gr.State({})
    columns_and_slots = [c for p in panels.values() for c in (p.column, *p.slots())]
    streamed = ([status, results_state, differences, dl_html, dl_json]
                + [c for p in panels.values() for c in p.streamed()])

    def check(ref: str, cand: str, chosen: list[str]) -> list[str]:
        selected = parse_metrics(chosen)
        problems = input_problems(ref, cand, config.max_chars)
        if problems:
            raise InputProblem(" ".join(problems))
        return selected

    def start(ref: str, cand: str, chosen: list[str]) -> dict[Any, Any]:
        """Before scoring: show the chosen metrics' panels (or say what is wrong)."""
        try:
            selected = check(ref, cand, chosen)
        except InputProblem as exc:
            out = {status: status_box("error", str(exc))}
            for p in panels.values():
                out.update(p.visibility(False))
            return out
        out = {status: overview_html({}, len(selected), selected[0])}
        for name, p in panels.items():
            out.update(p.visibility(name in selected))
        return out

    def stream(ref: str, cand: str, mod: str, ar: str, chosen: list[str],
               *values: Any) -> Iterator[dict[Any, Any]]:
        """Score metric by metric, yielding each panel as soon as its metric is done."""
        try:
            selected = check(ref, cand, chosen)
        except InputProblem as exc:
            yield {status: status_box("error", str(exc)), results_state: {},
                   differences: NO_DIFFERENCES, dl_html: None, dl_json: None}
            return
        options = config.request_options(options_from(option_names, values))
        pair = make_pair(ref, cand, mod, ar)
        run_token = uuid.uuid4().hex[:8]  # tells one finished run from the next
        first: dict[Any, Any] = {results_state: {}, differences: NO_DIFFERENCES, dl_html: None,
                                 dl_json: None}
        for name in selected:
            first.update(panels[name].pending("waiting"))
        yield first
        results: dict[str, dict[str, Any]] = {}
        for name in selected:
            yield {**panels[name].pending("running"), status: overview_html(results, len(selected), name)}
            results[name] = redact(score_metric(app.cache, options, pair, name, config.max_chars),
                                   secret_values(options))
            last = name == selected[-1]
            yield {**panels[name].show(results[name]), results_state: dict(results),
                   status: overview_html(results, len(selected), None if last else name, run_token)}
        record = comparison_record(ref, cand, results, mod, ar)
        html_path, json_path = write_report(record)
        yield {differences: compare_differences(ref, cand, results), dl_html: str(html_path),
               dl_json: str(json_path)}

    def finish(results: dict[str, dict[str, Any]]) -> dict[Any, Any]:
        """After scoring: hide the table or plot of a metric that produced none (it failed)."""
        out: dict[Any, Any] = {}
        for name, result in (results or {}).items():
            if name in panels:
                out.update(panels[name].visibility(True, result))
        # Gradio reads an empty dict as one output value, not as "no updates" (and then fails
        # with "didn't return enough output values"): say "no change" to one component instead.
        return out or {columns_and_slots[0]: gr.update()}

    inputs = [reference, candidate, modality, area, metrics, *control_list]
    run.click(start, [reference, candidate, metrics], [status, *columns_and_slots], api_name="compare_start",
              api_visibility="undocumented", queue=False) \
        .then(stream, inputs, streamed, api_name="compare_panels", concurrency_id=LLM, concurrency_limit=1) \
        .then(finish, results_state, columns_and_slots, api_name="compare_finish",
              api_visibility="undocumented", queue=False)

    def run_structure(ref: str, cand: str, which: str, *values: Any) -> tuple[Any, str]:
        """Rewrite the chosen report in the structured format with the judge (LLM)."""
        text = ref if which == "Reference" else cand
        side_name = which.lower()
        if not isinstance(text, str) or not text.strip():
            return gr.update(visible=True), status_box("error", f"The {side_name} report is empty.")
        problems = input_problems(text, text, config.max_chars)
        if problems:
            return gr.update(visible=True), status_box(
                "error", problems[0].replace("The reference report", f"The {side_name} report"))
        options: dict[str, Any] = {}
        try:
            options = config.request_options(options_from(option_names, values))
            result = structure(text, app.cache.runtime(options).ctx)
        except StructureUnavailable as exc:
            return gr.update(visible=True), status_box("warn", str(exc))
        except Exception as exc:  # noqa: BLE001 - judge missing or unusable answer: say so
            return gr.update(visible=True), status_box(
                "error", redact(f"The rewrite failed: {type(exc).__name__}: {exc}",
                                secret_values(options)))
        return gr.update(visible=True), structured_html(result)

    structure_btn.click(run_structure, [reference, candidate, side, *control_list],
                        [structure_box, structure_out], api_name="structure", concurrency_id=LLM,
                        concurrency_limit=1)
    def show_stored(ref: str, cand: str, mod: str, ar: str, results: dict[str, dict[str, Any]],
                    note: str) -> dict[Any, Any]:
        """Fill the tab with a pair and results scored elsewhere (a batch row): texts, panels,
        Differences and the report downloads, as if it had just been run here."""
        out: dict[Any, Any] = {reference: ref, candidate: cand, modality: mod or "", area: ar or "",
                               results_state: dict(results)}
        for name, panel in panels.items():
            shown = panel.visibility(name in results, results.get(name))
            if name in results:  # one update per component: its value and its visibility
                for component, value in panel.show(results[name]).items():
                    shown[component] = ({**shown[component], "value": value} if component in shown
                                        else value)
            out.update(shown)
        html_path, json_path = write_report(comparison_record(ref, cand, results, mod, ar))
        out.update({status: status_box("ok", note) + overview_html(results, len(results), None, "stored"),
                    differences: compare_differences(ref, cand, results), dl_html: str(html_path),
                    dl_json: str(json_path)})
        return out

    stored_outputs = list(dict.fromkeys([reference, candidate, modality, area, results_state, status,
                                         differences, dl_html, dl_json, *columns_and_slots, *streamed]))
    return {"controls": controls, "metrics": metrics, "reference": reference, "candidate": candidate,
            "show_stored": show_stored, "stored_outputs": stored_outputs}


def compare_api(app: AppContext, default_metrics: list[str]) -> Any:
    default = ",".join(default_metrics)

    def compare(reference: str, candidate: str, metrics: str = default, modality: str = "",
                area: str = "", options: dict | None = None) -> dict:
        """Score one pair. ``metrics``: comma-separated names; ``options``: metric options
        (e.g. {"judge": "qwen2.5-7b-instruct"}; on a public server only those with fixed
        choices, such as {"extractor": "llm"}). Returns metric name -> result, as the CLI's
        "metrics" field."""
        try:
            chosen = parse_metrics(metrics, default_metrics)
            unknown = [k for k in (options or {}) if k not in registry.all_options()]
            if unknown:
                raise InputProblem(f"Unknown option(s): {', '.join(unknown)}. Known: "
                                   f"{', '.join(registry.all_options())}.")
            merged = app.config.request_options(options)
            return redact(compare_pair(app.cache, reference, candidate, chosen, merged, modality,
                                       area, app.config.max_chars), secret_values(merged))
        except InputProblem as exc:
            raise gr.Error(str(exc), print_exception=False) from None
        except ValueError as exc:  # an option with an impossible value
            raise gr.Error(str(exc), print_exception=False) from None

    return compare
