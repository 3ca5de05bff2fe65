"""A reward server: ``radscope serve-reward --metrics radsem,crepe --port 8000``.

Radiology RL projects run their metrics as a service beside the trainer, so that the metrics'
dependencies and the trainer's never meet. Endpoints (JSON):

- ``POST /get_reward`` - OpenRLHF's shape (``--reward.remote_url http://127.0.0.1:8000/get_reward``):
  ``{"query": [...], "prompts": [...], "labels": [...]}`` -> ``{"rewards", "scores",
  "extra_logs": {"scored"}}``; each query is prompt + response, the prompt is stripped; a
  sample that cannot be scored gets ``--not-scored`` (0.0).
- ``POST /score`` - plain batches: ``{"references": [...], "candidates": [...]}`` ->
  ``{"rewards": [float | null], "statuses", "reasons", "metrics": {name: [...]}, "signatures"}``.
- ``GET /health`` - the metrics, weights and signatures served.

Binds 127.0.0.1 unless ``--host`` says otherwise. With a token (``RADSCOPE_REWARD_TOKEN`` or
``--token-file``) every POST needs ``Authorization: Bearer <token>``; OpenRLHF's own client
sends no header, so keep its server on loopback or behind a proxy that adds it. Requests that
arrive while a batch is being scored are gathered into the next batch (one ``Scorer`` call);
the scoring runs in a thread so the server keeps accepting. A bad request gets a 4xx with an
``error`` naming what is wrong; a failure while scoring gets a 500 and the server goes on.

HTTP stack: Starlette on uvicorn (the ``serve`` extra; the ``app`` extra brings both through
Gradio), the stack of TRL's, verl's and OpenRLHF's own servers.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import hmac
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from radscope.engine.rewards import OpenRLHFBatch, RewardBatch, RewardScorer
from radscope.engine.runs.collector import scoring_collector

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse

log = logging.getLogger("radscope.reward_server")

MAX_BODY_BYTES = 64 * 1024 * 1024
MAX_PAIRS = 16_384  # per request
MAX_BATCH_PAIRS = 4096  # per Scorer call when requests are gathered


class BadRequest(ValueError):
    """A request the caller can fix: answered 400 with this message."""


@dataclass
class _Job:
    references: list[str]
    candidates: list[str]
    future: asyncio.Future[RewardBatch] = field(repr=False)


class Batcher:
    """Gathers the pairs of concurrent requests into one ``rewards`` call at a time."""

    def __init__(self, rewarder: RewardScorer, max_batch_pairs: int = MAX_BATCH_PAIRS) -> None:
        self.rewarder = rewarder
        self.max_batch_pairs = max_batch_pairs
        self.batches = 0  # Scorer calls made (for /health and the tests)
        self._queue: asyncio.Queue[_Job] | None = None
        self._task: asyncio.Task[None] | None = None

    async def rewards(self, references: list[str], candidates: list[str]) -> RewardBatch:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._task = asyncio.create_task(self._run())
        job = _Job(references, candidates, asyncio.get_running_loop().create_future())
        await self._queue.put(job)
        return await job.future

    async def _run(self) -> None:
        assert self._queue is not None
        while True:
            jobs = [await self._queue.get()]
            size = len(jobs[0].references)
            while not self._queue.empty() and size < self.max_batch_pairs:
                job = self._queue.get_nowait()
                jobs.append(job)
                size += len(job.references)
            await self._score(jobs)

    async def _score(self, jobs: list[_Job]) -> None:
        references = [r for job in jobs for r in job.references]
        candidates = [c for job in jobs for c in job.candidates]
        try:
            batch = await asyncio.to_thread(self.rewarder.rewards, references, candidates)
        except Exception as exc:  # the requests get a 500 (logged); the server goes on
            log.exception("scoring a batch of %d pairs failed", len(references))
            for job in jobs:
                if not job.future.done():
                    job.future.set_exception(exc)
            return
        self.batches += 1
        start = 0
        for job in jobs:
            end = start + len(job.references)
            if not job.future.done():  # the caller may have gone away
                job.future.set_result(RewardBatch(
                    batch.rewards[start:end], batch.statuses[start:end], batch.reasons[start:end],
                    {name: values[start:end] for name, values in batch.per_metric.items()}))
            start = end

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()


def string_list(body: dict[str, Any], key: str) -> list[str]:
    value = body.get(key)
    if not isinstance(value, list):
        raise BadRequest(f"{key!r} must be a list of strings" + ("" if key in body else " (missing)"))
    bad = next((i for i, v in enumerate(value) if not isinstance(v, str)), None)
    if bad is not None:
        raise BadRequest(f"{key}[{bad}] is {type(value[bad]).__name__}, not a string")
    if len(value) > MAX_PAIRS:
        raise BadRequest(f"{key!r} has {len(value)} items; at most {MAX_PAIRS} per request")
    return value


def same_length(**lists: Sequence[Any]) -> None:
    lengths = {name: len(v) for name, v in lists.items()}
    if len(set(lengths.values())) > 1:
        raise BadRequest("one item of each per sample: " + ", ".join(f"{k} has {n}" for k, n in lengths.items()))


def build_app(rewarder: RewardScorer, *, token: str | None = None, not_scored: float = 0.0) -> Starlette:
    """The ASGI app (Starlette) serving ``rewarder``."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    batcher = Batcher(rewarder)

    async def read_json(request: Request) -> dict[str, Any]:
        if token is not None:
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                raise PermissionError("missing or wrong bearer token (Authorization: Bearer <token>)")
        size = request.headers.get("content-length")
        if size is not None and size.isdigit() and int(size) > MAX_BODY_BYTES:
            raise OverflowError(f"request body over {MAX_BODY_BYTES // (1024 * 1024)} MiB")
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            raise OverflowError(f"request body over {MAX_BODY_BYTES // (1024 * 1024)} MiB")
        try:
            body = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadRequest(f"the body is not JSON: {exc}") from None
        if not isinstance(body, dict):
            raise BadRequest(f"the body must be a JSON object, not {type(body).__name__}")
        return body

    async def answer(request: Request, handler: Any) -> JSONResponse:
        try:
            return JSONResponse(await handler(await read_json(request)))
        except PermissionError as exc:
            return JSONResponse({"error": str(exc)}, status_code=401,
                                headers={"WWW-Authenticate": "Bearer"})
        except OverflowError as exc:
            return JSONResponse({"error": str(exc)}, status_code=413)
        except BadRequest as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except Exception as exc:  # noqa: BLE001 - a failed batch: say so, keep serving
            return JSONResponse({"error": f"scoring failed: {type(exc).__name__}: {exc}"}, status_code=500)

    async def get_reward(body: dict[str, Any]) -> dict[str, Any]:
        queries, prompts = string_list(body, "query"), string_list(body, "prompts")
        labels = string_list(body, "labels")

        try:
            samples = OpenRLHFBatch.of(queries, prompts, labels)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        return samples.reply(await batcher.rewards(samples.references, samples.responses), not_scored)

    async def score(body: dict[str, Any]) -> dict[str, Any]:
        references, candidates = string_list(body, "references"), string_list(body, "candidates")
        same_length(references=references, candidates=candidates)
        batch = await batcher.rewards(references, candidates)
        return {"rewards": batch.rewards, "statuses": batch.statuses, "reasons": batch.reasons,
                "metrics": batch.per_metric, "signatures": rewarder.scorer.signatures}

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "weights": rewarder.weights, "signatures": rewarder.scorer.signatures,
                             "batches": batcher.batches, "auth": token is not None})

    async def post_get_reward(request: Request) -> JSONResponse:
        return await answer(request, get_reward)

    async def post_score(request: Request) -> JSONResponse:
        return await answer(request, score)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await batcher.close()

    return Starlette(routes=[Route("/get_reward", post_get_reward, methods=["POST"]),
                             Route("/score", post_score, methods=["POST"]),
                             Route("/health", health, methods=["GET"])],
                     lifespan=lifespan)


def build_parser() -> argparse.ArgumentParser:
    from radscope.engine.cli import _add_metric_options
    from radscope.engine.metrics.registry import production

    parser = argparse.ArgumentParser(prog="radscope serve-reward", description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", default="radsem",
                        help="metrics of the reward, with optional weights: radsem:0.7,crepe:0.3")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--token-file", help="file holding the bearer token every POST must send "
                        "(or set RADSCOPE_REWARD_TOKEN; default: no token)")
    parser.add_argument("--not-scored", type=float, default=0.0,
                        help="reward /get_reward gives a sample that cannot be scored (default 0.0)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes for the CPU-bound metrics (rules, lexical)")
    _add_metric_options(parser, production())
    return parser


def read_token(token_file: str | None) -> str | None:
    """The bearer token from --token-file or RADSCOPE_REWARD_TOKEN (never from the command line,
    where other users of the machine can read it); None for no token."""
    text = Path(token_file).read_text(encoding="utf-8") if token_file else os.environ.get("RADSCOPE_REWARD_TOKEN", "")
    token = text.strip()
    if token_file and not token:
        raise ValueError(f"--token-file {token_file}: the file is empty")
    return token or None


def main(argv: list[str] | None = None) -> int:
    from radscope.engine.cli import _collect_options

    args = build_parser().parse_args(argv)
    try:
        token = read_token(args.token_file)
        rewarder = RewardScorer(args.metrics, workers=args.workers, **_collect_options(args))
    except (ValueError, OSError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    print(f"RadScope reward server: {rewarder.name} on http://{args.host}:{args.port} "
          f"(POST /get_reward, POST /score, GET /health; {'bearer token required' if token else 'no token'})",
          file=sys.stderr, flush=True)
    try:
        with scoring_collector():  # the server's process only scores (runs.collector)
            uvicorn.run(build_app(rewarder, token=token, not_scored=args.not_scored), host=args.host,
                        port=args.port, log_level="warning")
    finally:
        rewarder.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
