"""A reward server: ``radscope serve-reward --metrics radsem,crepe --port 8000``.

Radiology RL projects run their metrics as a service beside the trainer, so that the metrics'
dependencies and the trainer's never meet. Endpoints (JSON):

- ``POST /get_reward`` - OpenRLHF's shape (``--reward.remote_url http://127.0.0.1:8000/get_reward``):
  ``{"query": [...], "prompts": [...], "labels": [...]}`` -> ``{"rewards", "scores",
  "extra_logs": {"scored"}}``. Each query is prompt + response: it must begin with its prompt
  (leading padding / begin-of-text tokens and whitespace aside), else the request is refused
  (422 naming the samples), since where the response starts is then unknown. A sample whose
  pair cannot be scored gets ``--not-scored`` (0.0).
- ``POST /score`` - plain batches: ``{"references": [...], "candidates": [...]}`` ->
  ``{"rewards": [float | null], "statuses", "reasons", "metrics": {name: [...]}, "signatures"}``.
- ``GET /health`` - ``{"status": "ok"}``; with the token also the metrics, weights, signatures
  and counters.

Binds 127.0.0.1 unless ``--host`` says otherwise; another address needs a token
(``RADSCOPE_REWARD_TOKEN`` or ``--token-file``) or ``--allow-no-token``, which warns loudly. With
a token every POST needs ``Authorization: Bearer <token>`` (any case of "Bearer").
Requests from many clients are gathered into one scoring call (``reward_batcher``), run in a
thread; reading and parsing a large body also runs off the event loop, so ``/health`` answers
while the server scores. Limits (``http_limits``): 64 MiB and 16,384 pairs a request (413),
headers within 10 s and the body within 60 s (else the connection is closed, or 408), 65,536
pairs waiting at once (else 503), 512 connections; a request whose client has gone is dropped
from the queue. A bad request gets a 4xx with an ``error`` naming what is wrong; a failure
while scoring gets a 500 and the server goes on.

HTTP stack: Starlette on uvicorn (the ``serve`` extra; the ``app`` extra brings both through
Gradio), the stack of TRL's, verl's and OpenRLHF's own servers.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import os
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from radscope.engine.hosts import is_loopback
from radscope.engine.rewards.batcher import Batcher, Busy
from radscope.engine.rewards.http_limits import (
    BadRequest,
    Limits,
    bearer_ok,
    parse_object,
    read_body,
    server_config,
    string_list,
)
from radscope.engine.rewards.process import ScoringProcess
from radscope.engine.rewards.scorer import OpenRLHFBatch, RewardBatch, RewardScorer
from radscope.engine.runs.collector import scoring_collector

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.types import Receive

log = logging.getLogger("radscope.reward_server")

OFF_LOOP_BYTES = 64 * 1024  # bodies past this are parsed in a thread, not on the event loop


class ClientGone(Exception):
    """The client closed its connection before its rewards were ready."""


@dataclass
class Work:
    """A parsed request: the pairs to score and how to turn their rewards into the reply."""

    references: list[str]
    candidates: list[str]
    reply: Callable[[RewardBatch], dict[str, Any]]


def same_length(**lists: list[str]) -> None:
    lengths = {name: len(v) for name, v in lists.items()}
    if len(set(lengths.values())) > 1:
        raise BadRequest("one item of each per sample: " + ", ".join(f"{k} has {n}" for k, n in lengths.items()))


def get_reward_work(raw: bytes, limits: Limits, not_scored: float) -> Work:
    """``/get_reward``'s body -> the responses (queries less their prompts) and labels to score."""
    body = parse_object(raw)
    queries, prompts = string_list(body, "query", limits), string_list(body, "prompts", limits)
    labels = string_list(body, "labels", limits)
    same_length(query=queries, prompts=prompts, labels=labels)
    samples = OpenRLHFBatch.of(queries, prompts, labels)
    refusal = samples.refusal()
    if refusal:
        raise BadRequest(refusal, 422)
    return Work(samples.references, samples.responses, lambda batch: samples.reply(batch, not_scored))


def score_work(raw: bytes, limits: Limits, signatures: dict[str, str]) -> Work:
    """``/score``'s body -> its pairs."""
    body = parse_object(raw)
    references, candidates = string_list(body, "references", limits), string_list(body, "candidates", limits)
    same_length(references=references, candidates=candidates)
    return Work(references, candidates, lambda batch: {
        "rewards": batch.rewards, "statuses": batch.statuses, "reasons": batch.reasons,
        "metrics": batch.per_metric, "signatures": signatures})


async def _disconnected(receive: Receive) -> None:
    """Returns when the client has closed its connection (the body was read already)."""
    while (await receive())["type"] != "http.disconnect":
        await asyncio.sleep(0.05)


def build_app(rewarder: RewardScorer, *, token: str | None = None, not_scored: float = 0.0,
              limits: Limits | None = None, batcher: Batcher | None = None) -> Starlette:
    """The ASGI app (Starlette) serving ``rewarder``."""
    from starlette.applications import Starlette
    from starlette.requests import ClientDisconnect
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    if not math.isfinite(not_scored):
        raise ValueError(f"the not-scored reward must be a finite number, not {not_scored}")
    limits = limits or Limits()
    batcher = batcher or Batcher(rewarder)
    signatures = rewarder.scorer.signatures

    def authorised(request: Request) -> bool:
        return token is None or bearer_ok(request.headers.get("authorization", ""), token)

    async def scored(request: Request, work: Work) -> RewardBatch:
        """The work's rewards, or ``ClientGone`` (its pairs leave the queue) if the client leaves first."""
        rewards = asyncio.ensure_future(batcher.rewards(work.references, work.candidates))
        gone = asyncio.ensure_future(_disconnected(request.receive))
        try:
            await asyncio.wait({rewards, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not rewards.done():
                rewards.cancel()  # takes effect when the task next runs: its pairs leave the queue
        if not rewards.done() or rewards.cancelled():
            raise ClientGone
        return rewards.result()

    async def answer(request: Request, parse: Callable[[bytes], Work]) -> Response:
        try:
            if not authorised(request):
                return JSONResponse({"error": "missing or wrong bearer token (Authorization: Bearer <token>)"},
                                    status_code=401, headers={"WWW-Authenticate": "Bearer"})
            raw = await read_body(request, limits)
            work = parse(raw) if len(raw) <= OFF_LOOP_BYTES else await asyncio.to_thread(parse, raw)
            return JSONResponse(work.reply(await scored(request, work)))
        except (ClientDisconnect, ClientGone):
            return Response(status_code=499)  # nobody reads it: uvicorn drops it
        except BadRequest as exc:
            if exc.status == 422:
                log.warning("refused: %s", exc)
            close = {"Connection": "close"} if exc.status in (408, 413) else None  # the rest is not read
            return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=close)
        except Busy as exc:
            return JSONResponse({"error": str(exc)}, status_code=503, headers={"Retry-After": "1"})
        except Exception as exc:  # noqa: BLE001 - a failed batch (logged by the batcher): say so, keep serving
            return JSONResponse({"error": f"scoring failed: {type(exc).__name__}: {exc}"}, status_code=500)

    async def post_get_reward(request: Request) -> Response:
        return await answer(request, lambda raw: get_reward_work(raw, limits, not_scored))

    async def post_score(request: Request) -> Response:
        return await answer(request, lambda raw: score_work(raw, limits, signatures))

    async def health(request: Request) -> JSONResponse:
        if token is None or not authorised(request):  # a caller without the token learns only that it is alive
            return JSONResponse({"status": "ok"})
        return JSONResponse({"status": "ok", "weights": rewarder.weights, "signatures": signatures,
                             "batches": batcher.batches, "scored_pairs": batcher.scored_pairs,
                             "scoring_s": round(batcher.scoring_s, 3), "pending_pairs": batcher.pending_pairs,
                             "dropped_pairs": batcher.dropped_pairs})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await batcher.close()

    app = Starlette(routes=[Route("/get_reward", post_get_reward, methods=["POST"]),
                            Route("/score", post_score, methods=["POST"]),
                            Route("/health", health, methods=["GET"])],
                    lifespan=lifespan)
    app.state.limits = limits  # what server_config sets uvicorn's deadlines and connection cap from
    return app


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line (no usage block above them)."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message} (--help lists the options)\n")


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(text)


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    from radscope.engine.commands import _add_metric_options
    from radscope.engine.metrics.framework.registry import production

    parser = _Parser(prog="radscope serve-reward", description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", default="radsem",
                        help="metrics of the reward, with optional weights: radsem:0.7,crepe:0.3")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only; any other "
                        "needs a token or --allow-no-token)")
    parser.add_argument("--port", type=_port, default=8000)
    parser.add_argument("--token-file", help="file holding the bearer token every POST must send "
                        "(or set RADSCOPE_REWARD_TOKEN; default: no token)")
    parser.add_argument("--allow-no-token", action="store_true",
                        help="serve a --host other than loopback without a token (anyone who can "
                        "reach the port can use the server and its CPU)")
    parser.add_argument("--not-scored", type=_finite, default=0.0,
                        help="reward /get_reward gives a sample that cannot be scored (default 0.0)")
    parser.add_argument("--workers", type=_positive, default=1,
                        help="scoring processes, each scoring one batch of pairs at a time (default 1)")
    _add_metric_options(parser, production())
    return parser


def read_token(token_file: str | None) -> str | None:
    """The bearer token from --token-file or RADSCOPE_REWARD_TOKEN (never from the command line,
    where other users of the machine can read it); None for no token."""
    text = Path(token_file).read_text(encoding="utf-8") if token_file else os.environ.get("RADSCOPE_REWARD_TOKEN", "")
    token = text.strip()
    if token_file and not token:
        raise ValueError(f"--token-file {token_file}: the file is empty")
    if any(c.isspace() for c in token):
        raise ValueError("the bearer token holds whitespace: it must be one word")
    return token or None


def main(argv: list[str] | None = None) -> int:
    from radscope.engine.commands import _collect_options

    args = build_parser().parse_args(argv)
    try:
        token = read_token(args.token_file)
        if token is None and not is_loopback(args.host) and not args.allow_no_token:
            raise ValueError(f"--host {args.host} lets other machines reach the server, and it has no "
                             "token: set RADSCOPE_REWARD_TOKEN or --token-file (or pass --allow-no-token)")
        # One process per scoring process (reward_process): --workers of them score side by side.
        rewarder = RewardScorer(args.metrics, workers=1, **_collect_options(args))
    except (ValueError, OSError, KeyError) as exc:
        print(f"radscope serve-reward: error: {exc}", file=sys.stderr)
        return 2
    import uvicorn

    if token is None and not is_loopback(args.host):
        print(f"WARNING: the reward server listens on {args.host} WITHOUT A TOKEN (--allow-no-token): "
              "anyone who can reach this port can use it and its CPU", file=sys.stderr, flush=True)
    print(f"RadScope reward server: {rewarder.name} on http://{args.host}:{args.port} "
          f"(POST /get_reward, POST /score, GET /health; {'bearer token required' if token else 'no token'})",
          file=sys.stderr, flush=True)
    # HTTP and JSON here, scoring in a process of its own (reward_process: no shared interpreter lock).
    scoring = ScoringProcess(rewarder, processes=args.workers)
    try:
        scoring.warm_up()
        app = build_app(rewarder, token=token, not_scored=args.not_scored,
                        batcher=Batcher(rewarder, scoring=scoring, calls=args.workers + 1))
        with scoring_collector():  # the server's process allocates no reference cycles (runs.collector)
            uvicorn.Server(server_config(app, args.host, args.port)).run()
    finally:
        scoring.close()
        rewarder.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
