"""Find the JSON answer in a judge's text, and check it against a JSON Schema.

Constrained decoding returns bare JSON, but servers without it (or models that ignore it) wrap
the object in Markdown fences, put prose around it, or stop early. ``extract_json`` accepts the
first of: the whole text, a fenced block, or the first decodable object embedded in prose. The
result is then always validated with ``jsonschema``: llama.cpp silently falls back to generic
JSON when it cannot turn a schema into a grammar, so "it parsed" never means "it fits".
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator

_FENCE_RE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.S)
# strict=False: accept raw control characters (a newline) inside strings, which some
# grammars and servers let through; the content is still checked against the schema.
_DECODER = json.JSONDecoder(strict=False)


class AnswerError(ValueError):
    """The judge's text holds no usable answer; the message says why (it is shown per pair)."""


class NotAJudgement(AnswerError):
    """The answer fits the schema but is no judgement of the reports (copied from one of them):
    model quality, counted apart from answers that do not fit the schema."""


def extract_json(text: str) -> Any:
    """The JSON value in ``text`` (object or array), or AnswerError.

    Order: the stripped text itself, then each fenced block, then the first ``{`` or ``[`` from
    which a complete JSON value decodes (prose before and after is ignored). Raw control
    characters inside strings are accepted.
    """
    stripped = text.strip()
    if not stripped:
        raise AnswerError("the judge returned an empty answer")
    candidates = [stripped] + [m.group(1).strip() for m in _FENCE_RE.finditer(text)]
    for candidate in candidates:
        if candidate[:1] in "{[":
            try:
                return _DECODER.decode(candidate)
            except json.JSONDecodeError:
                continue
    for match in re.finditer(r"[{\[]", text):
        try:
            value, _ = _DECODER.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, (dict, list)):
            return value
    if stripped[:1] in "{[":
        raise AnswerError(f"the answer is not complete JSON (cut off?): {_preview(stripped)}")
    raise AnswerError(f"no JSON object in the answer: {_preview(stripped)}")


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def schema_problems(value: Any, schema: dict[str, Any], limit: int = 3) -> list[str]:
    """Up to ``limit`` readable schema violations (empty when ``value`` fits)."""
    validator = _validator(json.dumps(schema, sort_keys=True))
    errors = sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    out = []
    for error in errors[:limit]:
        where = "/".join(str(p) for p in error.absolute_path) or "<answer>"
        out.append(f"{where}: {error.message[:200]}")
    return out


def validate(value: Any, schema: dict[str, Any]) -> Any:
    """``value`` when it fits ``schema``; AnswerError naming the first violations otherwise."""
    problems = schema_problems(value, schema)
    if problems:
        raise AnswerError("the answer does not fit the required JSON schema: " + "; ".join(problems))
    return value


def _preview(text: str, n: int = 160) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= n else flat[:n] + "...")
