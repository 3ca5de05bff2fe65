"""The Models tab's "Get" rows: every registry model with its size and licence, a Get button
that runs ``radscope.models.fetch`` with live progress (step, bytes, rate, ETA), Cancel, and "Use it",
which points the Compare and Batch tabs at the model just made ready.

The fetch runs in a worker thread; the event handler only renders its latest progress report,
so a closed browser tab leaves the fetch to finish (or to be resumed by the next Get).
"""
from __future__ import annotations

import dataclasses
import html
import re
import threading
from collections.abc import Iterator
from typing import Any

import gradio as gr

from radscope.models import model_registry
from radscope.models.fetch import FetchFailed, fetch
from radscope.models.model_registry import ModelEntry
from radscope.models.progress import Cancelled, Progress
from radscope.models.receipts import Prepared
from radscope.ui.handlers import bind
from radscope.ui.tabs.models import logic as model_status
from radscope.ui.widgets import status_box

POLL_S = 0.3
TASK_LABEL = {"judge": "the LLM judge", "crepe": "CREPE", "srr": "SRR-BERT"}


def slug(model_id: str) -> str:
    """An element id part without dots (ids like qwen2.5-7b-instruct break CSS selectors)."""
    return re.sub(r"[^a-z0-9-]", "-", model_id.lower())


def row_html(entry: ModelEntry, state: str | None = None) -> str:
    """One model's line: id, what it is for, size, its status (``model_status.model_state``,
    the same as the table's), title and licence."""
    state = state or model_status.model_state(entry)
    demo = " · demo-grade" if entry.demo_grade else ""
    task = model_status.TASK_WORDS.get(entry.task, entry.task)
    return (f"<div class='rs-kv' data-model='{html.escape(entry.id)}' data-state='{html.escape(state)}'>"
            f"<b>{html.escape(entry.id)}</b> <span class='rs-muted'>{html.escape(task)} · "
            f"{entry.size_mb:g} MB{demo}</span> · <b>{html.escape(state)}</b>"
            f"<br>{html.escape(entry.title)}<br><span class='rs-muted'>licence: "
            f"{html.escape(entry.licence_text())}</span></div>")


def progress_html(progress: Progress) -> str:
    value = f" value='{progress.fraction:.3f}'" if progress.fraction is not None else ""
    return (f"<div id='get-progress' data-step='{html.escape(progress.step)}'><b>{html.escape(progress.model_id)}"
            f"</b>: {html.escape(progress.step)}<br><progress max='1'{value}></progress> "
            f"<span class='rs-muted'>{html.escape(progress.line())}</span></div>")


def ready_html(prepared: Prepared) -> str:
    steps = ", ".join(f"{s.name} {s.seconds:.1f} s" for s in prepared.steps) or "found ready, nothing to do"
    what = TASK_LABEL.get(prepared.task)
    use = (f" Press “Use it” to score {what} with it in the Compare and Batch tabs "
           f"(command line: {prepared.use_hint().removeprefix('use it with ')}).") if what else ""
    return (f"<div class='rs-ok' data-ready='{html.escape(prepared.model_id)}'>{html.escape(prepared.model_id)} is "
            f"ready ({html.escape(steps)}; {prepared.size_bytes() / 1e6:.1f} MB at "
            f"<code>{html.escape(prepared.path)}</code>).{html.escape(use)}</div>")


def _run(model_id: str, cancel: threading.Event) -> Iterator[tuple[str, Prepared | None]]:
    """Fetch in a thread; yield (progress HTML, None) while it runs, then (final HTML, result)."""
    latest: dict[str, Any] = {}
    outcome: dict[str, Any] = {}

    def report(progress: Progress) -> None:
        latest["p"] = dataclasses.replace(progress)

    def work() -> None:
        try:
            outcome["ok"] = fetch(model_id, report, cancel)
        except (FetchFailed, Cancelled) as exc:
            outcome["error"] = str(exc)
        except Exception as exc:  # noqa: BLE001 - shown with its type, never swallowed
            outcome["error"] = f"{model_id}: {type(exc).__name__}: {exc}"

    worker = threading.Thread(target=work, name=f"get-{model_id}", daemon=True)
    worker.start()
    shown = None
    while worker.is_alive():
        worker.join(POLL_S)
        if latest.get("p") is not None and latest["p"] is not shown:
            shown = latest["p"]
            yield progress_html(shown), None
    if "error" in outcome:
        yield status_box("error", outcome["error"]), None
    else:
        yield ready_html(outcome["ok"]), outcome["ok"]


def on_get(cancel: threading.Event, entry: ModelEntry) -> Iterator[tuple[Any, ...]]:
    """Get one model: progress in the status box (Cancel shown meanwhile), then "Use it" for
    the model made ready, whose row loses its Get button."""
    cancel.clear()
    running, hidden, keep = gr.update(visible=True), gr.update(visible=False), gr.update()
    yield status_box("muted", f"Starting {entry.id}…"), hidden, None, keep, running, keep
    for text, prepared in _run(entry.id, cancel):
        if prepared is None:
            yield text, keep, keep, keep, keep, keep
        else:
            option = prepared.option
            label = f"Use {entry.id} for {TASK_LABEL.get(prepared.task, prepared.task)}"
            yield (text, gr.update(visible=option is not None, value=label), option,
                   row_html(entry, model_status.READY), hidden, hidden)
    yield keep, keep, keep, keep, hidden, keep  # Cancel goes in every case; after a failure Get stays


def on_cancel(cancel: threading.Event) -> None:
    """Stop the Get under way (it resumes where it stopped next time)."""
    cancel.set()


def on_use(names: tuple[str, ...], option: tuple[str, str] | None) -> list[Any]:
    """Put the model last made ready into the Compare and Batch controls of its option."""
    targets = 2 * len(names)  # the Compare tab's controls, then the Batch tab's
    if not option:
        return [status_box("warn", "Get a model first."), *(gr.update() for _ in range(targets))]
    name, model_id = option
    updates = [model_id if n == name else gr.update() for _ in (0, 1) for n in names]
    done = f"The Compare and Batch tabs now use {model_id} ({name.replace('_', ' ')})."
    return [status_box("ok", done), *updates]


def get_section(compare_parts: dict[str, Any], batch_parts: dict[str, Any]) -> None:
    """Build the rows and wire Get, Cancel and Use it."""
    gr.Markdown("### Get a model\nDownloads, checks and prepares a model on this machine (encoders "
                "are converted to ONNX once; judges run one test generation). Models that are "
                "ready have no Get button. Read the licence first: some models state none. A "
                "cancelled or failed Get resumes where it stopped.")
    status = gr.HTML(elem_id="get-status")
    with gr.Row():  # shown when there is something to do: a model to use, a Get to stop
        use = gr.Button("Use it", variant="primary", visible=False, elem_id="get-use", scale=0,
                        min_width=200)
        cancel_button = gr.Button("Cancel", elem_id="get-cancel", visible=False, size="sm",
                                  variant="stop", scale=0, min_width=120)
    chosen = gr.State(None)  # (option name, model id) of the model last made ready
    cancel = threading.Event()

    for entry in model_registry.load_registry().values():
        state = model_status.model_state(entry)
        with gr.Row(equal_height=True):
            row = gr.HTML(row_html(entry, state), elem_id=f"get-row-{slug(entry.id)}")
            button = gr.Button(f"Get ({entry.size_mb:g} MB)", size="sm", scale=0, min_width=140,
                               elem_id=f"get-{slug(entry.id)}", visible=state != model_status.READY)
        button.click(bind(on_get, cancel, entry), None, [status, use, chosen, row, cancel_button, button],
                     concurrency_id="download", concurrency_limit=1, api_visibility="undocumented")

    cancel_button.click(bind(on_cancel, cancel), None, None, queue=False, api_visibility="undocumented")

    names = sorted({n for n in ("judge", "crepe_model", "srr_model") if n in compare_parts["controls"]})
    targets = [parts["controls"][n] for parts in (compare_parts, batch_parts) for n in names]

    use.click(bind(on_use, tuple(names)), chosen, [status, *targets], api_visibility="undocumented")
