"""Progress of a long step (download, environment build, export) as plain numbers and a line.

The fetcher reports through a callback so the same steps drive a terminal bar
(``radscope models fetch``), a Gradio progress bar (the Models tab) and start-up logs
(``RADSCOPE_PREPARE``). Cancelling is a ``threading.Event`` checked between chunks.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


class Cancelled(RuntimeError):
    """The user cancelled; whatever was finished (and a partial download) is kept for a resume."""


@dataclass
class Progress:
    """One report: which model, which step, and (for byte-counted steps) how far along."""

    model_id: str
    step: str
    message: str = ""
    done: int = 0            # bytes (or items) done so far
    total: int | None = None
    started: float = field(default_factory=time.monotonic)
    resumed_from: int = 0    # bytes already on disk when this step started
    notice: str = ""         # a one-off event every reporter shows (a dropped connection)
    unit: str = "B"          # "B" for bytes, else what ``done`` counts (packages)

    @property
    def fraction(self) -> float | None:
        return min(1.0, self.done / self.total) if self.total else None

    @property
    def rate(self) -> float:
        """Bytes per second over this run of the step (resumed bytes not counted)."""
        elapsed = time.monotonic() - self.started
        return (self.done - self.resumed_from) / elapsed if elapsed > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        if not self.total or self.rate <= 0:
            return None
        return max(0.0, (self.total - self.done) / self.rate)

    def line(self) -> str:
        """``model: step 12.3/45.6 MB (27%) 3.1 MB/s ETA 0:11 - message``."""
        text = f"{self.model_id}: {self.step}"
        if self.unit != "B" and self.total:
            text += f" {self.done}/{self.total} {self.unit} ({100 * (self.fraction or 0):.0f}%)"
        elif self.unit != "B":
            text += f" {self.done} {self.unit}"
        elif self.total:
            text += (f" {self.done / 1e6:.1f}/{self.total / 1e6:.1f} MB ({100 * (self.fraction or 0):.0f}%)"
                     f" {self.rate / 1e6:.1f} MB/s")
        if self.total and self.eta_s is not None:
            text += f" ETA {int(self.eta_s) // 60}:{int(self.eta_s) % 60:02d}"
        return text + (f" - {self.message}" if self.message else "")


Reporter = Callable[[Progress], None]


def quiet(_: Progress) -> None:
    """A reporter that shows nothing."""


def check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise Cancelled("cancelled; run the same command again to resume")
