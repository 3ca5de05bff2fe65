"""Micro-batching for the reward server: the pairs of concurrent requests scored together.

Trainers such as OpenRLHF (>= 0.10) post one sample per request from many workers at once; one
``Scorer`` call per request would pay the per-call cost each time and leave the pairs of the
others waiting behind it. The ``Batcher`` keeps one queue of requests and one scoring call at a
time: when a call ends it waits a moment while requests keep arriving (``gather_s`` after the
last arrival, ``max_gather_s`` at most), then scores up to ``max_batch_pairs`` pairs in a thread.
A request larger than that is scored in pieces, so a client that goes away costs at most the
piece being scored: its other pieces leave the queue. The queue is bounded in pairs: a request
that would overflow it is refused at once (``Busy``, a 503) rather than waiting without end.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass, field

from radscope.engine.rewards import RewardBatch, RewardScorer

log = logging.getLogger("radscope.reward_server")

MAX_BATCH_PAIRS = 1024  # per Scorer call: what a client that went away can still cost
MAX_PENDING_PAIRS = 65_536  # waiting at once, all requests together (four requests of the most pairs)


class Busy(RuntimeError):
    """The queue is full: the request is refused (503) instead of waiting without bound."""


@dataclass(eq=False)
class _Job:
    references: list[str]
    candidates: list[str]
    future: asyncio.Future[RewardBatch] = field(repr=False)
    taken: int = 0  # pairs handed to a scoring call so far
    parts: list[RewardBatch] = field(default_factory=list)

    @property
    def untaken(self) -> int:
        return len(self.references) - self.taken


def _slice(batch: RewardBatch, start: int, end: int) -> RewardBatch:
    return RewardBatch(batch.rewards[start:end], batch.statuses[start:end], batch.reasons[start:end],
                       {name: values[start:end] for name, values in batch.per_metric.items()})


def _join(parts: list[RewardBatch]) -> RewardBatch:
    if len(parts) == 1:
        return parts[0]
    return RewardBatch([r for p in parts for r in p.rewards], [s for p in parts for s in p.statuses],
                       [r for p in parts for r in p.reasons],
                       {name: [v for p in parts for v in p.per_metric[name]] for name in parts[0].per_metric})


class Batcher:
    """Gathers the pairs of concurrent requests into one ``RewardScorer.rewards`` call at a time."""

    def __init__(self, rewarder: RewardScorer, *, max_batch_pairs: int = MAX_BATCH_PAIRS,
                 max_pending_pairs: int = MAX_PENDING_PAIRS, gather_s: float = 0.002,
                 max_gather_s: float = 0.02) -> None:
        self.rewarder = rewarder
        self.max_batch_pairs = max_batch_pairs
        self.max_pending_pairs = max_pending_pairs
        self.gather_s, self.max_gather_s = gather_s, max_gather_s
        self.batches = 0  # scoring calls made
        self.dropped_pairs = 0  # pairs not scored because their client went away
        self._jobs: deque[_Job] = deque()
        self._pending = 0  # pairs queued and not yet handed to a scoring call
        self._arrivals = 0
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

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
            self._wake = asyncio.Event()
            self._task = asyncio.create_task(self._run())
        job = _Job(references, candidates, asyncio.get_running_loop().create_future())
        self._jobs.append(job)
        self._pending += n
        self._arrivals += 1
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
        assert self._wake is not None
        while True:
            await self._wake.wait()
            await self._gather()
            pieces = self._take()
            if not self._jobs:
                self._wake.clear()
            if pieces:
                await self._score(pieces)

    async def _gather(self) -> None:
        """Wait while requests keep arriving (a burst of clients answered by the last call
        sends its next requests over a few milliseconds), up to ``max_gather_s``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_gather_s
        while self._pending < self.max_batch_pairs and loop.time() < deadline:
            seen = self._arrivals
            await asyncio.sleep(self.gather_s)
            if self._arrivals == seen:
                return

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
        try:
            batch = await asyncio.to_thread(self.rewarder.rewards, references, candidates)
        except Exception as exc:  # the requests get a 500 (logged here); the server goes on
            log.exception("scoring a batch of %d pairs failed", len(references))
            for job, _, _ in pieces:
                if not job.future.done():
                    job.future.set_exception(exc)
            return
        self.batches += 1
        at = 0
        for job, start, end in pieces:
            part = _slice(batch, at, at + end - start)
            at += end - start
            if job.future.done():  # its client went away while the call ran
                continue
            job.parts.append(part)
            if end == len(job.references):
                job.future.set_result(_join(job.parts))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
