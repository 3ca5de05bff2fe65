"""Whether a judge's answer was copied out of the text it was asked to judge.

A report can carry a ready-made answer (a JSON object with a perfect score, say). Small judges
copy such text faithfully, and the copy passes every schema check. Two signs give a copy away:
the answer's explanation (the judge's own words, never a report's) stands verbatim in a report,
or a JSON object written in a report is the answer itself. Either way the answer is not a
judgement, and the pair gets an error instead of a confident score.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

MIN_EXPLANATION_CHARS = 20


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def embedded_json_objects(text: str) -> Iterable[Any]:
    """Every JSON object that starts somewhere in ``text``."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def copied_from(answer: Mapping[str, Any], texts: Iterable[str], key: str = "explanation") -> str | None:
    """Why ``answer`` looks copied from one of ``texts`` (None when it does not)."""
    texts = list(texts)
    explanation = answer.get(key)
    if isinstance(explanation, str) and len(explanation.strip()) >= MIN_EXPLANATION_CHARS \
            and any(_plain(explanation) in _plain(text) for text in texts):
        return "its explanation is copied word for word from a report"
    target = _canonical(answer)
    if any(_canonical(found) == target for text in texts for found in embedded_json_objects(text)):
        return "it is a JSON object copied from a report"
    return None
