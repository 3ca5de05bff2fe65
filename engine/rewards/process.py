"""The reward server's scorer in a process of its own.

The server's process parses HTTP and JSON for every request; the rules readers are pure Python.
In one process the two share one interpreter lock, so with many one-sample clients (OpenRLHF
>= 0.10 posts one sample per request) the server scores at about the speed of HTTP plus scoring
on one core, about half of what the same pairs get in-process in batches
(docs/researchers.md, "Speed: server against in-process"). ``ScoringProcess`` runs the
``RewardScorer`` in child processes (``spawn``, like ``runs.parallel``; one unless
``serve-reward --workers`` says more): the server's process keeps HTTP, JSON and the batching,
and the children only score. A child that dies fails the calls in flight (their requests get a
500) and the next call starts new children; a child whose server
has gone (uvicorn ends its process by the signal it caught, before any ``finally`` runs) exits
within a second.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from radscope.engine.rewards.scorer import RewardBatch, RewardScorer

log = logging.getLogger("radscope.reward_server")

_rewarder: RewardScorer | None = None


def _start(rewarder: RewardScorer) -> None:
    """The child's set-up: the scorer rebuilt here from its metric names and options (it travels
    as those, ``RewardScorer.__reduce__``), the collector tuned as in any scoring process, and
    Ctrl-C left to the server (it shuts the child down)."""
    from radscope.engine.runs.collector import tune_for_scoring

    global _rewarder
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(os.getppid(),), name="parent-watch", daemon=True).start()
    tune_for_scoring()
    _rewarder = rewarder


def _exit_with(parent: int) -> None:
    """End this process once ``parent`` is gone (it is then re-parented)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _rewards(references: list[str], candidates: list[str]) -> RewardBatch:
    assert _rewarder is not None, "the scoring process was not started with a scorer"
    return _rewarder.rewards(references, candidates)


class ScoringProcess:
    """``await scoring(references, candidates)``: ``rewarder.rewards`` run in a child process.

    ``processes`` children score calls side by side (``radscope serve-reward --workers``); each
    builds the rewarder with one process of its own (``workers=1``: a pool inside a pool's
    worker can hang at exit), so give the batcher ``processes + 1`` calls to keep them busy."""

    def __init__(self, rewarder: RewardScorer, processes: int = 1) -> None:
        if processes < 1:
            raise ValueError(f"processes must be at least 1, not {processes}")
        self.rewarder = rewarder
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0  # children started after one died

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start, initargs=(self.rewarder,))
        return self._pool

    def warm_up(self) -> None:
        """Start the children and build their scorers now, so the first requests do not wait."""
        pool = self._started()
        for started in [pool.submit(_rewards, ["Lungs are clear."], ["Lungs are clear."])
                        for _ in range(self.processes)]:
            started.result()

    async def __call__(self, references: list[str], candidates: list[str]) -> RewardBatch:
        pool = self._started()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, _rewards, references, candidates)
        except BrokenProcessPool:
            log.error("the scoring process died; a new one starts with the next call")
            if self._pool is pool:
                self._pool = None
                self.restarts += 1
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
