"""The Models tab: what is loaded, the model registry with availability, switching the judge,
checking or downloading a model. In public mode the judge cannot be switched, models cannot be
unloaded or downloaded, and a check looks up registry ids only (see ``radscope.ui.public``). The
handlers live in ``radscope.ui.tabs.models.handlers``; this module builds the components and wires them."""
from __future__ import annotations

from typing import Any

import gradio as gr

from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.models import model_registry
from radscope.ui.handlers import bind, holding
from radscope.ui.judge_build import runtime_box
from radscope.ui.tabs.models import handlers
from radscope.ui.tabs.models import logic as model_status
from radscope.ui.tabs.models.get_rows import get_section
from radscope.ui.tabs.models.handlers import judge_not_here as _not_here  # noqa: F401 - tests/hub import it here
from radscope.ui.widgets import LLM, AppContext, status_box

DEMO_GRADE = ("**Demo-grade** models ship with RadScope (or install with it) so that every pipeline "
              "runs offline, at once: a 270M-parameter judge and three tiny encoders. They show "
              "the app working; their numbers mean nothing, so the page greys them out and never "
              "picks them by default. For real scores, use the rules reader (the default) or get "
              "a model marked “no” under demo-grade below.")


def models_tab(app: AppContext, tab: gr.Tab, compare_parts: dict[str, Any],
               batch_parts: dict[str, Any]) -> None:
    """Build the tab; ``compare_parts`` / ``batch_parts`` hold the option controls that
    "Use this judge" fills in."""
    public = app.config.public
    gr.Markdown(DEMO_GRADE, elem_id="models-intro")
    gr.Markdown("### Loaded now\nWhat each metric runs on at the moment. Models stay loaded "
                "between requests, one set per combination of options (the least recently used "
                "set is unloaded when a new one is needed).")
    loaded = gr.Dataframe(interactive=False, wrap=True, elem_id="models-loaded",
                          column_widths=["8%", "17%", "15%", "7%", "7%", "8%", "10%", "28%"])
    with gr.Row():
        refresh = gr.Button("Refresh", elem_id="models-refresh")
        unload = None if public else gr.Button("Unload all models", elem_id="models-unload")
    unload_status = gr.HTML()
    if public:
        gr.Markdown("### Judge\nThis is a public server: the operator chose the judge and the "
                    "models (config file or environment); they cannot be switched from the page.")
        runtime_box(public, "judge-runtime")
    else:
        judge_switch(app.registry, compare_parts, batch_parts)
    check_text = ("The status is checked on this machine only (bundled files, installed packages, "
                  "the Hugging Face cache)" + (". " if public else "; nothing is downloaded until "
                                               "you ask (under “Get a model”). "))
    gr.Markdown(f"### Every model RadScope knows\n{check_text}★ marks recommended judges.")
    table = gr.Dataframe(interactive=False, wrap=True, elem_id="models-registry")
    with gr.Row():
        any_model = gr.Dropdown(list(model_registry.load_registry()), value=None,
                                label="Check any registry model (encoders too)" if public else
                                "Check or download any registry model (encoders too)",
                                allow_custom_value=not public, elem_id="model-pick", scale=3)
        fetch = gr.Button("Check" if public else "Check / download", elem_id="model-fetch", scale=1)
    fetch_status = gr.HTML(elem_id="model-fetch-status")
    if not public:  # fetching models is the operator's business on a public server
        get_section(compare_parts, batch_parts)

    fetch.click(bind(handlers.on_fetch, public), any_model, fetch_status, api_name="fetch_model",
                concurrency_id="download", concurrency_limit=1)

    on_refresh = bind(handlers.on_refresh, app.cache, public)
    refresh.click(on_refresh, None, [loaded, table], api_name="models")
    tab.select(on_refresh, None, [loaded, table], api_visibility="undocumented")
    if unload is None:
        return

    unload.click(holding(app.models, bind(handlers.on_unload, app.cache)), None, [loaded, unload_status],
                 api_name="unload_models", concurrency_id=LLM, concurrency_limit=1)


def judge_label(entry: model_registry.ModelEntry) -> str:
    """How a registry judge is offered: its id, ★ when recommended, its size, and a warning
    for a demo-grade one."""
    if entry.demo_grade:
        return f"{entry.id} (demo-grade: shows the pipeline only)"
    return f"{entry.id}{' ★' if entry.recommended else ''} ({entry.size_mb / 1000:.1f} GB)"


def judge_switch(registry: MetricRegistry, compare_parts: dict[str, Any],
                 batch_parts: dict[str, Any]) -> None:
    """Local mode: choose the judge (registry, Hugging Face file, local GGUF, server) and fill
    the judge options of the Compare and Batch tabs."""
    judges = [(judge_label(e), e.id) for e in model_registry.for_task("judge")]
    judge_options = model_status.judge_option_names(registry)
    gr.Markdown("### Switch the judge\nThe choice fills the judge options of the Compare and Batch "
                "tabs; the judge loads on its first use.")
    if not judge_options:
        gr.HTML(status_box("warn", "No registered metric uses an LLM judge in this build, so there is "
                                   "no judge option to set."))
    runtime_box(False, "judge-runtime")  # llama.cpp may still be compiling (make run)
    with gr.Row():
        source = gr.Radio(list(model_status.JUDGE_SOURCES), value=model_status.JUDGE_FROM_REGISTRY,
                          label="Where the judge comes from", elem_id="judge-source")
    with gr.Row():
        reg_id = gr.Dropdown(judges, value=None, label="Registry judge", elem_id="judge-registry",
                             info="★ recommended; nothing is chosen until you choose")
        hf_repo = gr.Textbox(label="HF repository (owner/name)", visible=False, max_lines=1)
        hf_file = gr.Textbox(label="GGUF file", visible=False, max_lines=1)
        hf_rev = gr.Textbox(label="Revision (optional)", visible=False, max_lines=1)
        local = gr.Textbox(label="Path of a GGUF file on this machine", visible=False, max_lines=1)
        url = gr.Textbox(label="Server base URL", placeholder="http://127.0.0.1:8000/v1", visible=False,
                         max_lines=1)
        url_model = gr.Textbox(label="Model name on the server (optional)", visible=False, max_lines=1)
    with gr.Row():
        use = gr.Button("Use this judge", variant="primary", elem_id="judge-use")
        check = gr.Button("Check / download", elem_id="judge-check")
    judge_status = gr.HTML(elem_id="judge-status")

    fields = [reg_id, hf_repo, hf_file, hf_rev, local, url, url_model]
    shown_by_source = {model_status.JUDGE_FROM_REGISTRY: {reg_id},
                       model_status.JUDGE_FROM_HF: {hf_repo, hf_file, hf_rev},
                       model_status.JUDGE_FROM_PATH: {local}, model_status.JUDGE_FROM_URL: {url, url_model}}
    source.change(bind(handlers.on_source, fields, shown_by_source), source, fields,
                  api_name="judge_source", api_visibility="undocumented", queue=False)
    targets = [parts["controls"][n] for parts in (compare_parts, batch_parts) for n in judge_options]
    use.click(bind(handlers.on_use, judge_options, len(targets)), [source, *fields],
              [judge_status, *targets], api_name="use_judge")
    check.click(handlers.on_check, [source, *fields], judge_status, api_name="check_judge",
                concurrency_id="download", concurrency_limit=1)
