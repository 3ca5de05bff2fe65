"""Fixtures for the LLM-judge tests: the tiny GGUF, the Gemma demo GGUF, contexts, fake backends.

Judge threads default to 1 here: on a small shared machine llama.cpp's threads spin-wait for
each other, and one thread is several times faster than two under contention
(``RADSCOPE_TEST_JUDGE_THREADS`` overrides it).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from radscope.engine.context import ModelInfo, RuntimeContext
from radscope.engine.runtimes.judge import Completion, Message
from tests.llm.tiny_gguf import write_tiny_gguf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "llm"
THREADS = int(os.environ.get("RADSCOPE_TEST_JUDGE_THREADS", "1"))


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf")


@pytest.fixture(scope="session")
def gemma_gguf() -> Path:
    from radscope.models.resolve import resolve

    return resolve("gemma3-270m-demo", task="judge").path


def make_ctx(judge: str | Path, **options: Any) -> RuntimeContext:
    """A run context for ``judge`` with test-friendly thread settings."""
    return RuntimeContext(options={"judge": str(judge), "judge_threads": THREADS, "extractor": "llm",
                                   **options})


@pytest.fixture
def ctx_factory() -> Callable[..., RuntimeContext]:
    made: list[RuntimeContext] = []

    def factory(judge: str | Path, **options: Any) -> RuntimeContext:
        ctx = make_ctx(judge, **options)
        made.append(ctx)
        return ctx

    yield factory
    for ctx in made:
        ctx.close()


class ScriptedBackend:
    """A backend that answers from a script: a list of texts (or Completions) in order, or a
    function of the messages. Records every request it gets."""

    kind = "scripted"

    def __init__(self, answers: Sequence[str | Completion] | Callable[[Sequence[Message]], str],
                 constrains: bool = True, model_id: str = "scripted-judge") -> None:
        self.answers = answers
        self.constrains = constrains
        self.model_id = model_id
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def identity(self) -> dict[str, Any]:
        return {"backend": self.kind, "model": self.model_id}

    def signature_fields(self) -> dict[str, Any]:
        return {"judge": self.model_id, "judge_hash": "none", "backend": self.kind}

    def model_info(self) -> ModelInfo:
        return ModelInfo(id=self.model_id, source="test script", demo_grade=False)

    def complete(self, messages: Sequence[Message], schema: dict[str, Any] | None,
                 max_tokens: int, seed: int) -> Completion:
        with self._lock:
            self.requests.append({"messages": [dict(m) for m in messages], "schema": schema,
                                  "max_tokens": max_tokens, "seed": seed})
            if callable(self.answers):
                answer: str | Completion = self.answers(messages)
            else:
                index = len(self.requests) - 1
                if index >= len(self.answers):
                    raise AssertionError(f"unexpected request #{index + 1}")
                answer = self.answers[index]
        if isinstance(answer, Completion):
            return answer
        return Completion(answer, prompt_tokens=10, completion_tokens=5, finish_reason="stop")

    def close(self) -> None:
        pass


class ReplayBackend(ScriptedBackend):
    """Answers recorded judge outputs (fixtures in tests/fixtures/llm/): the first rule whose
    ``contains`` strings all occur in the rendered prompt gives ``text`` (or ``retry``, when
    the judge asks again after an unusable answer)."""

    def __init__(self, rules: Sequence[dict[str, Any]], constrains: bool = True) -> None:
        def answer(messages: Sequence[Message]) -> str:
            text = messages[0]["content"]
            for rule in rules:
                if all(s in text for s in rule["contains"]):
                    return rule.get("retry", rule["text"]) if len(messages) > 1 else rule["text"]
            raise AssertionError(f"no recorded answer for a prompt starting {text[:200]!r}")

        super().__init__(answer, constrains=constrains, model_id="recorded-judge")


def load_fixture(name: str) -> dict[str, Any]:
    import json

    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))
