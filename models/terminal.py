"""Fetch progress on a terminal: one updating line on a TTY, a line a second in a log."""
from __future__ import annotations

import sys
import time
from typing import TextIO

from radscope.models.progress import Progress
from radscope.models.receipts import Prepared

INTERVAL_S = 1.0


class TerminalReporter:
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.last = 0.0
        self.step: tuple[str, str] | None = None

    def __call__(self, progress: Progress) -> None:
        now = time.monotonic()
        if progress.notice:
            self.stream.write(("\n" if self.tty else "") + f"{progress.model_id}: {progress.notice}\n")
        new_step = (progress.model_id, progress.step) != self.step
        if not new_step and progress.message != "done" and now - self.last < INTERVAL_S:
            return
        self.last, self.step = now, (progress.model_id, progress.step)
        line = progress.line()
        if self.tty:
            self.stream.write("\r\x1b[2K" + line[:200] + ("\n" if progress.message == "done" else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    @staticmethod
    def summary(prepared: Prepared) -> str:
        if prepared.already:
            head = f"{prepared.model_id}: ready (fetched before) at {prepared.path}"
        else:
            steps = ", ".join(f"{s.name} {s.seconds:.1f} s" for s in prepared.steps)
            head = f"{prepared.model_id}: ready at {prepared.path} ({steps})"
        size = f"{prepared.size_bytes() / 1e6:.1f} MB on disk"
        hint = prepared.use_hint()
        return f"{head}; {size}" + (f"; {hint}" if hint else "")
