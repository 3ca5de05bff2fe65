"""Embedded judge backend: llama-cpp-python on a GGUF file.

Three things here are not what ``Llama.create_chat_completion`` would do by itself:

- **Chat template.** The prompt is rendered here (GGUF's own Jinja template when it has one, a
  named built-in otherwise), because the demo model (Gemma 3 270M *base*) ships without a
  template and llama-cpp-python would silently fall back to a Llama-2 format; its Gemma
  formatter also drops system messages. Every prompt is a user turn, so all templates work.
- **Fast constrained decoding.** llama.cpp's grammar sampler checks every vocabulary entry at
  every step (262k entries for Gemma 3). Greedy decoding only needs the best token that the
  grammar allows, so the backend first tests the unconstrained best token against the grammar
  and runs the full grammar pass only when it is rejected. The result is the same token
  (greedy under the grammar) at a fraction of the cost; a test checks equality with
  llama-cpp-python's own grammar path.
- **One model, one lock.** A ``Llama`` object is not safe to call from several threads (the
  process crashes), so every call holds the backend's lock. Consecutive calls that share a
  prompt prefix (the same report) reuse llama.cpp's KV cache for that prefix.
- **Report text is data.** Only the chat template's own markers are tokenized with special
  tokens enabled; message contents (the reports) are tokenized as plain text, so a report that
  contains ``<end_of_turn>`` or ``<|im_start|>`` cannot open or close a turn.
- **No AMX weight repacking.** Models are loaded through ``radscope.models.llama_load``, which turns
  llama.cpp's weight repacking off where its AMX kernels would fault (Q4_K on Sapphire Rapids).

This class runs inside the supervised judge worker (``radscope.engine.runtimes.judge_worker``), never in
the app's or the CLI's process: a native fault there costs one call, not the server.
"""
from __future__ import annotations

import ctypes
import json
import logging
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from radscope.engine.context import ModelInfo
from radscope.engine.runtimes.judge import Completion, ContextExceeded, GrammarRejected, Message
from radscope.models.llama_load import load_llama, weight_repacking_allowed

log = logging.getLogger(__name__)

CHAT_FORMATS = ("auto", "gemma", "chatml", "llama3", "gguf")


# --------------------------------------------------------------------------- chat templates


@dataclass(frozen=True)
class RenderedChat:
    prompt: str
    stop: tuple[str, ...]
    add_bos: bool  # let the tokenizer add BOS (False when the template wrote it)


# Stands in for each message's content while a template is rendered, so that the rendered
# prompt can be cut into the template's own text (control tokens allowed) and the contents
# (tokenized as plain text). Private-use characters: no template or report writes them.
_SLOT = "\ue000{}\ue001"
_SLOT_SPLIT = re.compile("\ue000(\\d+)\ue001")


def with_slots(messages: Sequence[Message]) -> list[Message]:
    """``messages`` with every content replaced by a numbered slot marker."""
    return [{**m, "content": _SLOT.format(i)} for i, m in enumerate(messages)]


def split_slots(prompt: str, messages: Sequence[Message]) -> list[tuple[str, bool]]:
    """Cut a prompt rendered ``with_slots`` into ``(text, is_data)`` parts in order: the
    template's text (``is_data=False``) and each message's content (``is_data=True``)."""
    parts: list[tuple[str, bool]] = []
    pieces = _SLOT_SPLIT.split(prompt)
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            if piece:
                parts.append((piece, False))
        else:
            parts.append((messages[int(piece)]["content"], True))
    return parts


def _turns(messages: Sequence[Message], open_turn: str, close_turn: str,
           roles: dict[str, str]) -> str:
    parts = [open_turn.format(role=roles[m["role"]]) + m["content"] + close_turn for m in messages]
    return "".join(parts) + open_turn.format(role=roles["assistant"])


def render_builtin(name: str, messages: Sequence[Message]) -> RenderedChat:
    """The prompt for a named built-in template (user/assistant turns only)."""
    for m in messages:
        if m["role"] not in ("user", "assistant"):
            raise ValueError(f"chat template {name!r} takes user and assistant turns, not {m['role']!r}")
    if name == "gemma":
        text = _turns(messages, "<start_of_turn>{role}\n", "<end_of_turn>\n",
                      {"user": "user", "assistant": "model"})
        return RenderedChat(text, ("<end_of_turn>",), True)
    if name == "chatml":
        text = _turns(messages, "<|im_start|>{role}\n", "<|im_end|>\n",
                      {"user": "user", "assistant": "assistant"})
        return RenderedChat(text, ("<|im_end|>",), True)
    if name == "llama3":
        text = _turns(messages, "<|start_header_id|>{role}<|end_header_id|>\n\n", "<|eot_id|>",
                      {"user": "user", "assistant": "assistant"})
        return RenderedChat(text, ("<|eot_id|>",), True)
    raise ValueError(f"unknown chat template {name!r}; choose from {', '.join(CHAT_FORMATS[1:])}")


def choose_chat_format(requested: str, registry_format: str | None, metadata: dict[str, str]) -> str:
    """Which template to use: an explicit choice, the registry's, the GGUF's own, then Gemma by
    architecture; otherwise a clear error (guessing a format gives fluent nonsense)."""
    if requested and requested != "auto":
        if requested not in CHAT_FORMATS:
            raise ValueError(f"unknown chat format {requested!r}; choose from {', '.join(CHAT_FORMATS)}")
        if requested == "gguf" and not metadata.get("tokenizer.chat_template"):
            raise ValueError("chat format 'gguf' asked for, but the GGUF has no chat template")
        return requested
    if registry_format:
        return registry_format
    if metadata.get("tokenizer.chat_template"):
        return "gguf"
    if metadata.get("general.architecture", "").startswith("gemma"):
        return "gemma"
    raise ValueError("the GGUF has no chat template; name one with --judge-chat-format "
                     "(gemma, chatml or llama3)")


# --------------------------------------------------------------------------- grammar


# llama-cpp-python's converter lets raw control characters (a newline, say) into JSON strings,
# which makes the answer invalid JSON; llama.cpp's own converter excludes them. Same fix here.
_LOOSE_CHAR = r'[^"\\]'
_STRICT_CHAR = r'[^"\\\x7F\x00-\x1F]'


@lru_cache(maxsize=64)
def _grammar_text(schema_json: str) -> tuple[str, str, bool]:
    """(GBNF, root rule, converted?) for a schema; generic JSON when conversion fails."""
    from llama_cpp.llama_grammar import JSON_GBNF, LlamaGrammar

    try:
        grammar = LlamaGrammar.from_json_schema(schema_json, verbose=False)
        return grammar._grammar.replace(_LOOSE_CHAR, _STRICT_CHAR), grammar._root, True
    except Exception as exc:  # noqa: BLE001 - the converter raises assorted errors
        log.warning("llama.cpp cannot turn this JSON schema into a grammar (%s); decoding is "
                    "limited to generic JSON and answers are checked against the schema", exc)
        return JSON_GBNF, "root", False


def check_grammar(vocab: Any, schema: dict[str, Any]) -> None:
    """Raise GrammarRejected unless llama.cpp converts ``schema`` to a grammar and builds a
    grammar sampler from it on ``vocab`` (a ``llama_vocab`` pointer): the same two steps as a
    constrained call, without a call."""
    import llama_cpp

    grammar, root, converted = _grammar_text(json.dumps(schema, sort_keys=True))
    if not converted:
        raise GrammarRejected("llama-cpp-python cannot convert the JSON schema to a grammar")
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar.encode("utf-8"),
                                                   root.encode("utf-8"))
    if not sampler:
        raise GrammarRejected("llama.cpp rejected the grammar built from the JSON schema")
    llama_cpp.llama_sampler_free(sampler)


class GreedyGrammar:
    """Greedy decoding under a grammar, testing the unconstrained best token first.

    Used as a llama-cpp-python logits processor: it keeps its own grammar sampler in step with
    the tokens generated so far, and returns logits in which only the chosen token is finite.
    (It runs inside a ctypes callback, where exceptions are lost; if the grammar allows nothing
    it leaves the logits alone and the answer's validation reports the damage.)
    """

    def __init__(self, llama: Any, grammar: str, root: str, n_prompt: int,
                 full: Any, full_view: np.ndarray) -> None:
        import llama_cpp

        self._lc = llama_cpp
        self._sampler = llama_cpp.llama_sampler_init_grammar(
            llama._model.vocab, grammar.encode("utf-8"), root.encode("utf-8"))
        if not self._sampler:
            raise GrammarRejected("llama.cpp rejected the grammar built from the JSON schema")
        self._seen = n_prompt
        self._one = (llama_cpp.llama_token_data * 1)()
        self._full, self._full_view = full, full_view
        self.full_passes = 0

    def _apply(self, data: Any, size: int) -> None:
        array = self._lc.llama_token_data_array(data=data, size=size, selected=-1, sorted=False)
        self._lc.llama_sampler_apply(self._sampler, ctypes.byref(array))

    def __call__(self, input_ids: np.ndarray, scores: np.ndarray) -> np.ndarray:
        while self._seen < len(input_ids):  # tokens chosen since the last step
            self._lc.llama_sampler_accept(self._sampler, int(input_ids[self._seen]))
            self._seen += 1
        best = int(np.argmax(scores))
        # ctypes converts Python numbers on assignment; llama_cpp types the fields as c_int32/c_float
        self._one[0].id, self._one[0].logit, self._one[0].p = (
            best, float(scores[best]), 0.0)  # type: ignore[assignment]
        self._apply(self._one, 1)
        out = np.full_like(scores, -np.inf)
        if np.isfinite(self._one[0].logit):
            out[best] = scores[best]
            return out
        self.full_passes += 1
        self._full_view["logit"] = scores
        self._apply(self._full, len(scores))
        allowed = self._full_view["logit"]
        if not np.isfinite(allowed).any():
            return scores
        choice = int(np.argmax(allowed))
        out[choice] = scores[choice]
        return out

    def close(self) -> None:
        if self._sampler:
            self._lc.llama_sampler_free(self._sampler)
            self._sampler = None


# --------------------------------------------------------------------------- backend


@dataclass(frozen=True)
class LlamaSettings:
    n_ctx: int = 0  # 0: the registry's value, else 4096 (never beyond the model's training)
    n_gpu_layers: int = -1  # -1: all layers when the build can offload, 0 otherwise
    n_threads: int = 0  # 0: all cores of the machine
    chat_format: str = "auto"


def default_threads() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class LlamaCppBackend:
    """A GGUF judge in the current process (the judge worker's) (see module docstring)."""

    kind = "llama.cpp"
    constrains = True

    def __init__(self, path: Path, *, model_id: str, sha256: str, revision: str | None = None,
                 source: str = "local", demo_grade: bool = False,
                 registry_chat_format: str | None = None, registry_n_ctx: int | None = None,
                 settings: LlamaSettings = LlamaSettings()) -> None:
        import llama_cpp

        self.path = Path(path)
        self.model_id = model_id
        self.sha256 = sha256
        self.revision = revision
        self.source = source
        self.demo_grade = demo_grade
        self._lock = threading.Lock()
        gpu = llama_cpp.llama_supports_gpu_offload()
        layers = settings.n_gpu_layers if gpu else 0
        threads = settings.n_threads or default_threads()
        self.settings = settings
        self.repack = weight_repacking_allowed()
        self._llama = load_llama(self.path, n_ctx=settings.n_ctx or registry_n_ctx or 4096,
                                 layers=layers, threads=threads, repack=self.repack)
        train_ctx = self._llama._model.n_ctx_train()
        if self._llama.n_ctx() > train_ctx > 0:  # more context than the model was trained for
            self._llama.close()
            self._llama = load_llama(self.path, n_ctx=train_ctx, layers=layers, threads=threads,
                                     repack=self.repack)
        metadata = dict(self._llama.metadata)
        self.chat_format = choose_chat_format(settings.chat_format, registry_chat_format, metadata)
        self._jinja = None
        if self.chat_format == "gguf":
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            vocab = self._llama._model
            self._jinja = Jinja2ChatFormatter(
                metadata["tokenizer.chat_template"],
                eos_token=vocab.token_get_text(self._llama.token_eos()),
                bos_token=vocab.token_get_text(self._llama.token_bos()))
        buf = ctypes.create_string_buffer(256)
        llama_cpp.llama_model_desc(self._llama._model.model, buf, len(buf))
        self.description = buf.value.decode("utf-8", "replace")
        self.device = "gpu" if layers else "cpu"
        self.gpu_layers = layers
        self.threads = threads
        n_vocab = self._llama.n_vocab()
        self._full = (llama_cpp.llama_token_data * n_vocab)()
        self._full_view = np.frombuffer(self._full, dtype=np.dtype(
            [("id", np.intc), ("logit", np.single), ("p", np.single)], align=True))
        self._full_view["id"] = np.arange(n_vocab, dtype=np.intc)
        self.last_full_passes = 0

    # -- identity ------------------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        return {"backend": self.kind, "model": self.model_id, "sha256": self.sha256,
                "revision": self.revision, "chat_format": self.chat_format,
                "content_tokens": "plain"}

    def signature_fields(self) -> dict[str, Any]:
        return {"judge": self.model_id,
                "judge_hash": (self.sha256 or "")[:12] or (self.revision or "none"),
                "quant": self.description, "backend": self.kind, "chat": self.chat_format}

    def model_info(self) -> ModelInfo:
        import llama_cpp

        return ModelInfo(
            id=self.model_id, source=f"{self.source}: {self.path}", demo_grade=self.demo_grade,
            device=self.device,
            detail={"backend": self.kind, "sha256": self.sha256, "revision": self.revision,
                    "quantisation": self.description, "n_ctx": self._llama.n_ctx(),
                    "threads": self.threads, "gpu_layers": self.gpu_layers,
                    "chat_format": self.chat_format, "weight_repacking": self.repack,
                    "llama_cpp_python": llama_cpp.__version__})

    # -- calls ---------------------------------------------------------------------------------

    def render(self, messages: Sequence[Message]) -> RenderedChat:
        if self._jinja is not None:
            # role/content dicts, which llama_cpp types as one TypedDict per role
            out = self._jinja(messages=list(messages))  # type: ignore[arg-type]
            stop = out.stop if isinstance(out.stop, list) else [out.stop] if out.stop else []
            return RenderedChat(out.prompt, tuple(s for s in stop if s), not out.added_special)
        return render_builtin(self.chat_format, messages)

    def prompt_tokens(self, messages: Sequence[Message]) -> tuple[list[int], RenderedChat]:
        """The prompt's tokens: the template's markers as control tokens, every message's
        content as plain text (see module docstring), and the rendered chat."""
        chat = self.render(with_slots(messages))
        llama = self._llama
        tokens: list[int] = []
        for i, (text, is_data) in enumerate(split_slots(chat.prompt, messages)):
            tokens += llama.tokenize(text.encode("utf-8"), add_bos=chat.add_bos and i == 0,
                                     special=not is_data)
        return tokens, chat

    def complete(self, messages: Sequence[Message], schema: dict[str, Any] | None,
                 max_tokens: int, seed: int) -> Completion:
        """Greedy completion under the schema's grammar (see module docstring).

        Tokens come straight from ``Llama.generate`` (which reuses the KV cache for the prefix
        shared with the previous call) and are decoded once at the end: ``create_completion``
        decodes the whole answer again after every token, which is quadratic in its length.
        """
        import llama_cpp

        with self._lock:
            llama = self._llama
            tokens, chat = self.prompt_tokens(messages)
            room = llama.n_ctx() - len(tokens)
            if room <= 0:
                raise ContextExceeded(
                    f"the prompt has {len(tokens)} tokens; the judge's context holds "
                    f"{llama.n_ctx()}: the pair is refused, not truncated (raise --judge-ctx or "
                    "shorten the reports)")
            budget = min(max_tokens, room)
            processor = None
            if schema is not None:
                grammar, root, _converted = _grammar_text(json.dumps(schema, sort_keys=True))
                processor = GreedyGrammar(llama, grammar, root, len(tokens), self._full,
                                          self._full_view)
            llama.set_seed(seed)
            vocab = llama._model.vocab
            completion: list[int] = []
            tail = b""
            finish = "length"
            try:
                for token in llama.generate(
                        tokens, top_k=1, top_p=1.0, min_p=0.0, temp=0.0, repeat_penalty=1.0,
                        logits_processor=(llama_cpp.LogitsProcessorList([processor])
                                          if processor else None)):
                    if llama_cpp.llama_vocab_is_eog(vocab, token):
                        finish = "stop"
                        break
                    completion.append(token)
                    if chat.stop:
                        tail = (tail + llama.detokenize([token]))[-64:]
                        if any(s.encode("utf-8") in tail for s in chat.stop):
                            finish = "stop"
                            break
                    if len(completion) >= budget:
                        # cut off by the context rather than by the budget asked for
                        finish = "context" if budget < max_tokens else "length"
                        break
            finally:
                if processor is not None:
                    self.last_full_passes = processor.full_passes
                    processor.close()
            text = llama.detokenize(completion, prev_tokens=tokens).decode("utf-8", "replace")
        for stop in chat.stop:
            text = text.split(stop, 1)[0]
        return Completion(text=text, prompt_tokens=len(tokens), completion_tokens=len(completion),
                          finish_reason=finish)

    def close(self) -> None:
        with self._lock:
            if self._llama is not None:
                self._llama.close()
                self._llama = None
