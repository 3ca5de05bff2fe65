"""The Models tab's event handlers, as module-level functions; ``radscope.ui.tabs.models.tab`` builds the
components and binds these to them."""
from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import gradio as gr

from radscope.models import model_registry
from radscope.ui.runtime import RuntimeCache
from radscope.ui.tabs.models import logic as model_status
from radscope.ui.views.common import esc
from radscope.ui.widgets import status_box


def fetch_html(outcome: dict[str, Any]) -> str:
    """What a check or download of one model found, as a status box."""
    if not outcome.get("ok"):
        return status_box("error", outcome.get("message", "not available"))
    demo = " It is a demo-grade model." if outcome.get("demo_grade") else ""
    where = (f" at <code>{html.escape(str(outcome['path']))}</code>" if outcome.get("path") else "")
    return (f"<div class='rs-ok'>{esc(outcome['message'])} {esc(outcome.get('size_mb'))} MB"
            f"{where}.{esc(demo)}</div>")


def judge_not_here(model_id: str | None) -> str | None:
    """Why a registry judge is not ready on this machine (None when it is, or is not a registry id)."""
    from radscope.models.receipts import load_receipt

    entry = model_registry.load_registry().get(model_id or "")
    if entry is None or entry.source != "hf" or load_receipt(entry.id) is not None:
        return None
    if model_status.availability(entry) != "not downloaded":
        return None
    return (f"it is not on this machine yet ({entry.size_mb:g} MB, licence: {entry.licence}): press "
            f"“Get” beside it under “Get a model”, or the first run will download it unchecked.")


def on_fetch(public: bool, name: str, progress: gr.Progress = gr.Progress(track_tqdm=True)) -> str:
    progress(0, desc="Resolving…")
    return fetch_html(model_status.fetch_model(name, public=public))


def on_refresh(cache: RuntimeCache, public: bool) -> tuple[Any, Any]:
    return model_status.loaded_frame(cache, public), model_status.registry_frame()


def on_unload(cache: RuntimeCache) -> tuple[Any, str]:
    n = cache.close_all()
    problems = cache.take_close_problems()
    if problems:
        return model_status.loaded_frame(cache), status_box(
            "warn", f"Unloaded {n} set(s) of models; closing failed for " + "; ".join(problems))
    return model_status.loaded_frame(cache), status_box("ok", f"Unloaded {n} set(s) of models.")


def on_source(fields: Sequence[Any], shown_by_source: dict[str, set[Any]], choice: str) -> list[Any]:
    """Show the fields of the chosen judge source only."""
    show = shown_by_source[choice]
    return [gr.update(visible=f in show) for f in fields]


def on_use(judge_options: list[str], n_targets: int, src: str, rid: str, repo: str, file: str,
           rev: str, path: str, address: str, model: str) -> list[Any]:
    """Fill the judge options of the Compare and Batch tabs with the chosen judge."""
    if not judge_options:
        return [status_box("warn", "No registered metric uses a judge.")]
    try:
        choice = model_status.judge_choice(src, rid, repo, file, rev, path, address, model)
    except ValueError as exc:
        return [status_box("error", str(exc))] + [gr.update() for _ in range(n_targets)]
    values = {"judge": choice.judge, "judge_url": choice.judge_url or "",
              "judge_model": choice.judge_model or ""}
    if choice.judge is None:  # a server: the judge id falls back to its default
        values["judge"] = ""
    updates = [values[n] if values[n] is not None else "" for _ in (0, 1) for n in judge_options]
    missing = judge_not_here(choice.judge) if src == model_status.JUDGE_FROM_REGISTRY else None
    if missing:
        return [status_box("warn", f"Judge set to {choice.label}, but {missing}"), *updates]
    return [status_box("ok", f"Judge set to {choice.label} for the Compare and Batch tabs."), *updates]


def on_check(src: str, rid: str, repo: str, file: str, rev: str, path: str, address: str,
             model: str, progress: gr.Progress = gr.Progress(track_tqdm=True)) -> str:
    """Check (and download) the chosen judge; a server is checked on first use."""
    try:
        choice = model_status.judge_choice(src, rid, repo, file, rev, path, address, model)
    except ValueError as exc:
        return status_box("error", str(exc))
    if choice.judge is None:
        return status_box("ok", f"{choice.label}: a server is checked on first use (nothing to download).")
    progress(0, desc=f"Resolving {choice.judge}…")
    return fetch_html(model_status.fetch_model(choice.judge, "judge"))
