"""A server's file descriptors: how many connections it may hold open, and one log line, never a
traceback, when connections are refused.

Each open connection holds a descriptor. At the process's limit (``ulimit -n``) asyncio's accept
loop fails with EMFILE, logs the failure with its traceback and tries again a second later, over
and over: idle sockets that reopen every few seconds then fill a disk with log. Two defences:
``connection_cap`` keeps the connections a server accepts below the limit, with room left for the
store, the models and the scoring processes (a server refuses the rest at once), and
``quiet_accept_failures`` turns asyncio's accept-failure tracebacks into one counted line per
interval, in case the limit is reached anyway (another part of the process holding descriptors).
"""
from __future__ import annotations

import logging
import resource
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# asyncio accepts up to this many connections per wake-up before a server sees any of them
ACCEPT_BURST = 100
# descriptors never given to connections: the store, models, logs, pipes to scoring processes
RESERVED = 64


def connection_cap(most: int | None = None) -> int:
    """How many connections a server may hold: below the descriptor limit by one accept burst
    and the reserved descriptors, and at most ``most``."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = 1 << 20 if soft == resource.RLIM_INFINITY else soft
    cap = max(8, limit - ACCEPT_BURST - RESERVED)
    return cap if most is None else min(cap, most)


class RefusalLog:
    """Counts refusals and logs them at most once per ``interval`` seconds, with the count since
    the last line: an attacker can make a server refuse, never make it write per refusal."""

    def __init__(self, what: str, interval: float = 10.0, logger: logging.Logger = log,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.interval, self.logger, self.clock = what, interval, logger, clock
        self._lock = threading.Lock()
        self._count = 0
        self._since: float | None = None
        self.total = 0

    def add(self) -> None:
        with self._lock:
            now = self.clock()
            self._count += 1
            self.total += 1
            if self._since is None:
                self._since = now - self.interval  # the first refusal is logged at once
            if now - self._since >= self.interval:
                self.logger.warning("%s: %d refused in the last %.0f s (%d in all)",
                                    self.what, self._count, min(now - self._since, self.interval),
                                    self.total)
                self._count, self._since = 0, now


class _AcceptFailures(logging.Filter):
    """Drops asyncio's "socket.accept() out of system resource" records, counting them instead."""

    def __init__(self, refusals: RefusalLog) -> None:
        super().__init__()
        self.refusals = refusals

    def filter(self, record: logging.LogRecord) -> bool:
        if "out of system resource" in str(record.msg):
            self.refusals.add()
            return False
        return True


def quiet_accept_failures(interval: float = 10.0) -> RefusalLog:
    """Make asyncio's accept failures (EMFILE, ENFILE, ENOBUFS) one counted line per ``interval``
    in this process instead of a traceback per attempt; idempotent."""
    logger = logging.getLogger("asyncio")
    for existing in logger.filters:
        if isinstance(existing, _AcceptFailures):
            return existing.refusals
    refusals = RefusalLog("connections not accepted: the process is out of file descriptors",
                          interval)
    logger.addFilter(_AcceptFailures(refusals))
    return refusals
