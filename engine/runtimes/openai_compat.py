"""Remote judge backend: any OpenAI-compatible chat server (vLLM, llama.cpp servers, hosted APIs).

This is how a user outgrows one machine: a big judge runs on a server with many GPUs, and the
batch runner keeps several requests in flight. A semaphore bounds them (``max_inflight``); the
``openai`` client gives every request a timeout and retries transport failures (connection
errors, 429 and 5xx) with back-off.

Servers disagree on how to ask for JSON that fits a schema, so the *dialect* is a setting:

- ``json_schema``: OpenAI's ``{"type": "json_schema", "json_schema": {...}}`` (OpenAI, vLLM,
  llama.cpp's C++ ``llama-server``);
- ``json_object``: ``{"type": "json_object", "schema": ...}``, the only form that
  llama-cpp-python's server honours (it silently ignores the OpenAI form);
- ``none``: no constraint; the prompt alone asks for JSON and the tolerant parser reads it.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlparse

from radscope.engine.context import ModelInfo
from radscope.engine.runtimes.judge import Completion, Message

DIALECTS = ("json_schema", "json_object", "none")


def response_format(dialect: str, schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """The ``response_format`` field that asks ``dialect``'s servers for ``schema``."""
    if schema is None or dialect == "none":
        return None
    if dialect == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema, "strict": True}}
    if dialect == "json_object":
        return {"type": "json_object", "schema": schema}
    raise ValueError(f"unknown JSON dialect {dialect!r}; choose from {', '.join(DIALECTS)}")


class OpenAICompatBackend:
    """A judge served over the OpenAI chat-completions API (see module docstring)."""

    kind = "openai"

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 dialect: str = "json_schema", max_inflight: int = 4, timeout_s: float = 120.0,
                 max_retries: int = 2, demo_grade: bool = False, client: Any = None) -> None:
        if dialect not in DIALECTS:
            raise ValueError(f"unknown JSON dialect {dialect!r}; choose from {', '.join(DIALECTS)}")
        if not model:
            raise ValueError("a remote judge needs a model name (--judge-model)")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.dialect = dialect
        self.constrains = dialect != "none"
        self.demo_grade = demo_grade
        self.max_inflight = max(1, int(max_inflight))
        self._slots = threading.BoundedSemaphore(self.max_inflight)
        if client is None:
            from openai import OpenAI

            client = OpenAI(base_url=self.base_url, api_key=api_key or "not-needed",
                            timeout=timeout_s, max_retries=max_retries)
        self._client = client
        self.timeout_s = timeout_s
        self.max_retries = max_retries

    def identity(self) -> dict[str, Any]:
        # The host is part of the identity: the same model name on two servers may be two models.
        return {"backend": self.kind, "model": self.model, "server": self._host(),
                "dialect": self.dialect}

    def signature_fields(self) -> dict[str, Any]:
        return {"judge": self.model, "judge_hash": "remote", "quant": "unknown",
                "backend": f"{self.kind}@{self._host()}", "dialect": self.dialect}

    def model_info(self) -> ModelInfo:
        return ModelInfo(id=self.model, source=f"server: {self.base_url}",
                         demo_grade=self.demo_grade, device="remote",
                         detail={"backend": self.kind, "dialect": self.dialect,
                                 "max_inflight": self.max_inflight, "timeout_s": self.timeout_s,
                                 "max_retries": self.max_retries})

    def _host(self) -> str:
        parsed = urlparse(self.base_url)
        return parsed.netloc or self.base_url

    def complete(self, messages: Sequence[Message], schema: dict[str, Any] | None,
                 max_tokens: int, seed: int) -> Completion:
        kwargs: dict[str, Any] = {"model": self.model, "messages": list(messages),
                                  "temperature": 0.0, "seed": seed, "max_tokens": max_tokens}
        fmt = response_format(self.dialect, schema)
        if fmt is not None:
            kwargs["response_format"] = fmt
        with self._slots:
            response = self._client.chat.completions.create(**kwargs)
        choice = response.choices[0]
        usage = getattr(response, "usage", None)
        return Completion(
            text=choice.message.content or "",
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            finish_reason="length" if choice.finish_reason == "length" else "stop")

    def close(self) -> None:
        close = getattr(self._client, "close", None)
        if callable(close):
            close()
