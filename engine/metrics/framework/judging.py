"""Judge options (shared by every LLM metric) and the one place that builds a judge from them.

It lives with the metrics, not the runtimes: it reads the metrics' options, and the runtimes
(engine.runtimes) import nothing of the metrics. ``judged`` is how every LLM extractor turns one
pair's judge calls into its extraction or its per-pair failure.

The options become CLI flags (``--judge``, ``--judge-url``, ...) and UI controls through the
metric registry. ``judge_for(ctx)`` returns the run's judge for the current options, built once
per run and shared by every metric that asks for it (so CLEAR, VERT and RadSEM use one loaded
model and one lock).
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from radscope.engine.context import Option, RuntimeContext
from radscope.engine.metrics.framework.extraction import Extracted, JudgeUnavailable
from radscope.engine.runtimes.callcache import CallCache, default_cache_path
from radscope.engine.runtimes.judge import CallTrace, Decoding, Judge, JudgeBackend, JudgeError
from radscope.engine.runtimes.llamacpp import CHAT_FORMATS, LlamaSettings
from radscope.engine.runtimes.openai_compat import DIALECTS

T = TypeVar("T")

DEFAULT_JUDGE = "gemma3-270m-demo"

JUDGE = Option("judge", DEFAULT_JUDGE,
               "LLM judge: a registry id, a Hugging Face reference org/repo:file.gguf[@revision], "
               "or a path to a GGUF file")
JUDGE_URL = Option("judge_url", "",
                   "base URL of an OpenAI-compatible judge server, e.g. http://127.0.0.1:8000/v1 "
                   "(replaces the embedded judge); several, comma-separated, serving the same "
                   "model share the calls")
JUDGE_MODEL = Option("judge_model", "", "model name to request from the judge server")
JUDGE_API_KEY = Option("judge_api_key", "",
                       "API key for the judge server (empty: $OPENAI_API_KEY, or none)")
JSON_DIALECT = Option("json_dialect", "json_schema",
                      "how the judge server is asked for schema-shaped JSON: json_schema (OpenAI, "
                      "vLLM, llama-server), json_object (llama-cpp-python's server) or none",
                      choices=DIALECTS)
JUDGE_CTX = Option("judge_ctx", 0, "context length of the embedded judge (0: the registry's, "
                   "else 4096)", type=int)
JUDGE_GPU_LAYERS = Option("judge_gpu_layers", -1,
                          "layers of the embedded judge on the GPU (-1: all, when llama.cpp was "
                          "built with GPU support)", type=int)
JUDGE_THREADS = Option("judge_threads", 0, "CPU threads of the embedded judge (0: all cores)",
                       type=int)
JUDGE_CHAT_FORMAT = Option("judge_chat_format", "auto",
                           "chat template of the embedded judge (auto: registry, then the GGUF's "
                           "own, then gemma for Gemma models)", choices=CHAT_FORMATS)
MAX_INFLIGHT = Option("max_inflight", 4, "requests in flight to the judge server at most",
                      type=int)
JUDGE_TIMEOUT = Option("judge_timeout", 300.0,
                       "seconds one judge call may take: a server request times out, an embedded "
                       "judge worker that has not answered is stopped and restarted", type=float)
JUDGE_RETRIES = Option("judge_retries", 2,
                       "extra attempts after an unusable judge answer (and after a failed "
                       "server request)", type=int)
JUDGE_SEED = Option("judge_seed", 0, "seed passed with every judge call", type=int)
JUDGE_MAX_TOKENS = Option("judge_max_tokens", 0,
                          "cap on every judge answer's tokens (0: each question's own budget, "
                          "sized for an answer of the expected length); an answer cut off at the "
                          "cap is that pair's 'budget' failure", type=int)

JUDGE_OPTIONS: tuple[Option, ...] = (
    JUDGE, JUDGE_URL, JUDGE_MODEL, JUDGE_API_KEY, JSON_DIALECT, JUDGE_CTX, JUDGE_GPU_LAYERS,
    JUDGE_THREADS, JUDGE_CHAT_FORMAT, MAX_INFLIGHT, JUDGE_TIMEOUT, JUDGE_RETRIES, JUDGE_SEED,
    JUDGE_MAX_TOKENS)


@dataclass(frozen=True)
class JudgeConfig:
    """The judge options of one run, read once from the context."""

    judge: str = DEFAULT_JUDGE
    url: str = ""
    model: str = ""
    api_key: str = ""
    dialect: str = "json_schema"
    n_ctx: int = 0
    gpu_layers: int = -1
    threads: int = 0
    chat_format: str = "auto"
    max_inflight: int = 4
    timeout_s: float = 300.0
    retries: int = 2
    seed: int = 0
    max_tokens: int = 0

    @classmethod
    def from_ctx(cls, ctx: RuntimeContext) -> JudgeConfig:
        def opt(o: Option) -> Any:
            value = ctx.options.get(o.name)
            return o.default if value is None else value

        return cls(judge=str(opt(JUDGE)), url=str(opt(JUDGE_URL)), model=str(opt(JUDGE_MODEL)),
                   api_key=str(opt(JUDGE_API_KEY)), dialect=str(opt(JSON_DIALECT)),
                   n_ctx=int(opt(JUDGE_CTX)), gpu_layers=int(opt(JUDGE_GPU_LAYERS)),
                   threads=int(opt(JUDGE_THREADS)), chat_format=str(opt(JUDGE_CHAT_FORMAT)),
                   max_inflight=int(opt(MAX_INFLIGHT)), timeout_s=float(opt(JUDGE_TIMEOUT)),
                   retries=int(opt(JUDGE_RETRIES)), seed=int(opt(JUDGE_SEED)),
                   max_tokens=int(opt(JUDGE_MAX_TOKENS)))

    def resource_key(self) -> tuple[Any, ...]:
        """What makes two judges different objects (the API key is left out of the key)."""
        values = asdict(self)
        values.pop("api_key")
        return ("judge", *sorted(values.items()))


def call_cache(ctx: RuntimeContext) -> CallCache:
    """The run's call cache under ``$RADSCOPE_HOME`` (one connection shared by all judges)."""
    path = default_cache_path()
    return ctx.resource(("llm-call-cache", str(path)), lambda: CallCache(path))


def judge_for(ctx: RuntimeContext) -> Judge:
    """The run's judge for the current options, built on first use and shared afterwards."""
    from radscope.models.resolve import ModelNotAvailable

    config = JudgeConfig.from_ctx(ctx)
    cache = call_cache(ctx)

    def build() -> Judge:
        try:
            backend = build_backend(config, cache)
        except ModelNotAvailable as exc:
            raise JudgeUnavailable(str(exc)) from None
        return Judge(backend, cache, decoding=Decoding(seed=config.seed, retries=config.retries,
                                                       max_tokens=config.max_tokens),
                     count=ctx.count)

    return ctx.resource(config.resource_key(), build)


def build_backend(config: JudgeConfig, cache: CallCache) -> JudgeBackend:
    """A remote backend when a server URL is given, otherwise the embedded GGUF judge."""
    from radscope.models import model_registry
    if config.url:
        from radscope.engine.runtimes.openai_compat import OpenAICompatBackend

        entry = model_registry.load_registry().get(config.model)
        servers = [OpenAICompatBackend(
            url, config.model, api_key=config.api_key or os.environ.get("OPENAI_API_KEY"),
            dialect=config.dialect, max_inflight=config.max_inflight, timeout_s=config.timeout_s,
            max_retries=config.retries, demo_grade=bool(entry and entry.demo_grade))
            for url in (u.strip() for u in config.url.split(",")) if url]
        if len(servers) == 1:
            return servers[0]
        from radscope.engine.runtimes.server_pool import ServerPool

        return ServerPool(servers)
    return build_llama_backend(config, cache)


def build_llama_backend(config: JudgeConfig, cache: CallCache) -> JudgeBackend:
    """The GGUF judge in its supervised worker process (``radscope.engine.runtimes.judge_worker``); a
    model that cannot load or fails its one-generation self-check is ``JudgeUnavailable``."""
    from radscope.engine.runtimes.judge_worker import IsolatedLlamaBackend, JudgeStartError, WorkerLoad
    from radscope.models.resolve import resolve

    resolved = resolve(config.judge, task="judge")
    if resolved.path.is_dir() or resolved.path.suffix.lower() != ".gguf":
        raise ValueError(f"judge {config.judge!r} resolves to {resolved.path}, which is not a "
                         "GGUF file; name a .gguf file (org/repo:file.gguf for Hugging Face)")
    entry = resolved.entry
    sha256 = (entry.sha256 if entry and entry.sha256 else None) or cache.file_sha256(resolved.path)
    model_id = resolved.id if entry else Path(resolved.name).name
    load = WorkerLoad(
        str(resolved.path), model_id=model_id, sha256=sha256, revision=resolved.revision,
        source=resolved.source, demo_grade=resolved.demo_grade,
        registry_chat_format=entry.chat_format if entry else None,
        registry_n_ctx=entry.n_ctx if entry else None,
        settings=asdict(LlamaSettings(n_ctx=config.n_ctx, n_gpu_layers=config.gpu_layers,
                                      n_threads=config.threads, chat_format=config.chat_format)))
    try:
        return IsolatedLlamaBackend(load, call_timeout_s=config.timeout_s)
    except JudgeStartError as exc:
        raise JudgeUnavailable(str(exc)) from None


def judged(read: Callable[[], tuple[T, list[CallTrace]]]) -> Extracted[T]:
    """One pair read by the judge: the extraction with the trace of its calls, or, when the
    judge gave no usable answer, the pair's failure with the raw answers kept."""
    try:
        value, trace = read()
    except JudgeError as exc:
        return Extracted.failed(f"judge: {exc} [{exc.category}: {exc.cause}]",
                                {"judge_error": exc.to_json()})
    return Extracted(value, {"judge_calls": [t.to_json() for t in trace]})
