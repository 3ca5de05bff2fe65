"""Example report pairs shipped in ``assets/examples.json`` (written by the project)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from radscope.engine.io.reports import ReportPair

EXAMPLES_PATH = Path(__file__).resolve().parents[2] / "assets" / "examples.json"


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
