"""The embedded judge in a supervised worker process.

llama.cpp is native code: a fault in it (a segfault on an unusual CPU, an out-of-memory kill,
a hang) ends the process it runs in. So the GGUF judge never runs in the app's or the CLI's
process. ``IsolatedLlamaBackend`` starts ``python -m radscope.engine.runtimes.judge_worker``, which loads
the model once and answers completion requests over a private socket pair; the parent keeps the
call cache, validation and retries (``radscope.engine.runtimes.judge.Judge``), the worker keeps the model
and its KV cache, so prompt-prefix reuse and one model load per run are unchanged.

Why our own worker and not llama.cpp's HTTP server on a loopback port: the worker runs exactly the
code the in-process backend ran (the fast greedy grammar path, the template handling, the
plain-text tokenization of reports), needs no port (nothing another local user could reach), and
sends requests as pickles over a socket pair, which costs microseconds.

Supervision, per call:
- the worker dies (signal or exit): the call fails with "judge process crashed (signal 11,
  SIGSEGV); restarted", a new worker is started at once, and the next call goes to it;
- the worker does not answer within the call timeout (a hang, or a stopped process): it is
  killed, restarted, and the call fails with a timeout error;
- both errors are ``TransientJudgeError``: the pair is marked, and a resumed run computes it again.

A new worker proves itself before it is trusted: after loading it runs one tiny generation, and
only then reports ready. A judge that cannot load or fails that check is refused with a message
naming the model and what went wrong.
"""
from __future__ import annotations

import contextlib
import logging
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection, Pipe
from pathlib import Path
from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.runtimes.judge import (
    Completion,
    ContextExceeded,
    GrammarRejected,
    Message,
    TransientJudgeError,
)
from radscope.layout import import_root

log = logging.getLogger(__name__)

# The folder holding our top-level package (the checkout, or site-packages when installed), which
# the worker needs on its path.
PROJECT_ROOT = import_root()
SELF_CHECK: list[Message] = [{"role": "user", "content": "Reply with the word ready."}]
SELF_CHECK_TOKENS = 2
CLOSE_GRACE_S = 5.0
POLL_S = 0.1


class JudgeStartError(RuntimeError):
    """The worker could not load the judge or failed its self-check."""


class JudgeCrashed(TransientJudgeError):
    """The worker died during a call."""


class JudgeTimedOut(TransientJudgeError):
    """The worker did not answer a call in time and was killed."""

    category = "timeout"


@dataclass(frozen=True)
class WorkerLoad:
    """Everything the worker needs to build ``LlamaCppBackend`` (sent to it once, at start)."""

    path: str
    model_id: str
    sha256: str
    revision: str | None = None
    source: str = "local"
    demo_grade: bool = False
    registry_chat_format: str | None = None
    registry_n_ctx: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)  # LlamaSettings fields


@dataclass(frozen=True)
class WorkerInfo:
    """What the worker reports once its model answered the self-check."""

    identity: dict[str, Any]
    signature_fields: dict[str, Any]
    model_info: dict[str, Any]
    system_info: str
    load_s: float


def describe_exit(returncode: int | None) -> str:
    """'signal 11, SIGSEGV' / 'exit status 1' / 'still running' for a worker's return code."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "unknown signal"
        hint = ": killed, perhaps for lack of memory" if -returncode == signal.SIGKILL else ""
        return f"signal {-returncode}, {name}{hint}"
    return f"exit status {returncode}"


class _Worker:
    """One worker process and its end of the socket pair."""

    def __init__(self, load: WorkerLoad, timeout_s: float) -> None:
        parent_end, child_end = Pipe(duplex=True)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(PROJECT_ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "radscope.engine.runtimes.judge_worker", str(child_end.fileno())],
            pass_fds=(child_end.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            env=env, cwd=str(PROJECT_ROOT), start_new_session=True)
        child_end.close()
        self.conn = parent_end
        self.conn.send(load)
        reply = self.wait(timeout_s, "loading the judge")
        if reply[0] != "ready":
            self.kill()
            raise JudgeStartError(reply[1])
        self.info: WorkerInfo = reply[1]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait(self, timeout_s: float, doing: str) -> tuple[Any, ...]:
        """The worker's next message; raises JudgeCrashed / JudgeTimedOut (worker killed)."""
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            try:
                if self.conn.poll(max(0.0, min(POLL_S, remaining))):
                    return self.conn.recv()
            except (EOFError, OSError, pickle.UnpicklingError):
                pass  # the worker went away mid-message: judged below by its exit
            returncode = self.proc.poll()
            if returncode is not None or self.conn.closed:
                try:
                    returncode = self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    self.kill()
                raise JudgeCrashed(f"judge process crashed while {doing} ({describe_exit(returncode)})")
            if remaining <= 0:
                self.kill()
                raise JudgeTimedOut(f"judge process did not answer within {timeout_s:g} s while "
                                    f"{doing}; it was stopped")

    def call(self, request: tuple[Any, ...], timeout_s: float, doing: str) -> tuple[Any, ...]:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError, OSError):
            self.conn.send(request)  # if it died between calls, wait() reports how
        return self.wait(timeout_s, doing)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=CLOSE_GRACE_S)
            except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
                log.warning("judge worker %s did not exit after SIGKILL", self.proc.pid)
        self.conn.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.conn.send(("close",))
                self.proc.wait(timeout=CLOSE_GRACE_S)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


class IsolatedLlamaBackend:
    """The embedded GGUF judge, run in a supervised worker process (see module docstring).

    Implements ``JudgeBackend``. Calls are serialised (one model, one worker), exactly as the
    in-process backend's lock did.
    """

    kind = "llama.cpp"
    constrains = True

    def __init__(self, load: WorkerLoad, *, call_timeout_s: float = 600.0,
                 load_timeout_s: float = 600.0) -> None:
        self.load = load
        self.call_timeout_s = float(call_timeout_s)
        self.load_timeout_s = float(load_timeout_s)
        self.restarts = 0
        self._lock = threading.Lock()
        self._worker: _Worker | None = self._start()
        self._info = self._worker.info

    def _start(self) -> _Worker:
        try:
            return _Worker(self.load, self.load_timeout_s)
        except (JudgeCrashed, JudgeTimedOut) as exc:
            raise JudgeStartError(f"judge {self.load.model_id!r} failed to start: {exc}") from None
        except JudgeStartError as exc:
            raise JudgeStartError(f"judge {self.load.model_id!r} failed to start: {exc}") from None

    # -- identity (as the worker reported it) -----------------------------------------------------

    def identity(self) -> dict[str, Any]:
        return dict(self._info.identity)

    def signature_fields(self) -> dict[str, Any]:
        return dict(self._info.signature_fields)

    def model_info(self) -> ModelInfo:
        info = dict(self._info.model_info)
        detail = dict(info.pop("detail", {}))
        worker = self._worker
        detail.update({"process": f"isolated worker (pid {worker.pid if worker else 'none'})",
                       "restarts": self.restarts, "load_s": round(self._info.load_s, 2)})
        return ModelInfo(**info, detail=detail)

    @property
    def pid(self) -> int | None:
        return self._worker.pid if self._worker else None

    # -- calls ----------------------------------------------------------------------------------

    def complete(self, messages: Sequence[Message], schema: dict[str, Any] | None,
                 max_tokens: int, seed: int) -> Completion:
        with self._lock:
            if self._worker is None:
                self._worker = self._start()
            try:
                reply = self._worker.call(("complete", list(messages), schema, max_tokens, seed),
                                          self.call_timeout_s, "answering")
            except (JudgeCrashed, JudgeTimedOut) as exc:
                raise type(exc)(f"{exc}; {self._restart()}") from None
        if reply[0] == "ok":
            return reply[1]
        raise worker_error(reply[1])  # an ordinary error inside the worker (prompt too long...)

    def _restart(self) -> str:
        """Replace the dead worker; says how that went (for the failed call's message)."""
        if self._worker is not None:
            self._worker.kill()
        self._worker = None
        self.restarts += 1
        try:
            self._worker = self._start()
        except JudgeStartError as exc:
            return f"restart failed ({exc}); the next call tries again"
        return "restarted"

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()
                self._worker = None


def worker_error(text: str) -> Exception:
    """The worker's ``Type: message`` as an exception of the same type when the judge's failure
    categories depend on it (grammar, context), a RuntimeError otherwise."""
    name, _, message = text.partition(": ")
    typed: dict[str, type[Exception]] = {"GrammarRejected": GrammarRejected,
                                         "ContextExceeded": ContextExceeded}
    return typed[name](message) if name in typed else RuntimeError(text)


# --------------------------------------------------------------------------- the worker side


def _build(load: WorkerLoad) -> Any:
    from radscope.engine.runtimes.llamacpp import LlamaCppBackend, LlamaSettings

    return LlamaCppBackend(
        Path(load.path), model_id=load.model_id, sha256=load.sha256, revision=load.revision,
        source=load.source, demo_grade=load.demo_grade,
        registry_chat_format=load.registry_chat_format, registry_n_ctx=load.registry_n_ctx,
        settings=LlamaSettings(**load.settings))


def serve(conn: Connection) -> int:
    """The worker's loop: load, self-check, report ready, then answer until told to close."""
    from radscope.models.llama_load import system_info

    load: WorkerLoad = conn.recv()
    started = time.perf_counter()
    try:
        backend = _build(load)
        backend.complete(SELF_CHECK, None, SELF_CHECK_TOKENS, 0)
    except Exception as exc:  # noqa: BLE001 - sent to the parent as the reason for refusing it
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        return 1
    info = backend.model_info()
    conn.send(("ready", WorkerInfo(identity=backend.identity(),
                                   signature_fields=backend.signature_fields(),
                                   model_info=asdict(info), system_info=system_info(),
                                   load_s=time.perf_counter() - started)))
    while True:
        try:
            request = conn.recv()
        except EOFError:  # the parent went away
            break
        if request[0] == "close":
            break
        _, messages, schema, max_tokens, seed = request
        try:
            conn.send(("ok", backend.complete(messages, schema, max_tokens, seed)))
        except Exception as exc:  # noqa: BLE001 - the parent turns it into a per-pair error
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    backend.close()
    return 0


def main(argv: Sequence[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when the worker stops
    return serve(Connection(int(argv[0])))


if __name__ == "__main__":
    # Run the imported module, not this __main__ copy, so that what it pickles (WorkerInfo)
    # names engine.runtimes.judge_worker, which the parent can load.
    from radscope.engine.runtimes import judge_worker

    sys.exit(judge_worker.main(sys.argv[1:]))
