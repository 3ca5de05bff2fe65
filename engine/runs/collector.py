"""The cyclic garbage collector while RadScope scores.

- In the processes RadScope owns (the CLI's ``score``, the reward server, its worker processes
  and Ray actors) the first threshold is raised for good (``tune_for_scoring``).
- In a host's process (``radscope.score``, ``Scorer``: a training loop, a notebook) automatic
  collection is paused for the length of a call that only runs the pure-Python readers, and
  switched back on as the call returns (``paused_collector``); the host's thresholds are never
  touched.

Why: the reader's lexicons and per-text caches keep a few hundred thousand small objects alive,
and with Python's default first threshold (700 allocations) the collector runs every few
hundred objects the readers make and, now and then, walks all of them. Scoring makes almost no
reference cycles, so a larger first threshold only delays the little there is to collect.
Measured (docs/speed.md, round 3): five clinical metrics, fresh texts, one core, 220 -> 266
pairs/s; warm 589 -> 913 (the collector switched off entirely gives the same).

Why a pause is safe there: scoring with the readers makes no reference cycles (0 unreachable
objects after a 590-pair pass of the five clinical metrics with the collector off), so nothing
waits for a collection that the pause delays; what the call freed by reference counting is
freed as usual. Measured (docs/speed.md, round 4): the host's default collector ran four full
collections in that pass (about 0.45 s of 2.5 s); paused, 228 -> 282 pairs/s.
"""
from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# Allocations (net of frees) between two collections of the youngest generation; the older
# generations keep Python's default ratios (10, 10).
SCORING_THRESHOLD = 100_000


def tune_for_scoring() -> None:
    """For a process that only scores from here on (a worker, an actor)."""
    first, older, oldest = gc.get_threshold()
    if first:  # 0: automatic collection is off, and stays off
        gc.set_threshold(max(SCORING_THRESHOLD, first), older, oldest)


@contextmanager
def scoring_collector() -> Iterator[None]:
    """The collector tuned while the block runs, and as it was afterwards (the CLI's ``main``
    and the server's may be called in-process, by a test or a script)."""
    before = gc.get_threshold()
    tune_for_scoring()
    try:
        yield
    finally:
        gc.set_threshold(*before)


_pause_lock = threading.Lock()
_pause_depth = 0  # calls inside a pause (``Scorer.score`` may run in several threads at once)
_resume = False  # whether the outermost pause found automatic collection on


@contextmanager
def paused_collector() -> Iterator[None]:
    """Automatic collection off while the block runs, back on after the last block (of any
    thread) that found it on returns; a collector the host had switched off stays off."""
    global _pause_depth, _resume
    with _pause_lock:
        if _pause_depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pause_depth += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pause_depth -= 1
            if _pause_depth == 0 and _resume:
                gc.enable()
