"""Example report pairs shipped in ``assets/examples.json`` (written by the project)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from radscope.engine.io.reports import ReportPair
from radscope.layout import folder

EXAMPLES_PATH = folder("assets") / "examples.json"


@dataclass(frozen=True)
class Example:
    title: str
    pair: ReportPair


@lru_cache(maxsize=1)
def example_pairs() -> tuple[Example, ...]:
    data = json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
    return tuple(Example(title=e["title"],
                         pair=ReportPair(id=e["id"], reference=e["reference"], candidate=e["candidate"],
                                         modality=e.get("modality"), area=e.get("area")))
                 for e in data["examples"])
