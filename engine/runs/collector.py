"""The cyclic garbage collector in the processes RadScope owns (the CLI's ``score``, the reward
server, its worker processes and Ray actors); the library API (``radscope.score``, ``Scorer``)
leaves its host's collector as it is.

Why: the reader's lexicons and per-text caches keep a few hundred thousand small objects alive,
and with Python's default first threshold (700 allocations) the collector runs every few
hundred objects the readers make and, now and then, walks all of them. Scoring makes almost no
reference cycles, so a larger first threshold only delays the little there is to collect.
Measured (docs/speed.md, round 3): five clinical metrics, fresh texts, one core, 220 -> 266
pairs/s; warm 589 -> 913 (the collector switched off entirely gives the same).
"""
from __future__ import annotations

import gc
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
