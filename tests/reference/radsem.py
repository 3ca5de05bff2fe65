"""RadSEM tags from a model's answer, strict or lenient as the reference pipeline reads them: the
tests' reference for what the engine's gate (``radscope.engine.metrics.radsem.schema.tag_problems``,
used by the LLM extractor) accepts, and for how the scorer treats what a lenient reading keeps."""
from __future__ import annotations

import json
import re
from typing import Any, cast

from radscope.engine.metrics.radsem.schema import (
    RadsemPair,
    RadsemTags,
    UnmatchedSentence,
    tag_problems,
)

_FENCE_RE = re.compile(r"^\s*```[\w-]*\s*$", re.MULTILINE)


def parse_json_text(text: str) -> Any:
    """``json.loads`` after removing Markdown code-fence lines (some servers add them)."""
    try:
        return json.loads(_FENCE_RE.sub("", text))
    except json.JSONDecodeError as exc:
        raise ValueError(f"RadSEM model output is not valid JSON: {exc}") from exc


def tags_from_model_json(data: dict[str, Any] | str, strict: bool = True) -> RadsemTags:
    """Build tags from a model's answer (a dict, or JSON text, optionally in a code fence).

    ``strict``: any departure from ``TAG_SCHEMA`` raises ValueError naming the item and
    field, e.g. ``pairs[2].normality``. Lenient: like the reference pipeline, keep every
    object item, turn missing fields into ""/None and skip non-object items; the scorer then
    ignores pairs and unmatched sentences whose values it cannot use.
    """
    if isinstance(data, str):
        data = parse_json_text(data)
    if strict:
        problems = tag_problems(data)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise ValueError(f"RadSEM tags do not match the schema: {problems[0]}{more}")
        return RadsemTags.from_json(cast(dict[str, Any], data))  # tag_problems found an object
    if not isinstance(data, dict):
        return RadsemTags()
    return RadsemTags(
        pairs=[RadsemPair.from_json(p) for p in _list(data.get("pairs")) if isinstance(p, dict)],
        unmatched_sentences=[UnmatchedSentence.from_json(u)
                             for u in _list(data.get("unmatched_sentences")) if isinstance(u, dict)],
    )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
