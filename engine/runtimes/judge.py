"""The LLM judge: one interface over two backends, with caching, validation and retries.

A *backend* turns chat messages into text (embedded llama.cpp in ``llamacpp``, any
OpenAI-compatible server in ``openai_compat``). The ``Judge`` around it does everything the
pipelines must be able to trust, the same way for every backend:

- renders a prompt file and asks for JSON fitting a schema (constrained where the backend can);
- decodes deterministically (temperature 0, one fixed seed on every call);
- finds the JSON in the text (tolerant of fences and prose) and validates it with jsonschema;
- retries a bounded number of times: a cut-off answer gets twice the token budget, an unusable
  one gets the judge's own answer back with a note saying what was wrong;
- caches every call in SQLite, so a repeated request costs nothing, and counts model calls,
  cache hits and tokens on the run's counters.

A call that still yields nothing usable raises ``JudgeError``; the metric turns that into a
per-pair error, never a silent zero. Every ``JudgeError`` carries a failure *category*
(``FAILURE_CATEGORIES``: grammar, context, timeout, crash, server, length, schema, not a
judgement), and each category says whose failure it is: the pipeline's, the runtime's, the
input's (a report longer than the judge's context) or the model's (``FAILURE_CAUSES``).
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, overload

from radscope.engine.context import ModelInfo
from radscope.engine.runtimes.callcache import CachedCall, CallCache, call_key
from radscope.engine.runtimes.jsontext import NotAJudgement, extract_json, validate
from radscope.engine.runtimes.prompts import Prompt, load_prompt

T = TypeVar("T")
Message = dict[str, str]
CountFn = Callable[[str, int], None]

RETRY_PROMPT_ID = "judge.retry"


@dataclass(frozen=True)
class Completion:
    """What a backend returns for one request."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str  # "stop", "length" (cut off at max_tokens) or "context" (at n_ctx)


class JudgeBackend(Protocol):
    """A model behind chat messages. ``constrains`` says whether ``complete`` enforces the schema."""

    kind: str
    constrains: bool

    def identity(self) -> dict[str, Any]:
        """Everything about the model and its set-up that can change an answer (cache key)."""

    def model_info(self) -> ModelInfo:
        """For display: id, source, device, demo grade."""

    def signature_fields(self) -> dict[str, Any]:
        """The short form of ``identity`` for signatures."""

    def complete(self, messages: Sequence[Message], schema: dict[str, Any] | None,
                 max_tokens: int, seed: int) -> Completion:
        """One deterministic completion (temperature 0, ``seed``)."""

    def close(self) -> None:
        """Release the model or the connection."""


# Why a judge call gave no usable answer, and whose failure that is. "pipeline" failures are
# ours to fix (a schema the runtime cannot turn into a grammar, an unexplained backend or server
# error); "runtime" ones come from the process (a hang, a crash); "input limit" is a pair refused
# because its reports do not fit the judge's context; "setting" an answer cut off at the user's
# token cap; "model quality" an answer that is not usable as a judgement: not the schema's
# shape, copied from a report, or still running past a token budget sized for an answer of the
# expected length (each question's budget covers that; a judge that repeats itself does not
# stop within it).
FAILURE_CAUSES: dict[str, str] = {
    "grammar": "pipeline",
    "server": "pipeline",
    "timeout": "runtime",
    "crash": "runtime",
    "context": "input limit",
    "length": "model quality",  # past a budget that fits an answer of the expected size
    "budget": "setting",  # cut off at the user's cap on answer tokens (--judge-max-tokens)
    "schema": "model quality",
    "not a judgement": "model quality",
}
FAILURE_CATEGORIES: tuple[str, ...] = tuple(FAILURE_CAUSES)


class GrammarRejected(ValueError):
    """The runtime could not build a grammar from the JSON schema (a pipeline bug: every schema
    we send is meant to fit llama.cpp's grammar limits)."""


class ContextExceeded(ValueError):
    """The prompt, or the prompt plus the answer, does not fit the judge's context. The pair is
    refused with this message (it names the limit); nothing is truncated."""


def failure_category(exc: BaseException) -> str:
    """The category of a backend exception: typed errors first, then what servers and the
    judge worker write in their messages (the worker sends ``Type: message`` text)."""
    if isinstance(exc, GrammarRejected):
        return "grammar"
    if isinstance(exc, ContextExceeded):
        return "context"
    text = f"{type(exc).__name__}: {exc}"
    for category, pattern in _MESSAGE_CATEGORIES:
        if pattern.search(text):
            return category
    return "server"


_MESSAGE_CATEGORIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("grammar", re.compile(r"GrammarRejected|grammar", re.I)),
    ("context", re.compile(r"ContextExceeded|context (window|length)|exceeds? (the )?context|"
                           r"maximum context", re.I)),
    ("timeout", re.compile(r"time(d)? ?out", re.I)),
)


class TransientJudgeError(RuntimeError):
    """A failure of the judge's process or transport, not of the question: the judge worker
    crashed or hung. The same call may well succeed later, so a resumed run asks again."""

    category = "crash"  # or "timeout" (the failure categories above)


class JudgeError(RuntimeError):
    """No usable answer after every attempt; ``texts`` keeps each raw answer for inspection.

    ``transient`` marks failures of the process rather than of the answer (a resumed run
    computes such pairs again instead of keeping the error).
    """

    def __init__(self, message: str, prompt: str, texts: Sequence[str] = (), *,
                 transient: bool = False, category: str = "schema") -> None:
        super().__init__(message)
        if category not in FAILURE_CAUSES:
            raise ValueError(f"unknown judge failure category {category!r}")
        self.prompt = prompt
        self.texts = list(texts)
        self.transient = transient
        self.category = category

    @property
    def cause(self) -> str:
        """Whose failure: pipeline, runtime, input limit or model quality."""
        return FAILURE_CAUSES[self.category]

    def to_json(self) -> dict[str, Any]:
        return {"message": str(self), "prompt": self.prompt,
                "answers": [t[:2000] for t in self.texts], "transient": self.transient,
                "category": self.category, "cause": self.cause}


@dataclass
class JudgeAnswer(Generic[T]):
    """A validated answer with its raw text and what it took to get it."""

    value: T
    text: str
    attempts: int
    model_calls: int = 0
    cache_hits: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class CallTrace:
    """What one judge question took: shown with the pair, summed by the benchmarks."""

    prompt: str
    side: str
    attempts: int
    model_calls: int
    cache_hits: int
    notes: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, prompt: Prompt, side: str, answer: JudgeAnswer[Any]) -> CallTrace:
        return cls(prompt.key, side, answer.attempts, answer.model_calls, answer.cache_hits,
                   list(answer.notes))

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "side": self.side, "attempts": self.attempts,
                "model_calls": self.model_calls, "cache_hits": self.cache_hits,
                "notes": list(self.notes)}


@dataclass(frozen=True)
class Decoding:
    """Decoding settings shared by every call: greedy, one seed, bounded retries."""

    seed: int = 0
    retries: int = 2
    temperature: float = 0.0
    max_tokens: int = 0  # a cap on every answer's tokens (0: each question's own budget)

    def describe(self) -> str:
        cap = f",max_tokens={self.max_tokens}" if self.max_tokens else ""
        return f"greedy,seed={self.seed},retries={self.retries}{cap}"


# llama.cpp's grammar parser rejects a repetition of 1,024 or more (a JSON-schema string with
# ``maxLength`` >= 1024, checked with llama_sampler_init_grammar on the packaged Gemma
# vocabulary: 1000 accepted, 1024 refused), and arrays expand the same way. Every schema we send
# keeps below these bounds: long outputs are arrays of bounded items, never one giant string.
GRAMMAR_MAX_STRING = 1000
GRAMMAR_MAX_ITEMS = 1000


def schema_nodes(schema: Any, where: str = "$") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every sub-schema (dict) of ``schema`` with its path, the schema itself first."""
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            yield from schema_nodes(value, f"{where}.{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from schema_nodes(value, f"{where}[{index}]")


def grammar_problems(schema: Any) -> list[str]:
    """Every place where ``schema`` goes beyond the grammar limits above (empty: fits)."""
    problems: list[str] = []
    for where, node in schema_nodes(schema):
        if node.get("type") == "string" and not ({"enum", "const", "pattern"} & set(node)):
            length = node.get("maxLength")
            if length is not None and length > GRAMMAR_MAX_STRING:
                problems.append(f"{where}: maxLength {length} > {GRAMMAR_MAX_STRING}")
        items = node.get("maxItems") if node.get("type") == "array" else None
        if items is not None and items > GRAMMAR_MAX_ITEMS:
            problems.append(f"{where}: maxItems {items} > {GRAMMAR_MAX_ITEMS}")
    return problems


def bounded_schema(schema: dict[str, Any], max_string: int = 400, max_items: int = 20,
                   max_count: int | None = None) -> dict[str, Any]:
    """A copy of ``schema`` in which free strings get ``maxLength`` and arrays ``maxItems``
    (never beyond the grammar limits); with ``max_count``, integers become counts
    ``0..max_count`` (an enum, because llama.cpp's schema converter ignores ``minimum`` and
    ``maximum``).

    Constrained decoding then always terminates (a small or confused model cannot write one
    string forever), and the answer still fits the original schema.
    """
    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            node = {k: walk(v) for k, v in node.items()}
            kind = node.get("type")
            if kind == "string" and not ({"enum", "const", "pattern"} & set(node)):
                node["maxLength"] = min(node.get("maxLength", max_string), GRAMMAR_MAX_STRING)
            if kind == "array":
                node["maxItems"] = min(node.get("maxItems", max_items), GRAMMAR_MAX_ITEMS)
            if kind == "integer" and max_count is not None and "enum" not in node:
                node["enum"] = list(range(max_count + 1))
            return node
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(copy.deepcopy(schema))


class Judge:
    """A backend plus the call cache, validation, retries and counters (see module docstring).

    Thread-safe as far as its parts are: the cache locks, the embedded backend locks around the
    model, the remote backend bounds its requests in flight.
    """

    def __init__(self, backend: JudgeBackend, cache: CallCache | None = None, *,
                 decoding: Decoding | None = None, count: CountFn | None = None) -> None:
        self.backend = backend
        self.cache = cache
        self.decoding = decoding or Decoding()
        self._count: CountFn = count or (lambda _name, _n: None)

    # -- identity ------------------------------------------------------------------------------

    def model(self) -> ModelInfo:
        return self.backend.model_info()

    def signature_fields(self) -> dict[str, Any]:
        """Judge part of a metric signature: model, file hash or revision, quantisation, decoding."""
        return {**self.backend.signature_fields(), "decoding": self.decoding.describe()}

    def close(self) -> None:
        """Release the backend (the cache belongs to whoever made it)."""
        self.backend.close()

    # -- asking --------------------------------------------------------------------------------

    @overload
    def ask(self, prompt: Prompt, values: Mapping[str, object], schema: dict[str, Any], *,
            max_tokens: int, parse: None = None) -> JudgeAnswer[Any]: ...

    @overload
    def ask(self, prompt: Prompt, values: Mapping[str, object], schema: dict[str, Any], *,
            max_tokens: int, parse: Callable[[str], T]) -> JudgeAnswer[T]: ...

    def ask(self, prompt: Prompt, values: Mapping[str, object], schema: dict[str, Any], *,
            max_tokens: int, parse: Callable[[str], T] | None = None) -> JudgeAnswer[Any]:
        """Render ``prompt`` with ``values`` and return the validated answer.

        ``parse`` reads the text (raising ValueError when it cannot); by default the JSON is
        extracted and validated against ``schema``. ``schema`` also constrains decoding when the
        backend can.
        """
        problems = grammar_problems(schema)
        if problems and self.backend.constrains:
            raise JudgeError(f"{prompt.key}: the schema goes beyond llama.cpp's grammar limits: "
                             + "; ".join(problems[:3]), prompt.key, category="grammar")
        rendered = prompt.render(**values)
        messages: list[Message] = [{"role": "user", "content": rendered}]
        read: Callable[[str], Any] = parse or (lambda text: validate(extract_json(text), schema))
        texts: list[str] = []
        notes: list[str] = []
        calls = hits = 0
        cap = self.decoding.max_tokens
        budget = min(max_tokens, cap) if cap else max_tokens
        category = "schema"
        for attempt in range(1, self.decoding.retries + 2):
            completion, cached = self._complete(prompt, messages, schema, budget)
            calls += not cached
            hits += cached
            texts.append(completion.text)
            if completion.finish_reason == "context":  # more tokens would not fit: refuse
                raise JudgeError(
                    f"{prompt.key}: the answer was cut off where the judge's context ends "
                    f"({completion.prompt_tokens} prompt tokens + {completion.completion_tokens} "
                    f"answer tokens); the pair is refused, not truncated (raise --judge-ctx "
                    "or shorten the reports)", prompt.key, texts, category="context")
            if completion.finish_reason == "length" and cap and budget >= cap:
                raise JudgeError(f"{prompt.key}: the answer was cut off at the cap of {cap} "
                                 "tokens (--judge-max-tokens)", prompt.key, texts, category="budget")
            if completion.finish_reason == "length":
                problem = f"the answer was cut off at {budget} tokens"
                category = "length"
                budget = min(budget * 2, cap) if cap else budget * 2  # room to finish
            else:
                try:
                    value = read(completion.text)
                except ValueError as exc:  # AnswerError included
                    problem = str(exc)
                    category = "not a judgement" if isinstance(exc, NotAJudgement) else "schema"
                    messages = [
                        *messages[:1],
                        {"role": "assistant", "content": completion.text},
                        {"role": "user",
                         "content": load_prompt(RETRY_PROMPT_ID).render(problem=problem)},
                    ]
                else:
                    return JudgeAnswer(value=value, text=completion.text, attempts=attempt,
                                       model_calls=calls, cache_hits=hits, notes=notes)
            notes.append(f"attempt {attempt}: {problem}")
        raise JudgeError(f"{prompt.key}: no usable answer after {len(texts)} attempt(s); "
                         f"last problem: {problem}", prompt.key, texts, category=category)

    def _complete(self, prompt: Prompt, messages: list[Message], schema: dict[str, Any],
                  max_tokens: int) -> tuple[Completion, bool]:
        constraint = schema if self.backend.constrains else None
        key = call_key({
            "model": self.backend.identity(), "prompt": prompt.key, "messages": messages,
            "schema": constraint,
            "decoding": {"temperature": self.decoding.temperature, "seed": self.decoding.seed,
                         "max_tokens": max_tokens},
        })
        if self.cache is not None:
            hit = self.cache.get(key)
            if hit is not None:
                self._count("cache_hits", 1)
                return Completion(hit.text, hit.prompt_tokens, hit.completion_tokens,
                                  hit.finish_reason), True
        try:
            completion = self.backend.complete(messages, constraint, max_tokens, self.decoding.seed)
        except TransientJudgeError as exc:  # the message already says what happened
            raise JudgeError(f"{prompt.key}: {exc}", prompt.key, transient=True,
                             category=exc.category) from exc
        except Exception as exc:  # transport, server, model: one clear message
            raise JudgeError(f"{prompt.key}: the judge call failed: {type(exc).__name__}: {exc}",
                             prompt.key, category=failure_category(exc)) from exc
        self._count("model_calls", 1)
        self._count("prompt_tokens", completion.prompt_tokens)
        self._count("completion_tokens", completion.completion_tokens)
        if self.cache is not None:
            self.cache.put(key, CachedCall(completion.text, completion.prompt_tokens,
                                           completion.completion_tokens, completion.finish_reason),
                           model=str(self.backend.identity().get("model")), prompt=prompt.key)
        return completion, False
