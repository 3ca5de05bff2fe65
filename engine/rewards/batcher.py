"""Micro-batching for the reward server: the pairs of concurrent requests scored together.

Trainers such as OpenRLHF (>= 0.10) post one sample per request from many workers at once; one
``Scorer`` call per request would pay the per-call cost each time and leave the pairs of the
others waiting behind it. The ``Batcher`` keeps one queue of requests and at most ``calls`` (2)
scoring calls at once, each taking up to ``max_batch_pairs`` pairs from the
head of the queue: whatever arrives while the calls run is gathered into the next one (the
server runs them in a scoring process of its own, ``reward_process``). Two calls
rather than one keep the scorer busy while the clients of the call that just ended send their
next samples (with one, it waits for that round trip after every call; a gathering window
measured worse still). A request larger than ``max_batch_pairs`` is scored in pieces, so a
client that goes away costs at most the pieces being scored: the rest leave the queue. The
queue is bounded in pairs: a request that would overflow it is refused at once (``Busy``, a
503) rather than waiting without end.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from radscope.engine.rewards.scorer import RewardBatch, RewardScorer

log = logging.getLogger("radscope.reward_server")

MAX_BATCH_PAIRS = 256  # per Scorer call: what a client that went away can still cost (per call running)
MAX_PENDING_PAIRS = 65_536  # waiting at once, all requests together (four requests of the most pairs)

# How one scoring call runs: (references, candidates) -> their rewards.
Scoring = Callable[[list[str], list[str]], Awaitable[RewardBatch]]


class Busy(RuntimeError):
    """The queue is full: the request is refused (503) instead of waiting without bound."""


@dataclass(eq=False)
class _Job:
    references: list[str]
    candidates: list[str]
    future: asyncio.Future[RewardBatch] = field(repr=False)
    taken: int = 0  # pairs handed to a scoring call so far
    scored: int = 0  # pairs whose rewards are back
    parts: dict[int, RewardBatch] = field(default_factory=dict)  # by first pair: calls may end out of order

    @property
    def untaken(self) -> int:
        return len(self.references) - self.taken


def _slice(batch: RewardBatch, start: int, end: int) -> RewardBatch:
    return RewardBatch(batch.rewards[start:end], batch.statuses[start:end], batch.reasons[start:end],
                       {name: values[start:end] for name, values in batch.per_metric.items()})


def _join(by_start: dict[int, RewardBatch]) -> RewardBatch:
    parts = [by_start[start] for start in sorted(by_start)]
    if len(parts) == 1:
        return parts[0]
    return RewardBatch([r for p in parts for r in p.rewards], [s for p in parts for s in p.statuses],
                       [r for p in parts for r in p.reasons],
                       {name: [v for p in parts for v in p.per_metric[name]] for name in parts[0].per_metric})


class Batcher:
    """Gathers the pairs of concurrent requests into one ``RewardScorer.rewards`` call at a time."""

    def __init__(self, rewarder: RewardScorer, *, max_batch_pairs: int = MAX_BATCH_PAIRS,
                 max_pending_pairs: int = MAX_PENDING_PAIRS, calls: int = 2,
                 scoring: Scoring | None = None) -> None:
        """``scoring`` runs one call: by default ``rewarder.rewards`` in a thread of this process;
        the server passes a ``reward_process.ScoringProcess`` (scoring apart from HTTP)."""
        self.rewarder = rewarder
        self._scoring = scoring or self._in_thread
        self.max_batch_pairs = max_batch_pairs
        self.max_pending_pairs = max_pending_pairs
        self.batches = 0  # scoring calls made
        self.scored_pairs = 0
        self.scoring_s = 0.0  # seconds spent in scoring calls, summed over calls (how busy it is)
        self.dropped_pairs = 0  # pairs not scored because their client went away
        self._jobs: deque[_Job] = deque()
        self._pending = 0  # pairs queued and not yet handed to a scoring call
        self.calls = calls
        self._wake: asyncio.Event | None = None
        self._slots: asyncio.Semaphore | None = None
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()

    async def _in_thread(self, references: list[str], candidates: list[str]) -> RewardBatch:
        return await asyncio.to_thread(self.rewarder.rewards, references, candidates)

    @property
    def pending_pairs(self) -> int:
        return self._pending

    async def rewards(self, references: list[str], candidates: list[str]) -> RewardBatch:
        """The rewards of these pairs, in order; ``Busy`` when the queue cannot take them.
        Cancelling the awaiting task (the client went away) takes its pairs out of the queue."""
        n = len(references)
        if n == 0:
            return RewardBatch([], [], [], {name: [] for name in self.rewarder.weights})
        if self._pending + n > self.max_pending_pairs:
            raise Busy(f"the server is busy: {self._pending} pairs are waiting and it queues at most "
                       f"{self.max_pending_pairs}; retry in a moment")
        if self._wake is None:
            self._wake, self._slots = asyncio.Event(), asyncio.Semaphore(self.calls)
            self._task = asyncio.create_task(self._run())
        job = _Job(references, candidates, asyncio.get_running_loop().create_future())
        self._jobs.append(job)
        self._pending += n
        self._wake.set()
        try:
            return await job.future
        except asyncio.CancelledError:
            self.dropped_pairs += self._forget(job)
            raise

    def _forget(self, job: _Job) -> int:
        """Take ``job`` out of the queue; the number of its pairs that will not be scored."""
        if job not in self._jobs:
            return 0
        self._jobs.remove(job)
        left = job.untaken
        self._pending -= left
        job.taken = len(job.references)
        return left

    async def _run(self) -> None:
        assert self._wake is not None and self._slots is not None
        while True:
            await self._wake.wait()
            await self._slots.acquire()
            pieces = self._take()
            if not self._jobs:
                self._wake.clear()
            if not pieces:
                self._slots.release()
                continue
            call = asyncio.create_task(self._score(pieces))
            self._running.add(call)
            call.add_done_callback(self._call_ended)

    def _call_ended(self, call: asyncio.Task[None]) -> None:
        self._running.discard(call)
        assert self._slots is not None
        self._slots.release()

    def _take(self) -> list[tuple[_Job, int, int]]:
        """Up to ``max_batch_pairs`` pairs from the head of the queue, as (job, start, end)."""
        pieces: list[tuple[_Job, int, int]] = []
        room = self.max_batch_pairs
        while self._jobs and room > 0:
            job = self._jobs[0]
            if job.future.done():  # cancelled, or failed with an earlier piece
                self._forget(job)
                continue
            count = min(job.untaken, room)
            pieces.append((job, job.taken, job.taken + count))
            job.taken += count
            self._pending -= count
            room -= count
            if job.untaken == 0:
                self._jobs.popleft()
        return pieces

    async def _score(self, pieces: list[tuple[_Job, int, int]]) -> None:
        references = [r for job, start, end in pieces for r in job.references[start:end]]
        candidates = [c for job, start, end in pieces for c in job.candidates[start:end]]
        started = time.perf_counter()
        try:
            batch = await self._scoring(references, candidates)
        except Exception as exc:  # the requests get a 500 (logged here); the server goes on
            log.exception("scoring a batch of %d pairs failed", len(references))
            for job, _, _ in pieces:
                if not job.future.done():
                    job.future.set_exception(exc)
            return
        finally:
            self.scoring_s += time.perf_counter() - started
        self.batches += 1
        self.scored_pairs += len(references)
        at = 0
        for job, start, end in pieces:
            part = _slice(batch, at, at + end - start)
            at += end - start
            if job.future.done():  # its client went away while the call ran
                continue
            job.parts[start] = part
            job.scored += end - start
            if job.scored == len(job.references):
                job.future.set_result(_join(job.parts))

    async def close(self) -> None:
        for task in [self._task, *self._running]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
