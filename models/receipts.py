"""What a fetch leaves behind: a receipt per ready model, ``$RADSCOPE_MODELS/fetched/<id>.json``.

A receipt lists the files the model needs with their sha256 and size, where they came from
(repository, commit, ETag) and how long each step took. ``fetch`` answers from it at once (and
offline) while the files are intact, ``pack`` reads it to know what to carry, and ``unpack``
writes it for what it installs.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from radscope.models.artifacts import export_root
from radscope.models.model_registry import MODEL_ID_RE, is_model_id

OPTION_FOR_TASK = {"judge": "judge", "crepe": "crepe_model", "srr": "srr_model"}


@dataclass
class StepRecord:
    name: str
    seconds: float
    bytes: int = 0
    detail: str = ""


@dataclass
class Prepared:
    """A model that is ready, where it is, and how it got there."""

    model_id: str
    task: str
    path: str
    files: list[dict[str, Any]]          # {"path", "sha256", "size"} of what the model needs
    steps: list[StepRecord] = field(default_factory=list)
    source: dict[str, Any] = field(default_factory=dict)  # repo / commit / etag for judges
    already: bool = False                 # found ready; nothing was done

    @property
    def option(self) -> tuple[str, str] | None:
        """The metric option that selects this model (None for models no option selects)."""
        name = OPTION_FOR_TASK.get(self.task)
        return (name, self.model_id) if name else None

    def use_hint(self) -> str:
        option = self.option
        if option is None:
            return ""
        return f"use it with --{option[0].replace('_', '-')} {self.model_id}"

    def size_bytes(self) -> int:
        return sum(int(f["size"]) for f in self.files)


def receipts_dir() -> Path:
    return export_root() / "fetched"


def receipt_path(model_id: str) -> Path:
    """``fetched/<id>.json``; ValueError for an id that is not a registry-shaped name, so no
    id (from a bundle, say) can place a receipt anywhere else."""
    if not is_model_id(model_id):
        raise ValueError(f"model id {model_id!r} does not match {MODEL_ID_RE.pattern}")
    return receipts_dir() / f"{model_id}.json"


def load_receipt(model_id: str) -> Prepared | None:
    """The stored receipt when every file it lists is still there with its size."""
    if not is_model_id(model_id):
        return None
    path = receipt_path(model_id)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        steps = [StepRecord(**s) for s in data.pop("steps", [])]
        data.pop("already", None)
        prepared = Prepared(**data, steps=steps, already=True)
    except (ValueError, TypeError):
        return None
    for item in prepared.files:
        file = Path(item["path"])
        if not file.is_file() or file.stat().st_size != int(item["size"]):
            return None
    return prepared


def save_receipt(prepared: Prepared) -> Path:
    path = receipt_path(prepared.model_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = asdict(prepared)
    data.pop("already")
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path
