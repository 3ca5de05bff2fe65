"""Local and public mode: who may set what, which values are secret, and whose runs are whose.

*Local* (the default: bound to a loopback address, one user) keeps every option open. *Public*
(bound to any other address, ``SPACE_ID`` set as on Hugging Face Spaces, or ``--public``)
treats every visitor as a stranger: a visitor may only pick among fixed choices (the extractor,
a VERT variant, on/off switches); the judge, its server, keys, model ids and files, few-shot
files and every number that sizes a model (context, threads, batch, timeouts) are the
operator's, set in the config file or the environment. A free-text or numeric option could name
a server to call (request forgery), a file to read or a model context to allocate.
"""
from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator, Mapping
from typing import Any

from radscope.engine.context import Option
from radscope.engine.eligibility.readable import is_cannot_read
from radscope.engine.hosts import is_loopback
from radscope.engine.metrics.framework.registry import MetricRegistry

log = logging.getLogger(__name__)

SECRET_WORDS = ("key", "token", "secret", "password")
MASK = "•••"
NOT_SETTABLE = ("This server is public: the judge, its server and API key, model files and ids, "
                "few-shot files, file paths and model sizes are set by the operator (config file "
                "or environment), not per request.")


class OperatorSetting(ValueError):
    """A visitor tried to set an option that only the operator may set (public mode)."""


def public_reason(host: str, public_flag: bool = False,
                  env: Mapping[str, str] | None = None) -> str | None:
    """Why the app runs in public mode (None: local): the flag, a Space, or a non-loopback bind."""
    env = os.environ if env is None else env
    if public_flag:
        return "--public was given"
    if env.get("SPACE_ID", "").strip():
        return "SPACE_ID is set (Hugging Face Space)"
    if not is_loopback(host):
        return f"bound to {host}, which other machines can reach"
    return None


def is_secret(name: str) -> bool:
    """Whether an option holds a secret: one of its words (``judge_api_key``: key) is a secret
    word. Whole words, not substrings: ``judge_max_tokens`` is a number of tokens, not a token."""
    return any(word in SECRET_WORDS for word in name.lower().split("_"))


def visitor_may_set(opt: Option) -> bool:
    """In public mode: only options with a fixed set of values (choices, or on/off)."""
    return opt.type is bool or bool(opt.choices)


def visitor_options(registry: MetricRegistry) -> list[str]:
    return [name for name, opt in registry.all_options().items() if visitor_may_set(opt)]


def refuse_operator_options(registry: MetricRegistry, options: Mapping[str, Any] | None) -> None:
    """Raise OperatorSetting naming every option in ``options`` a visitor may not set."""
    known = registry.all_options()
    refused = [name for name in (options or {}) if name in known and not visitor_may_set(known[name])]
    if refused:
        raise OperatorSetting(f"{NOT_SETTABLE} Refused: {', '.join(refused)}. Options a visitor "
                              f"may set: {', '.join(visitor_options(registry))}.")


def masked(options: Mapping[str, Any]) -> dict[str, Any]:
    """A copy safe to show: secret values replaced by a mask."""
    return {k: (MASK if is_secret(k) and v else v) for k, v in options.items()}


def secret_values(options: Mapping[str, Any], env: Mapping[str, str] | None = None) -> list[str]:
    """Every secret a request may have touched: its secret options and $OPENAI_API_KEY."""
    env = os.environ if env is None else env
    found = [str(v) for k, v in options.items() if is_secret(k) and v]
    found.append(env.get("OPENAI_API_KEY", ""))
    return [s for s in found if len(s.strip()) >= 4]


def redact(value: Any, secrets: list[str]) -> Any:
    """``value`` with every secret replaced by the mask, in every string it holds (a judge
    server's error text may quote the header it was sent)."""
    if not secrets:
        return value
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, MASK)
        return value
    if isinstance(value, Mapping):
        return {k: redact(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(redact(v, secrets) for v in value)
    return value


def owner_of(session_hash: str | None) -> str | None:
    """The key a visitor's runs are stored under: a hash of the browser session (so the store
    never holds the session token itself); None when the request carries no session."""
    if not session_hash:
        return None
    return hashlib.sha256(f"radscope-owner\x1f{session_hash}".encode()).hexdigest()[:32]


def visitor_run_id(run_id: str, owner: str) -> str:
    """Public mode: where a run id a visitor typed is stored, in that visitor's own namespace
    (``v<16 hex of the owner>.<id>``). An id then tells a visitor nothing about other visitors'
    or command-line runs (no probing), and no visitor can take an id ahead of another (no
    squatting). An id already in the visitor's namespace (picked from their own runs) stays."""
    prefix = f"v{owner[:16]}."
    return run_id if run_id.startswith(prefix) else prefix + run_id


# Public mode: how much text one request may carry. Reports have the app's own limit
# (``max_chars``); every other string a visitor sends (modality, area, ids, column names, option
# values, file names, anything nested in a JSON argument) has FIELD_CAP; all the strings of
# one request together have REQUEST_CAP. A longer request is refused before anything runs.
FIELD_CAP = 1_000
REQUEST_CAP = 200_000
REPORT_FIELDS = ("reference", "candidate")  # element ids of the report boxes, API parameter names


MAX_NESTING = 32  # lists and objects inside one another in one value; real options nest 1-2 deep


class TooDeep(ValueError):
    """A request value nested deeper than MAX_NESTING."""


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a request value, however it nests lists and objects (keys too), walked
    without recursion; TooDeep past MAX_NESTING levels (a value nested 900 deep used to make
    this check itself fail)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, (Mapping, list, tuple)):
            if depth >= MAX_NESTING:
                raise TooDeep(depth)
            children = [c for kv in item.items() for c in kv] if isinstance(item, Mapping) else item
            stack.extend((child, depth + 1) for child in reversed(children))


def oversize(values: list[Any], fields: list[tuple[str, bool]], max_chars: int) -> str | None:
    """Why a public request carries too much text (None when it does not): ``fields`` names
    each value and says whether it is a report. Values beyond ``fields`` count as non-reports."""
    total = 0
    for i, value in enumerate(values):
        name, is_report = fields[i] if i < len(fields) else (f"input {i + 1}", False)
        cap = max_chars if is_report else FIELD_CAP
        try:
            for text in strings_in(value):
                total += len(text)
                if len(text) > cap:
                    return (f"This server is public: the field “{name}” holds {len(text):,} characters; "
                            f"at most {cap:,} are accepted. Nothing was run or stored.")
        except TooDeep:
            return (f"This server is public: the field “{name}” nests lists or objects more than "
                    f"{MAX_NESTING} levels deep; at most {MAX_NESTING} are accepted. Nothing was run "
                    "or stored.")
    if total > REQUEST_CAP:
        return (f"This server is public: this request carries {total:,} characters of text; at "
                f"most {REQUEST_CAP:,} are accepted. Nothing was run or stored.")
    return None


# What a public visitor learns of a failure: its category, never its text. A judge server's
# error body, a model path or a stack detail is the operator's business (it stays in the log).
# Shown as they are: failures about the visitor's own text (input problems, text the reader
# cannot read, a judge answer that failed validation, which quotes the answer only).
VISITOR_SAFE_PREFIXES = ("input: ",)
VISITOR_SAFE_WORDS = ("no usable answer after",)
FAILURE_CATEGORIES = (
    ("judge", "the judge gave no usable answer for this pair (server or model failure); the "
              "operator's log has the details"),
    ("could not load", "this metric's model could not be loaded on this server; the operator's "
                       "log has the details"),
)
INTERNAL_FAILURE = "this metric failed on this pair; the operator's log has the details"
HIDDEN_DETAILS = ("judge_error", "judge_calls")


def failure_category(message: str) -> str:
    """The generic words a public visitor sees for a failure whose text is the operator's."""
    lower = message.lower()
    return next((text for word, text in FAILURE_CATEGORIES if word in lower), INTERNAL_FAILURE)


def for_visitor(value: Any, public: bool) -> Any:
    """``value`` (a metric result, a dict of them, rows of them) as a public visitor may see it:
    each failure's text replaced by its category and the judge's raw error payload dropped,
    unless the failure is about the visitor's own input (``cannot read``, ``input:``). The
    full text goes to the log. Locally everything is shown."""
    if not public:
        return value
    if isinstance(value, Mapping):
        if "score" in value:  # a metric result: its details are the metric's, left as they are
            error = value.get("error")
            if not (isinstance(error, str) and error) or _visitor_may_read(error):
                return value
            log.warning("failure shown to a public visitor as its category: %s", error)
            kept = {k: v for k, v in value.items() if k not in HIDDEN_DETAILS}
            return {**kept, "error": failure_category(error)}
        return {k: for_visitor(v, public) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(for_visitor(v, public) for v in value)
    return value


def _visitor_may_read(error: str) -> bool:
    return (is_cannot_read(error) or error.startswith(VISITOR_SAFE_PREFIXES)
            or any(word in error for word in VISITOR_SAFE_WORDS))


def visitor_message(message: str, public: bool) -> str:
    """A run-level failure message for the page: the category in public mode (text logged)."""
    if not public:
        return message
    log.warning("failure shown to a public visitor as its category: %s", message)
    return failure_category(message)
