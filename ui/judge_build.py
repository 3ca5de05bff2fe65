"""Whether the embedded LLM judge's runtime (llama-cpp-python, which compiles llama.cpp when it is
installed) can be used yet, and how far its background build has got.

``make run`` serves the app before llama.cpp is compiled (the default metrics need no judge) and
builds it meanwhile, logging to the file named by $RADSCOPE_JUDGE_BUILD_LOG: a start line, the
compiler's ``[step/steps]`` (ninja) or ``[ NN%]`` (make) lines, and an end line. The app reads
that log, and notices the package once it can be imported, without a restart.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BUILD_LOG_ENV = "RADSCOPE_JUDGE_BUILD_LOG"
START, DONE, FAILED = "RADSCOPE-BUILD-START", "RADSCOPE-BUILD-DONE", "RADSCOPE-BUILD-FAILED"
_STEP = re.compile(r"^[ \t]*\[\s*(\d+)\s*/\s*(\d+)\s*\]", re.MULTILINE)
_PERCENT = re.compile(r"^[ \t]*\[\s*(\d{1,3})%\]", re.MULTILINE)
_START = re.compile(START + r" (\d+)")
TAIL_BYTES = 256_000
QUIET_S = 900  # a log without an end line, untouched this long: the build was stopped


@dataclass(frozen=True)
class JudgeRuntime:
    """``state``: ready, building, failed, stopped or missing (not installed, no build)."""

    state: str
    fraction: float | None = None  # compiled share while building, when the log says
    seconds: float | None = None  # since the build started
    log: str | None = None

    @property
    def settled(self) -> bool:
        """Nothing will change without someone acting (the page stops asking)."""
        return self.state != "building"


def llama_installed() -> bool:
    """Whether ``llama_cpp`` can be imported now (a fresh look: it may have appeared since start)."""
    importlib.invalidate_caches()
    return importlib.util.find_spec("llama_cpp") is not None


def _tail(path: Path) -> str:
    """The log's first line (the start) and its last ``TAIL_BYTES`` (the latest progress)."""
    with path.open("rb") as handle:
        head = handle.readline(200)
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(len(head), size - TAIL_BYTES))
        return (head + handle.read()).decode("utf-8", "replace")


def build_progress(text: str) -> float | None:
    """The compiled share the log's last compiler progress line gives, if any."""
    steps = list(_STEP.finditer(text))
    if steps:
        done, total = int(steps[-1].group(1)), int(steps[-1].group(2))
        return min(1.0, done / total) if total else None
    percents = list(_PERCENT.finditer(text))
    return min(100, int(percents[-1].group(1))) / 100 if percents else None


def judge_runtime(log_path: str | Path | None = None, now: float | None = None,
                  installed: bool | None = None) -> JudgeRuntime:
    """The runtime's state from the build log (default: $RADSCOPE_JUDGE_BUILD_LOG) and the
    installed packages. A build in progress wins over a package that can already be found:
    pip copies files before it has finished."""
    now = time.time() if now is None else now
    installed = llama_installed() if installed is None else installed
    where = log_path or os.environ.get(BUILD_LOG_ENV)
    path = Path(where) if where else None
    text, modified = "", 0.0
    if path is not None and path.is_file():
        try:
            text, modified = _tail(path), path.stat().st_mtime
        except OSError:
            text = ""
    if text and DONE not in text and FAILED not in text:
        started = _START.search(text)
        seconds = now - int(started.group(1)) if started else None
        if now - modified > QUIET_S:
            return JudgeRuntime("ready" if installed else "stopped", log=str(path))
        return JudgeRuntime("building", build_progress(text), seconds, str(path))
    if installed:
        return JudgeRuntime("ready")
    return JudgeRuntime("failed" if FAILED in text else "missing", log=str(path) if text else None)


def runtime_html(runtime: JudgeRuntime, public: bool = False) -> str:
    """One status line for where judges are chosen (no log path on a public server)."""
    from radscope.ui.widgets import status_box

    log = f" (log: {runtime.log})" if runtime.log and not public else ""
    later = "a judge server (OpenAI-compatible) can be used already."
    if runtime.state == "ready":
        return status_box("ok", "Local LLM judges can run: llama.cpp is installed.")
    if runtime.state == "building":
        share = f"{runtime.fraction:.0%} compiled" if runtime.fraction is not None else "starting"
        spent = f", {runtime.seconds / 60:.0f} min so far" if runtime.seconds is not None else ""
        return ("<div class='rs-progress' id='judge-build' role='status'>"
                f"<b>Compiling llama.cpp for local LLM judges</b> ({share}{spent}; about 7 minutes "
                "on 2 cores). The default metrics work meanwhile; a judge on this machine can be "
                f"used when the build ends, {later}"
                + (f"<br><progress aria-label='llama.cpp build' max='1' value='{runtime.fraction:.3f}'></progress>"
                   if runtime.fraction is not None else "") + "</div>")
    if runtime.state == "failed":
        return status_box("error", f"Compiling llama.cpp failed{log}, so judges on this machine "
                                   f"cannot run; {later} `make setup` tries the build again.")
    if runtime.state == "stopped":
        return status_box("warn", f"The build of llama.cpp stopped before it ended{log}; "
                                  f"`make run` or `make setup` starts it again. Meanwhile {later}")
    return status_box("warn", "llama.cpp is not installed, so judges on this machine cannot run; "
                              f"{later} `make setup` compiles it (about 7 minutes on 2 cores).")


def runtime_box(public: bool, elem_id: str, quiet_when_ready: bool = False) -> None:
    """The status line, refreshed every 5 s while the build runs (the page stops asking once it
    has ended); ``quiet_when_ready``: nothing to say once judges can run. Built inside a Gradio
    layout."""
    import gradio as gr

    def html(runtime: JudgeRuntime) -> str:
        return "" if quiet_when_ready and runtime.state == "ready" else runtime_html(runtime, public)

    first = judge_runtime()
    box = gr.HTML(html(first), elem_id=elem_id)
    timer = gr.Timer(5, active=not first.settled)

    def tick() -> tuple[str, Any]:
        now = judge_runtime()
        return html(now), gr.Timer(active=not now.settled)

    timer.tick(tick, None, [box, timer], api_visibility="private", queue=False,
               show_progress="hidden")
