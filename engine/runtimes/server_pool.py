"""One judge served by several OpenAI-compatible servers (``--judge-url URL1,URL2,...``).

Every server must serve the same model with the same settings (one llama.cpp server per GPU
node, say): a call goes to the server with the fewest calls in flight, and to the next one
when that server fails, so the answers are those of one judge and the run has one signature.
The signature and the call cache key name every server (sorted), so a pool is never taken for
a single server, nor one pool for another.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.runtimes.judge import Completion, Message
from radscope.engine.runtimes.openai_compat import OpenAICompatBackend


class ServerPool:
    """A ``JudgeBackend`` spreading calls over several ``OpenAICompatBackend`` servers."""

    kind = "openai"

    def __init__(self, servers: Sequence[OpenAICompatBackend]) -> None:
        if len(servers) < 2:
            raise ValueError("a server pool needs at least two servers")
        models = {(s.model, s.dialect) for s in servers}
        if len(models) > 1:
            raise ValueError(f"the judge servers of one pool must serve one model with one JSON dialect, "
                             f"got {sorted(models)}")
        self.servers = list(servers)
        self.constrains = servers[0].constrains
        self.hosts = sorted(str(s.identity()["server"]) for s in servers)
        self._inflight = [0] * len(servers)
        self._lock = threading.Lock()

    def identity(self) -> dict[str, Any]:
        return {**self.servers[0].identity(), "server": "+".join(self.hosts)}

    def signature_fields(self) -> dict[str, Any]:
        return {**self.servers[0].signature_fields(), "backend": f"{self.kind}@{'+'.join(self.hosts)}"}

    def model_info(self) -> ModelInfo:
        first = self.servers[0].model_info()
        return ModelInfo(id=first.id, source="servers: " + ", ".join(s.base_url for s in self.servers),
                         demo_grade=first.demo_grade, device="remote",
                         detail={**first.detail, "servers": len(self.servers)})

    def complete(self, messages: Sequence[Message], schema: dict[str, Any] | None,
                 max_tokens: int, seed: int) -> Completion:
        """The least busy server answers; on a failure the others are tried in turn."""
        with self._lock:
            first = min(range(len(self.servers)), key=self._inflight.__getitem__)
            self._inflight[first] += 1
        order = [first] + [i for i in range(len(self.servers)) if i != first]
        try:
            for index in order[:-1]:
                try:
                    return self.servers[index].complete(messages, schema, max_tokens, seed)
                except Exception:  # noqa: BLE001 - a failing server hands the call on
                    continue
            return self.servers[order[-1]].complete(messages, schema, max_tokens, seed)
        finally:
            with self._lock:
                self._inflight[first] -= 1

    def close(self) -> None:
        for server in self.servers:
            server.close()
