"""The Models tab: what is loaded, the model registry with availability, switching the judge,
checking or downloading a model. In public mode the judge cannot be switched, models cannot be
unloaded or downloaded, and a check looks up registry ids only (see ``ui.public``)."""
from __future__ import annotations

import html
from typing import Any

import gradio as gr

from models import registry as model_registry
from ui import model_status
from ui.get_models import get_section
from ui.views.common import esc
from ui.widgets import LLM, AppContext, status_box


def models_tab(app: AppContext, tab: gr.Tab, compare_parts: dict[str, Any],
               batch_parts: dict[str, Any]) -> None:
    """Build the tab; ``compare_parts`` / ``batch_parts`` hold the option controls that
    "Use this judge" fills in."""
    public = app.config.public
    gr.Markdown("### Loaded now\nModels stay loaded between requests, one set per combination of "
                "options (the least recently used set is unloaded when a new one is needed).")
    loaded = gr.Dataframe(interactive=False, wrap=True, elem_id="models-loaded")
    with gr.Row():
        refresh = gr.Button("Refresh", elem_id="models-refresh")
        unload = None if public else gr.Button("Unload all models", elem_id="models-unload")
    unload_status = gr.HTML()
    if public:
        gr.Markdown("### Judge\nThis is a public server: the operator chose the judge and the "
                    "models (config file or environment); they cannot be switched from the page.")
    else:
        judge_switch(compare_parts, batch_parts)
    check_text = ("Status is checked on this machine only (bundled files, installed packages, the "
                  "Hugging Face cache)" + (". " if public else "; nothing is downloaded until you ask. "))
    gr.Markdown(f"### Model registry\n{check_text}★ marks recommended judges.")
    table = gr.Dataframe(interactive=False, wrap=True, elem_id="models-registry")
    with gr.Row():
        any_model = gr.Dropdown(list(model_registry.load_registry()),
                                label="Check any registry model (encoders too)" if public else
                                "Check or download any registry model (encoders too)",
                                allow_custom_value=not public, elem_id="model-pick", scale=3)
        fetch = gr.Button("Check" if public else "Check / download", elem_id="model-fetch", scale=1)
    fetch_status = gr.HTML(elem_id="model-fetch-status")
    if not public:  # fetching models is the operator's business on a public server
        get_section(compare_parts, batch_parts)

    def on_fetch(name: str, progress: gr.Progress = gr.Progress(track_tqdm=True)) -> str:
        progress(0, desc="Resolving…")
        return _fetch_html(model_status.fetch_model(name, public=public))

    fetch.click(on_fetch, any_model, fetch_status, api_name="fetch_model", concurrency_id="download",
                concurrency_limit=1)

    def on_refresh() -> tuple[Any, Any]:
        return model_status.loaded_frame(app.cache, public), model_status.registry_frame()

    refresh.click(on_refresh, None, [loaded, table], api_name="models")
    tab.select(on_refresh, None, [loaded, table], api_visibility="undocumented")
    if unload is None:
        return

    def on_unload() -> tuple[Any, str]:
        n = app.cache.close_all()
        problems = app.cache.take_close_problems()
        if problems:
            return model_status.loaded_frame(app.cache), status_box(
                "warn", f"Unloaded {n} set(s) of models; closing failed for " + "; ".join(problems))
        return model_status.loaded_frame(app.cache), status_box("ok", f"Unloaded {n} set(s) of models.")

    unload.click(on_unload, None, [loaded, unload_status], api_name="unload_models", concurrency_id=LLM,
                 concurrency_limit=1)


def judge_switch(compare_parts: dict[str, Any], batch_parts: dict[str, Any]) -> None:
    """Local mode: choose the judge (registry, Hugging Face file, local GGUF, server) and fill
    the judge options of the Compare and Batch tabs."""
    judges = [e.id for e in model_registry.for_task("judge")]
    judge_options = model_status.judge_option_names()
    gr.Markdown("### Switch the judge\nThe choice fills the judge options of the Compare and Batch "
                "tabs; the judge loads on its first use.")
    if not judge_options:
        gr.HTML(status_box("warn", "No registered metric uses an LLM judge in this build, so there is "
                                   "no judge option to set."))
    with gr.Row():
        source = gr.Radio(list(model_status.JUDGE_SOURCES), value=model_status.JUDGE_FROM_REGISTRY,
                          label="Where the judge comes from", elem_id="judge-source")
    with gr.Row():
        reg_id = gr.Dropdown(judges, value=judges[0] if judges else None, label="Registry judge",
                             elem_id="judge-registry")
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

    def on_source(choice: str) -> list[Any]:
        shows: dict[str, set[Any]] = {
            model_status.JUDGE_FROM_REGISTRY: {reg_id},
            model_status.JUDGE_FROM_HF: {hf_repo, hf_file, hf_rev},
            model_status.JUDGE_FROM_PATH: {local}, model_status.JUDGE_FROM_URL: {url, url_model}}
        show = shows[choice]
        return [gr.update(visible=f in show) for f in fields]

    source.change(on_source, source, fields, api_name="judge_source", api_visibility="undocumented",
                  queue=False)

    targets = [parts["controls"][n] for parts in (compare_parts, batch_parts) for n in judge_options]

    def on_use(src: str, rid: str, repo: str, file: str, rev: str, path: str, address: str,
               model: str) -> list[Any]:
        if not judge_options:
            return [status_box("warn", "No registered metric uses a judge.")]
        try:
            choice = model_status.judge_choice(src, rid, repo, file, rev, path, address, model)
        except ValueError as exc:
            return [status_box("error", str(exc))] + [gr.update() for _ in targets]
        values = {"judge": choice.judge, "judge_url": choice.judge_url or "",
                  "judge_model": choice.judge_model or ""}
        if choice.judge is None:  # a server: the judge id falls back to its default
            values["judge"] = ""
        updates = [values[n] if values[n] is not None else "" for _ in (0, 1) for n in judge_options]
        missing = _not_here(choice.judge) if src == model_status.JUDGE_FROM_REGISTRY else None
        if missing:
            return [status_box("warn", f"Judge set to {choice.label}, but {missing}"), *updates]
        return [status_box("ok", f"Judge set to {choice.label} for the Compare and Batch tabs."), *updates]

    use.click(on_use, [source, *fields], [judge_status, *targets], api_name="use_judge")

    def on_check(src: str, rid: str, repo: str, file: str, rev: str, path: str, address: str,
                 model: str, progress: gr.Progress = gr.Progress(track_tqdm=True)) -> str:
        try:
            choice = model_status.judge_choice(src, rid, repo, file, rev, path, address, model)
        except ValueError as exc:
            return status_box("error", str(exc))
        if choice.judge is None:
            return status_box("ok", f"{choice.label}: a server is checked on first use (nothing to download).")
        progress(0, desc=f"Resolving {choice.judge}…")
        return _fetch_html(model_status.fetch_model(choice.judge, "judge"))

    check.click(on_check, [source, *fields], judge_status, api_name="check_judge",
                concurrency_id="download", concurrency_limit=1)


def _fetch_html(outcome: dict[str, Any]) -> str:
    if not outcome.get("ok"):
        return status_box("error", outcome.get("message", "not available"))
    demo = " It is a demo-grade model." if outcome.get("demo_grade") else ""
    where = (f" at <code>{html.escape(str(outcome['path']))}</code>" if outcome.get("path") else "")
    return (f"<div class='rs-ok'>{esc(outcome['message'])} {esc(outcome.get('size_mb'))} MB"
            f"{where}.{esc(demo)}</div>")


def _not_here(model_id: str | None) -> str | None:
    """Why a registry judge is not ready on this machine (None when it is, or is not a registry id)."""
    from models.receipts import load_receipt

    entry = model_registry.load_registry().get(model_id or "")
    if entry is None or entry.source != "hf" or load_receipt(entry.id) is not None:
        return None
    if model_status.availability(entry) != "not downloaded":
        return None
    return (f"it is not on this machine yet ({entry.size_mb:g} MB, licence: {entry.licence}): press "
            f"“Get” beside it under “Get a model”, or the first run will download it unchecked.")
