"""Move fetched models to a machine without network: ``pack`` on a connected machine,
``unpack`` on the offline one.

A bundle is a tar file holding ``radscope-bundle.json`` (per model: its receipt, and per file
the name inside the tar, sha256 and size) and the files: an encoder's ONNX export directory
under ``models/<id>/``, a judge's GGUF under ``gguf/<id>/<file>``. Unpacking checks every
file's hash before anything is installed, then puts encoders in ``$RADSCOPE_MODELS/<id>`` and
GGUF files in the Hugging Face cache layout (``blobs/<etag>``, ``snapshots/<commit>/<file>``,
``refs/<revision>``), so the ordinary offline lookups find them, and writes the receipts.
"""
from __future__ import annotations

import json
import os
import shutil
import tarfile
import tempfile
from dataclasses import asdict
from pathlib import Path

from models import download
from models.artifacts import export_dir, export_root
from models.fetch import fetch_command
from models.receipts import Prepared, load_receipt, save_receipt
from models.resolve import file_sha256

INDEX = "radscope-bundle.json"
BUNDLE_FORMAT = 1


class BundleError(RuntimeError):
    """The bundle cannot be written or used; the message says why."""


def _member(prepared: Prepared, path: Path) -> str:
    if prepared.source.get("etag"):  # a Hub file: a GGUF judge
        return f"gguf/{prepared.model_id}/{path.name}"
    return f"models/{prepared.model_id}/{path.relative_to(prepared.path)}"


def pack(model_ids: list[str], out: Path) -> Path:
    """Write the tar file; every model must have been fetched (and still be intact) here."""
    index: dict[str, object] = {"format": BUNDLE_FORMAT, "models": {}}
    entries: list[tuple[str, Path]] = []
    for model_id in model_ids:
        prepared = load_receipt(model_id)
        if prepared is None:
            raise BundleError(f"{model_id} has not been fetched on this machine (or its files changed); "
                              f"run `{fetch_command(model_id)}` first")
        if prepared.task not in ("judge", "crepe", "srr", "embedder") or not (
                prepared.source.get("etag") or (Path(prepared.path) / "manifest.json").exists()):
            raise BundleError(f"{model_id} ships with the application (bundled or a Python package); "
                              "install the same RadScope version instead of packing it")
        files = []
        for item in prepared.files:
            path = Path(item["path"])
            name = _member(prepared, path)
            files.append({"name": name, "sha256": item["sha256"], "size": item["size"]})
            entries.append((name, path))
        record = asdict(prepared)
        record.pop("already")
        index["models"][model_id] = {"receipt": record, "files": files}  # type: ignore[index]
    out.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(out, "w") as tar:
        raw = json.dumps(index, indent=2).encode()
        info = tarfile.TarInfo(INDEX)
        info.size = len(raw)
        with tempfile.TemporaryFile() as fh:
            fh.write(raw)
            fh.seek(0)
            tar.addfile(info, fh)
        for name, path in entries:
            tar.add(path.resolve(), arcname=name, recursive=False)
    return out


def _read_index(tar: tarfile.TarFile, bundle: Path) -> dict:
    try:
        member = tar.extractfile(INDEX)
    except KeyError:
        member = None
    if member is None:
        raise BundleError(f"{bundle} has no {INDEX}: it was not written by `python -m models pack`")
    index = json.loads(member.read())
    if index.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"{bundle}: bundle format {index.get('format')} is not supported here")
    return index


def unpack(bundle: Path) -> list[Prepared]:
    """Check every file against its hash, then install; nothing is installed if one is wrong."""
    if not bundle.is_file():
        raise BundleError(f"no bundle at {bundle}")
    with tarfile.open(bundle) as tar, tempfile.TemporaryDirectory(dir=_scratch_dir()) as tmp:
        index = _read_index(tar, bundle)
        for model in index["models"].values():
            for item in model["files"]:
                if item["name"].startswith("/") or ".." in Path(item["name"]).parts:
                    raise BundleError(f"{bundle}: unsafe member name {item['name']!r}")
                tar.extract(item["name"], tmp, filter="data")
                got = file_sha256(Path(tmp) / item["name"])
                if got != item["sha256"]:
                    raise BundleError(f"{bundle}: {item['name']} has sha256 {got[:12]}…, the bundle "
                                      f"lists {item['sha256'][:12]}…; nothing was installed")
        return [_install(model_id, model, Path(tmp)) for model_id, model in index["models"].items()]


def _scratch_dir() -> str:
    root = export_root()
    root.mkdir(parents=True, exist_ok=True)
    return str(root)  # usually the same file system as the targets: installing is a rename


def _install(model_id: str, model: dict, tmp: Path) -> Prepared:
    receipt = dict(model["receipt"])
    receipt.pop("steps", None)
    source = receipt["source"]
    new_files = []
    if source.get("etag"):
        item = model["files"][0]
        path = _install_hub_file(source, tmp / item["name"])
        new_files.append({"path": str(path), "sha256": item["sha256"], "size": item["size"]})
        receipt["path"] = str(path)
    else:
        target = export_dir(model_id)
        if target.exists():
            shutil.rmtree(target)
        shutil.move(tmp / "models" / model_id, target)
        for item in model["files"]:
            path = target / Path(item["name"]).relative_to(f"models/{model_id}")
            new_files.append({"path": str(path), "sha256": item["sha256"], "size": item["size"]})
        receipt["path"] = str(target)
    receipt["files"] = new_files
    prepared = Prepared(**receipt)
    save_receipt(prepared)
    return prepared


def _install_hub_file(source: dict, file: Path) -> Path:
    """Place a file where huggingface_hub's cache lookups (offline included) find it."""
    folder = download.storage_folder(source["repo"])
    blob = folder / "blobs" / source["etag"]
    pointer = folder / "snapshots" / source["commit"] / source["file"]
    blob.parent.mkdir(parents=True, exist_ok=True)
    pointer.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(file, blob)
    if pointer.is_symlink() or pointer.exists():
        pointer.unlink()
    os.symlink(os.path.relpath(blob, pointer.parent), pointer)
    (folder / "refs").mkdir(exist_ok=True)
    if source.get("revision") and source["revision"] != source["commit"]:
        (folder / "refs" / source["revision"]).write_text(source["commit"])
    return pointer
