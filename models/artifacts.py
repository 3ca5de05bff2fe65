"""ONNX encoder artifacts: the manifest format and where an encoder id is found on disk.

An artifact is a directory with ``manifest.json``, ``tokenizer.json`` and ``model.onnx``
and/or ``model.int8.onnx``. It is written by ``radscope models export`` (export
environment) and read by ``radscope.engine.runtimes.encoder_session`` (runtime environment), so this
module imports neither torch nor onnxruntime.

Resolution of an encoder name, first hit wins:

1. an existing directory (or a manifest.json file inside one): used as given;
2. a registry id whose source is ``bundled``: ``models/<path>``;
3. any registry id: the export directory ``$RADSCOPE_MODELS/<id>/``
   (default ``~/.cache/radscope/models/<id>/``);
4. otherwise ``ModelNotAvailable`` naming the command that fetches and exports it.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from radscope.models import model_registry
from radscope.models.model_registry import ModelEntry
from radscope.models.resolve import MODELS_DIR, ModelNotAvailable, file_sha256

MANIFEST = "manifest.json"
TOKENIZER = "tokenizer.json"
FP32_FILE = "model.onnx"
INT8_FILE = "model.int8.onnx"
MANIFEST_FORMAT = 1
FP32_TOLERANCE = 1e-4  # largest |torch - ONNX fp32| an export may show
PER_ROW = "per-row"  # Manifest.int8_activations of a model rewritten by models/row_quant.py
EncoderTask = Literal["crepe", "srr", "embedder"]
Precision = Literal["auto", "int8", "fp32"]


def export_root() -> Path:
    """Where exported (not bundled) artifacts live: $RADSCOPE_MODELS or ~/.cache/radscope/models."""
    return Path(os.environ.get("RADSCOPE_MODELS") or Path.home() / ".cache" / "radscope" / "models")


def export_dir(model_id: str) -> Path:
    return export_root() / model_id


def export_command(model_id: str) -> str:
    return (f"`radscope models fetch {model_id}` (downloads the checkpoint and exports it; by hand: "
            f"`make export-env`, then `.venv-export/bin/python -m radscope models export {model_id} --int8`)")


@dataclass
class Manifest:
    """What the runtime must know to use an exported encoder without torch or transformers."""

    id: str
    task: str
    max_length: int
    input_names: list[str]
    output_names: list[str]
    files: dict[str, dict[str, str]]  # precision -> {"name": file name, "sha256": hex digest}
    tokenizer: str = TOKENIZER
    labels: list[str] = field(default_factory=list)
    label_level: str | None = None
    pair_input: bool = False
    pooling: str | None = None  # crepe: pooler | cls; embedder: mean
    normalize: bool = False
    softplus: bool = False
    threshold: float | None = None
    dim: int | None = None
    source: str = ""
    revision: str | None = None
    checksum: str = ""  # sha256 of the preferred model file (int8 when present)
    exporter: dict[str, Any] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)
    # How the int8 model quantises activations: "per-row" (``models/row_quant.py``: a row's
    # result depends on that row alone) or None (one scale per batch: older exports, which the
    # runtime therefore runs one sequence per call).
    int8_activations: str | None = None
    format: int = MANIFEST_FORMAT

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def save(self, directory: Path) -> Path:
        path = Path(directory) / MANIFEST
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: Path) -> Manifest:
        path = Path(directory) / MANIFEST
        data = json.loads(path.read_text(encoding="utf-8"))
        if int(data.get("format", 0)) != MANIFEST_FORMAT:
            raise ValueError(f"{path}: manifest format {data.get('format')} is not supported "
                             f"(expected {MANIFEST_FORMAT}); re-export the model")
        return cls.from_json(data)


@dataclass(frozen=True)
class OnnxArtifact:
    """A resolved encoder directory with its manifest."""

    name: str                  # what was asked for
    path: Path
    manifest: Manifest
    source: str                # local | bundled | exported
    entry: ModelEntry | None = None

    @property
    def id(self) -> str:
        return self.entry.id if self.entry else self.manifest.id or self.name

    @property
    def demo_grade(self) -> bool:
        """From the registry entry; a copy given by path inherits it through its manifest id."""
        entry = self.entry or model_registry.load_registry().get(self.manifest.id)
        return bool(entry and entry.demo_grade)

    @property
    def tokenizer_path(self) -> Path:
        return self.path / self.manifest.tokenizer

    def model_path(self, precision: Precision = "auto") -> tuple[Path, str]:
        """The model file for ``precision`` (auto: int8 when present, else fp32) and its name."""
        files = self.manifest.files
        order = {"auto": ("int8", "fp32"), "int8": ("int8",), "fp32": ("fp32",)}[precision]
        for key in order:
            if key in files and (self.path / files[key]["name"]).exists():
                return self.path / files[key]["name"], key
        raise ModelNotAvailable(
            f"{self.path} has no {precision} model file (manifest lists {sorted(files)}); "
            f"re-run {export_command(self.id)}")

    def verify(self, precision: Precision = "auto") -> bool:
        """True when the model file's content hash matches the manifest (slow: reads the file)."""
        path, key = self.model_path(precision)
        return file_sha256(path) == self.manifest.files[key]["sha256"]


def _from_dir(name: str, directory: Path, source: str, entry: ModelEntry | None,
              task: str | None) -> OnnxArtifact:
    manifest = Manifest.load(directory)
    if task and manifest.task != task:
        raise ValueError(f"{directory} holds a {manifest.task} model, not a {task} model")
    return OnnxArtifact(name=name, path=directory.resolve(), manifest=manifest, source=source,
                        entry=entry)


def resolve_artifact(name: str, task: str | None = None) -> OnnxArtifact:
    """Find the ONNX artifact for an encoder name (path or registry id); see the module doc."""
    local = Path(name).expanduser()
    if local.is_file() and local.name == MANIFEST:
        local = local.parent
    if local.is_dir():
        if not (local / MANIFEST).exists():
            raise ModelNotAvailable(
                f"{local} has no {MANIFEST}: it is not an exported ONNX encoder. If it is a "
                f"checkpoint, export it first: radscope models export {local} --out DIR --int8")
        return _from_dir(name, local, "local", None, task)
    entries = model_registry.load_registry()
    entry = entries.get(name)
    if entry is None:
        known = ", ".join(e.id for e in entries.values() if e.task in ("crepe", "srr", "embedder"))
        raise ModelNotAvailable(f"encoder {name!r} is neither an artifact directory nor a "
                                f"registry id (encoders: {known})")
    if task and entry.task != task:
        raise ValueError(f"model {name!r} is a {entry.task} model, not a {task} model")
    if entry.source == "bundled":
        bundled = MODELS_DIR / (entry.path or "")
        if (bundled / MANIFEST).exists():
            return _from_dir(name, bundled, "bundled", entry, task)
    exported = export_dir(entry.id)
    if (exported / MANIFEST).exists():
        return _from_dir(name, exported, "exported", entry, task)
    if entry.source == "bundled":
        raise ModelNotAvailable(f"bundled model {entry.id!r} is missing at "
                                f"{MODELS_DIR / (entry.path or '')}; rebuild it with `make models`")
    raise ModelNotAvailable(f"{entry.id!r} has not been exported to ONNX yet (looked in "
                            f"{exported}); run {export_command(entry.id)}")
