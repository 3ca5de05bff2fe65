"""What every metric view over the reader says about itself: the model line and the
``reader`` entry of its details, so that a result always names the reader that produced it."""
from __future__ import annotations

from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.reader.versions import READER_VERSION, reader_signature


def reader_details(label: str, *lexicons: str) -> dict[str, Any]:
    """The ``reader`` entry every rules view puts in its per-pair details (``lexicons``: those
    the view reads beyond the reader's own)."""
    return {"name": "rules", "label": label, **reader_signature(*lexicons)}


def rules_model(label: str, *lexicons: str) -> ModelInfo:
    """The model line of a rules view: the reader and its version; never demo-grade (the rules
    are measured on real data, ``make bench-rules``)."""
    return ModelInfo(id=f"rules reader ({READER_VERSION})",
                     source="rules: engine/reader + engine/data/lexicons", demo_grade=False,
                     device="cpu", detail={"view": label, **reader_signature(*lexicons)})
