"""The reward server's HTTP limits: what a connection, a request and a body may cost.

uvicorn closes idle keep-alive connections but sets no deadline for a request's headers or body
and reads a chunked body whole before the app sees it; an endpoint that reads ``request.body()``
has no cap either. Here: a connection must send a request's headers within ``header_s`` of
opening (or of its previous response) and the body within ``body_s`` more, else it is closed
(``deadline_protocol``); the app reads the body in chunks and stops at ``max_body_bytes`` whatever
the framing (``read_body``, 413), and the JSON is parsed with every failure a ``BadRequest``
(``parse_object``: nesting past the parser's depth, a number too long to convert, bad UTF-8).
"""
from __future__ import annotations

import asyncio
import hmac
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from radscope.engine.descriptors import ACCEPT_BURST, RefusalLog, connection_cap, quiet_accept_failures

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_BODY_BYTES = 64 * 1024 * 1024
MAX_PAIRS = 16_384  # per request


@dataclass(frozen=True)
class Limits:
    """What one request or connection may cost the server (defaults are the served ones)."""

    max_body_bytes: int = MAX_BODY_BYTES
    max_pairs: int = MAX_PAIRS
    header_s: float = 10.0  # from a connection's opening (or its last response) to a request's headers
    body_s: float = 60.0  # from the headers to the body's last byte
    max_connections: int = 512  # open at once; past it uvicorn answers 503


class BadRequest(ValueError):
    """A request the caller can fix: answered 4xx (400 unless ``status`` says) with this message."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def too_large(limits: Limits) -> BadRequest:
    return BadRequest(f"request body over {limits.max_body_bytes:,} bytes", 413)


async def read_body(request: Request, limits: Limits) -> bytes:
    """The body, read chunk by chunk: 413 as soon as it passes the cap (before reading it when
    Content-Length says so), 408 when it has not all come within ``limits.body_s``."""
    declared = request.headers.get("content-length", "")
    if len(declared) > 18 or (declared.isdigit() and int(declared) > limits.max_body_bytes):
        raise too_large(limits)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(limits.body_s):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body_bytes:
                    raise too_large(limits)
                chunks.append(chunk)
    except TimeoutError:
        raise BadRequest(f"the body did not arrive within {limits.body_s:g} s", 408) from None
    return b"".join(chunks)


def parse_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object; anything else a ``BadRequest`` naming what is wrong."""
    try:
        body = json.loads(raw)
    except RecursionError:
        raise BadRequest("the body is nested too deeply to be a request") from None
    except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError, a number past int's digit limit
        raise BadRequest(f"the body is not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise BadRequest(f"the body must be a JSON object, not {type(body).__name__}")
    return body


def string_list(body: dict[str, Any], key: str, limits: Limits) -> list[str]:
    value = body.get(key)
    if not isinstance(value, list):
        raise BadRequest(f"{key!r} must be a list of strings" + ("" if key in body else " (missing)"))
    if len(value) > limits.max_pairs:
        raise BadRequest(f"{key!r} has {len(value)} items; at most {limits.max_pairs} per request", 413)
    bad = next((i for i, v in enumerate(value) if not isinstance(v, str)), None)
    if bad is not None:
        raise BadRequest(f"{key}[{bad}] is {type(value[bad]).__name__}, not a string")
    return value


def bearer_ok(header: str, token: str) -> bool:
    """Whether an Authorization header carries ``token`` (the scheme is case-insensitive)."""
    scheme, _, credentials = header.strip().partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(credentials.strip().encode(), token.encode())


# A connection that has sent nothing for this long may be closed to make room past the cap.
PATIENCE_S = 1.0
# What a connection past the cap is told before it is closed.
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"retry-after: 1\r\nconnection: close\r\ncontent-length: 32\r\n\r\n"
        b"too many connections; try again\n")


def deadline_protocol(header_s: float, body_s: float, cap: int | None = None,
                      refusals: RefusalLog | None = None) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with the two deadlines it lacks: a connection that has not sent a
    request's headers ``header_s`` after opening (or after its last response), or its body
    ``body_s`` after the headers, is closed. Slow and idle sockets cannot pile up.

    With ``cap``, at most ``cap`` connections stay open, so that the process keeps descriptors
    to serve with: a connection opened past it closes one still waiting for a request's headers
    (``_make_room``: one that sent half a header and stopped, else one silent for a second), so
    a client with a request gets in however many idle sockets another holds; when none may go,
    the new one is answered 503 and closed. Each is counted in ``refusals``, which logs once per
    interval."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class DeadlineH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _opened = 0.0

        def _arm(self, seconds: float) -> None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self.loop.call_later(seconds, self._expire)

        def _waiting(self) -> bool:
            """Open, and no request under way: nothing is lost by closing it."""
            return self.conn.their_state is h11.IDLE and not self.transport.is_closing()

        def _expire(self) -> None:
            if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
                self.transport.close()

        def _make_room(self) -> bool:
            """Close one waiting connection, False when none may go: first the oldest that sent
            part of a request's headers and stopped (a slow or idle client holding a socket),
            then the oldest that has sent nothing for ``PATIENCE_S`` (a connection just accepted
            has its request on the way and is left alone)."""
            now = self.loop.time()
            waiting = [c for c in self.connections
                       if c is not self and isinstance(c, DeadlineH11Protocol) and c._waiting()]
            stalled = [c for c in waiting if c.conn.trailing_data[0]]
            silent = [c for c in waiting if not c.conn.trailing_data[0] and now - c._opened >= PATIENCE_S]
            for group in (stalled, silent):
                if group:
                    min(group, key=lambda c: c._opened).transport.close()
                    return True
            return False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._opened = self.loop.time()
            if cap is not None and sum(not c.transport.is_closing() for c in self.connections) > cap:
                if refusals is not None:
                    refusals.add()
                if not self._make_room():
                    transport.write(BUSY)
                    transport.close()
                    return
            self._arm(header_s)

        def handle_events(self) -> None:
            before = self.conn.their_state
            super().handle_events()
            if before is h11.IDLE and self.conn.their_state is h11.SEND_BODY:
                self._arm(body_s)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm(header_s)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
            super().connection_lost(exc)

    return DeadlineH11Protocol


def server_config(app: Any, host: str, port: int) -> Any:
    """The uvicorn ``Config`` ``app`` runs under, with the ``Limits`` it was built with
    (``app.state.limits``): the deadlines above (the body's 5 s after the app's own 408, for
    bodies no endpoint reads), at most ``limits.max_connections`` connections and never more than
    the descriptor limit leaves room for (``descriptors.connection_cap``: past it the oldest
    idle connection is closed, or the new one answered 503, logged once per 10 s), idle keep-alive
    connections closed
    after 5 s, and asyncio's accept failures one counted line instead of a traceback each."""
    import uvicorn

    limits: Limits = app.state.limits
    cap = connection_cap(limits.max_connections)
    quiet_accept_failures()
    refusals = RefusalLog(f"connections past the cap of {cap} open at once (a waiting one "
                          "closed, or the new one answered 503)")
    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          http=deadline_protocol(limits.header_s, limits.body_s + 5, cap, refusals),
                          # uvicorn's own check counts idle connections too: ours decides which
                          # to keep, uvicorn's only bounds the requests in flight
                          limit_concurrency=cap + ACCEPT_BURST, timeout_keep_alive=5,
                          # accepted at most this many at a time: room for them is kept below
                          # the descriptor limit (connection_cap), so accept never fails
                          backlog=ACCEPT_BURST, server_header=False)


# The protocol ``cap_uvicorn_connections`` serves with, importable by name as uvicorn asks for it.
CappedProtocol: type[asyncio.Protocol] | None = None


def cap_uvicorn_connections(header_s: float = 60.0, body_s: float = 600.0) -> int:
    """Serve every uvicorn server this process starts afterwards (the public app's: Gradio builds
    its own ``Config``) with ``deadline_protocol``, capped at ``descriptors.connection_cap``, and
    asyncio's accept failures quietened: the reward server's defences for a server whose
    ``Config`` is not ours to build. The deadlines are long, since an app's page stays open;
    returns the cap."""
    import uvicorn.config

    cap = connection_cap()
    quiet_accept_failures()
    protocol = deadline_protocol(header_s, body_s, cap,
                                 RefusalLog(f"connections past the cap of {cap} open at once"))
    global CappedProtocol
    CappedProtocol = protocol
    target = f"{__name__}:CappedProtocol"
    uvicorn.config.HTTP_PROTOCOLS.update({"auto": target, "h11": target})
    return cap
