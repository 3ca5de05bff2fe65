"""The export environment (torch, transformers, the ONNX tool chain), built on demand.

The app's environment never gets torch; exporting a published encoder runs
``<export venv>/bin/python -m radscope models export ...`` in a child process instead. The environment
is the one ``make export-env`` builds (``.venv-export``, or ``$RADSCOPE_EXPORT_VENV``), made
from the pinned ``requirements/export.txt`` + ``requirements/constraints-export.txt``. torch comes from a
local wheel folder when there is one (``$TORCH_WHEELS``, default ``/opt/wheels``), else from
the CPU-only index, so pip never pulls the multi-gigabyte CUDA build.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from radscope.layout import import_root, repository_root
from radscope.models.progress import Progress, Reporter, check_cancel

MARKER = ".export"  # the file `make export-env` touches when the environment is complete
CPU_TORCH_INDEX = "https://download.pytorch.org/whl/cpu"


class ChildFailed(RuntimeError):
    """A child process (pip, the exporter) failed; the message ends with its last output."""


def export_venv() -> Path:
    return Path(os.environ.get("RADSCOPE_EXPORT_VENV") or repository_root() / ".venv-export")


def export_python() -> Path:
    return export_venv() / "bin" / "python"


def is_ready() -> bool:
    return (export_venv() / "bin" / MARKER).exists() and export_python().exists()


def run_child(command: list[str], progress: Progress, report: Reporter,
              cancel: threading.Event | None, *, count: str | None = None,
              env: dict[str, str] | None = None, timeout_s: float = 3600) -> list[str]:
    """Run ``command``, reporting its output lines; ``count`` lines starting with that text
    advance ``progress.done``. Cancelling terminates the child. Returns the output lines."""
    # The children import radscope: they start in the folder that holds it.
    proc = subprocess.Popen(command, cwd=import_root(), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines: list[str] = []
    deadline = time.monotonic() + timeout_s

    def watch() -> None:  # cancellation and the time limit, while the reader blocks
        while proc.poll() is None:
            if (cancel is not None and cancel.is_set()) or time.monotonic() > deadline:
                proc.terminate()
                return
            time.sleep(0.2)

    threading.Thread(target=watch, daemon=True).start()
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.rstrip()
        if not line:
            continue
        lines.append(line)
        if count and line.lstrip().startswith(count):
            progress.done += 1
        progress.message = line[-120:]
        report(progress)
    code = proc.wait()
    check_cancel(cancel)
    if time.monotonic() > deadline:
        raise ChildFailed(f"{Path(command[0]).name} ran past {timeout_s:.0f} s and was stopped")
    if code != 0:
        tail = "\n".join(lines[-15:])
        raise ChildFailed(f"{' '.join(command[:4])} ... exited with {code}:\n{tail}")
    return lines


def ensure(progress: Progress, report: Reporter, cancel: threading.Event | None = None) -> Path:
    """The export environment's python, building the environment first when it is missing.

    A cancelled or failed build leaves no marker, so the next call runs pip again (which skips
    what is installed and reuses downloaded wheels).
    """
    if is_ready():
        return export_python()
    venv = export_venv()
    progress.message = f"creating {venv} (torch and transformers, about 1.5 GB, once per machine)"
    report(progress)
    if not export_python().exists():
        run_child([sys.executable, "-m", "venv", str(venv)], progress, report, cancel)
    wheels = Path(os.environ.get("TORCH_WHEELS", "/opt/wheels"))
    source = ["--find-links", str(wheels)] if wheels.is_dir() else ["--extra-index-url", CPU_TORCH_INDEX]
    # pip does not say beforehand how many packages it will collect: count them as they come
    progress.total, progress.done, progress.unit = None, 0, "packages collected"
    run_child([str(export_python()), "-m", "pip", "install", "--disable-pip-version-check",
               "--progress-bar", "off", *source, "-r", str(repository_root() / "requirements/export.txt"),
               "-c", str(repository_root() / "requirements/constraints-export.txt")],
              progress, report, cancel, count="Collecting")
    (venv / "bin" / MARKER).touch()
    return export_python()

