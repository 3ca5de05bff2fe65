"""Progress on stderr for the command line: tqdm's bar on a terminal; a plain line now and then
when stderr is a file or a pipe (a job log, CI), where every redraw of a bar would be one more
line (a 200-pair run wrote 1,603 of them)."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, Protocol, TextIO


class Progress(Protocol):
    def update(self, done: int, total: int | None = None) -> None: ...

    def close(self) -> None: ...


class LineProgress:
    """One line each ``step`` of the total (10 %) or ``every_s`` seconds, whichever comes first,
    and one at the end: ``desc: 120/200 result (60 %), 12 s``."""

    def __init__(self, total: int, desc: str = "", unit: str = "result", stream: TextIO | None = None,
                 step: float = 0.1, every_s: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.desc, self.unit = total, desc, unit
        self.stream = stream if stream is not None else sys.stderr
        self.step, self.every_s, self.clock = step, every_s, clock
        self.started = self.last_at = clock()
        self.done = 0
        self.shown = -1  # the count of the last line written
        self.next_share = step

    def update(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        self.done = done
        now = self.clock()
        share = done / self.total if self.total else 1.0
        if share >= self.next_share or now - self.last_at >= self.every_s or done >= self.total:
            self._line(now)
            while self.next_share <= share:
                self.next_share += self.step

    def close(self) -> None:
        if self.done != self.shown:
            self._line(self.clock())

    def _line(self, now: float) -> None:
        if self.done == self.shown:
            return
        share = f" ({self.done / self.total:.0%})" if self.total else ""
        prefix = f"{self.desc}: " if self.desc else ""
        self.stream.write(f"{prefix}{self.done}/{self.total} {self.unit}{share}, "
                          f"{now - self.started:.0f} s\n")
        self.stream.flush()
        self.shown, self.last_at = self.done, now


class BarProgress:
    """tqdm's bar, driven by absolute counts."""

    def __init__(self, total: int, desc: str = "", unit: str = "result", stream: TextIO | None = None,
                 **tqdm_args: Any) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, desc=desc or None, unit=unit,
                        file=stream if stream is not None else sys.stderr, **tqdm_args)

    def update(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.bar.total = total
        self.bar.n = done
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


def progress(total: int, desc: str = "", unit: str = "result", stream: TextIO | None = None,
             **tqdm_args: Any) -> Progress:
    """A bar on a terminal, plain lines elsewhere (``stream``: default stderr)."""
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    if callable(isatty) and isatty():
        return BarProgress(total, desc, unit, stream, **tqdm_args)
    return LineProgress(total, desc, unit, stream)
