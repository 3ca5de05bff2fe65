"""Move fetched models to a machine without network: ``pack`` on a connected machine,
``unpack`` on the offline one.

A bundle is a tar file holding ``radscope-bundle.json`` (per model: its receipt, and per file
the name inside the tar, sha256 and size) and the files: an encoder's ONNX export directory
under ``models/<id>/``, a judge's GGUF under ``gguf/<id>/<file>``. Unpacking checks every
file's hash before anything is installed, then puts encoders in ``$RADSCOPE_MODELS/<id>`` and
GGUF files in the Hugging Face cache layout (``blobs/<etag>``, ``snapshots/<commit>/<file>``,
``refs/<revision>``), so the ordinary offline lookups find them, and writes the receipts.

A bundle is treated as hostile until proven otherwise (its hashes only prove that the files
match its own index): before anything is removed, moved, linked or written, every model id
must be a registry id (key and receipt alike), every Hub field must have its shape (hex
commit and ETag, the registry's repository and file, a plain revision name), every target
path must resolve under its root, and every tar member must be a regular file (not sparse)
whose size is the one its index lists. Before any byte is written, the sizes the index declares
are checked three ways: each model's total against a bound from the registry's ``size_mb``,
the bundle's total against the bundle file's own size (a plain tar holds every byte it lists;
model weights barely compress, so a compressed bundle may list at most ``MAX_RATIO`` times its
size), and against the free disk where the files go. Files are then copied with a byte cap and
hashed. Anything else is a ``BundleError`` naming what is wrong; nothing is installed.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tarfile
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from radscope.models import download, model_registry
from radscope.models.artifacts import export_dir, export_root
from radscope.models.fetch import fetch_command
from radscope.models.model_registry import MODEL_ID_RE, ModelEntry, is_model_id
from radscope.models.receipts import Prepared, load_receipt, receipt_path, receipts_dir, save_receipt

INDEX = "radscope-bundle.json"
BUNDLE_FORMAT = 1
MAX_INDEX_BYTES = 4 << 20
MAX_FILE_BYTES = 256 << 30
MB = 1_000_000  # the registry's size_mb unit
# A model's files may total at most this (registry size_mb in bytes): a judge is one GGUF file of
# the listed size; an encoder's export holds the fp32 and int8 ONNX files and its tokenizer.
SIZE_BOUND = {"judge": (1.1, 64 << 20), "encoder": (3.0, 256 << 20)}  # (factor, slack bytes)
MAX_RATIO = 4  # listed bytes per byte of a compressed bundle (GGUF and ONNX weights gzip by a few %)
DISK_MARGIN = 256 << 20  # left free after unpacking
_COMPRESSED_MAGIC = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")
COPY_CHUNK = 1 << 20
_SHA256_RE = re.compile(r"[0-9a-f]{64}")
_COMMIT_RE = re.compile(r"[0-9a-f]{40}")
_ETAG_RE = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # git blob sha1, or LFS sha256
_REVISION_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_PART_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,199}")  # one component of a member name


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


def _fail(bundle: Path, what: str) -> BundleError:
    return BundleError(f"{bundle}: {what}; nothing was installed")


@dataclass(frozen=True)
class _File:
    name: str
    sha256: str
    size: int


@dataclass(frozen=True)
class _Model:
    """One model of a checked index: every string in it is safe to build a path from."""

    entry: ModelEntry
    files: tuple[_File, ...]
    source: dict[str, str]

    @property
    def hub(self) -> bool:
        return self.entry.task == "judge"


def _need(ok: bool, bundle: Path, what: str) -> None:
    if not ok:
        raise _fail(bundle, what)


def _text(value: Any, pattern: re.Pattern[str]) -> bool:
    return isinstance(value, str) and pattern.fullmatch(value) is not None


def _check_file(item: Any, bundle: Path, where: str) -> _File:
    _need(isinstance(item, dict), bundle, f"{where}: a file entry is not an object")
    name, sha, size = item.get("name"), item.get("sha256"), item.get("size")
    _need(isinstance(name, str) and all(_text(p, _PART_RE) for p in name.split("/")), bundle,
          f"{where}: unsafe member name {name!r}")
    _need(_text(sha, _SHA256_RE), bundle, f"{where}: {name}: sha256 {sha!r} is not 64 hex digits")
    _need(isinstance(size, int) and not isinstance(size, bool) and 0 <= size <= MAX_FILE_BYTES,
          bundle, f"{where}: {name}: size {size!r} is not a byte count")
    return _File(name, sha, size)


def _check_source(entry: ModelEntry, source: Any, bundle: Path) -> dict[str, str]:
    """The receipt's source: for a Hub judge, the registry's repository and file, hex commit
    and ETag and a plain revision name; the ETag, commit, file and revision become paths."""
    where = f"model {entry.id}: receipt source"
    _need(isinstance(source, dict), bundle, f"{where} is not an object")
    if entry.task != "judge":
        return {k: v for k, v in source.items() if k in ("repo", "revision", "commit") and isinstance(v, str)}
    _need(source.get("repo") == entry.repo and source.get("file") == entry.file, bundle,
          f"{where}: repository/file {source.get('repo')!r}/{source.get('file')!r} are not the "
          f"registry's {entry.repo}/{entry.file}")
    _need(_text(source.get("commit"), _COMMIT_RE), bundle,
          f"{where}: commit {source.get('commit')!r} is not 40 hex digits")
    _need(_text(source.get("etag"), _ETAG_RE), bundle,
          f"{where}: etag {source.get('etag')!r} is not 40 or 64 hex digits")
    revision = source.get("revision")
    _need(revision is None or _text(revision, _REVISION_RE), bundle,
          f"{where}: revision {revision!r} is not a plain branch or tag name")
    return {k: source[k] for k in ("repo", "file", "commit", "etag")} | (
        {"revision": revision} if revision else {})


def _check_model(model_id: Any, model: Any, bundle: Path) -> _Model:
    _need(is_model_id(model_id), bundle,
          f"model id {model_id!r} is not a registry id (pattern {MODEL_ID_RE.pattern})")
    entries = model_registry.load_registry()
    _need(model_id in entries, bundle, f"model id {model_id!r} is not in this version's registry")
    entry = entries[model_id]
    _need(entry.source == "hf" and entry.task in ("judge", "crepe", "srr", "embedder"), bundle,
          f"model {model_id} ships with the application; a bundle cannot replace it")
    _need(isinstance(model, dict) and isinstance(model.get("receipt"), dict)
          and isinstance(model.get("files"), list) and model["files"], bundle,
          f"model {model_id}: needs a receipt object and a non-empty file list")
    receipt = model["receipt"]
    _need(receipt.get("model_id") == model_id, bundle,
          f"model {model_id}: its receipt names model_id {receipt.get('model_id')!r}")
    _need(receipt.get("task") == entry.task, bundle,
          f"model {model_id}: its receipt names task {receipt.get('task')!r}, the registry {entry.task!r}")
    source = _check_source(entry, receipt.get("source"), bundle)
    files = tuple(_check_file(item, bundle, f"model {model_id}") for item in model["files"])
    if entry.task == "judge":
        expected = f"gguf/{model_id}/{source['file']}"
        _need(len(files) == 1 and files[0].name == expected, bundle,
              f"model {model_id}: a judge bundle holds exactly one file, {expected}")
    else:
        _need(all(f.name.startswith(f"models/{model_id}/") and f.name.count("/") >= 2 for f in files),
              bundle, f"model {model_id}: every file must lie under models/{model_id}/")
    bound = size_bound(entry)
    total = sum(f.size for f in files)
    _need(total <= bound, bundle, f"model {model_id}: its files total {total:,} bytes, more than the "
          f"{bound:,} this version's registry allows for it ({entry.size_mb:g} MB listed)")
    return _Model(entry, files, source)


def size_bound(entry: ModelEntry) -> int:
    """The most bytes a bundle may hold for one model (see SIZE_BOUND)."""
    factor, slack = SIZE_BOUND["judge" if entry.task == "judge" else "encoder"]
    return int(entry.size_mb * MB * factor) + slack


def _check_room(bundle: Path, models: dict[str, _Model]) -> None:
    """The declared sizes against the bundle's own size and the free disk, before any write."""
    listed = sum(f.size for m in models.values() for f in m.files)
    size = bundle.stat().st_size
    with bundle.open("rb") as fh:
        compressed = fh.read(6).startswith(_COMPRESSED_MAGIC)
    most = size * MAX_RATIO if compressed else size
    _need(listed <= most, bundle,
          f"its index lists {listed:,} bytes of files, but the bundle is {size:,} bytes"
          + (f" (a compressed bundle may list at most {MAX_RATIO} times its size: model files barely "
             "compress)" if compressed else " (a tar file holds every byte it lists)"))
    hub = sum(f.size for m in models.values() if m.hub for f in m.files)
    places = [(export_root(), listed)]
    if hub:
        from huggingface_hub import constants

        places.append((Path(constants.HF_HUB_CACHE), hub))  # a move copies across file systems
    for place, need in places:
        free = _free_bytes(place)
        _need(need + DISK_MARGIN <= free, bundle,
              f"unpacking needs {need:,} bytes (and {DISK_MARGIN >> 20} MiB to spare) under {place}, "
              f"which has {free:,} bytes free")


def _free_bytes(path: Path) -> int:
    """Free bytes on the file system that holds ``path`` (or its nearest existing ancestor)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


def _read_index(tar: tarfile.TarFile, bundle: Path) -> dict[str, _Model]:
    """The first member, the index, checked field by field (see the module doc)."""
    first = tar.next()
    _need(first is not None and first.name == INDEX, bundle,
          f"the first member is not {INDEX}: it was not written by `radscope models pack`")
    assert first is not None
    _need(first.isreg() and first.size <= MAX_INDEX_BYTES, bundle,
          f"{INDEX} is not a regular file of at most {MAX_INDEX_BYTES} bytes")
    raw = tar.extractfile(first)
    assert raw is not None
    try:
        index = json.loads(raw.read())
    except ValueError as exc:
        raise _fail(bundle, f"{INDEX} is not JSON ({exc})") from None
    _need(isinstance(index, dict), bundle, f"{INDEX} is not a JSON object")
    _need(index.get("format") == BUNDLE_FORMAT, bundle,
          f"bundle format {index.get('format')!r} is not supported here (expected {BUNDLE_FORMAT})")
    models = index.get("models")
    _need(isinstance(models, dict) and bool(models), bundle, f"{INDEX} lists no models")
    checked = {model_id: _check_model(model_id, model, bundle) for model_id, model in models.items()}
    names = [f.name for m in checked.values() for f in m.files]
    _need(len(names) == len(set(names)), bundle, "a member name is listed twice")
    return checked


def _member_kind(member: tarfile.TarInfo) -> str:
    for test, kind in ((member.issym, "a symbolic link"), (member.islnk, "a hard link"),
                       (member.ischr, "a character device"), (member.isblk, "a block device"),
                       (member.isfifo, "a FIFO"), (member.isdir, "a directory")):
        if test():
            return kind
    if member.issparse():
        return "a sparse file"  # its data in the tar is shorter than its size
    return "a regular file" if member.isreg() else "a special member"


def _check_members(tar: tarfile.TarFile, bundle: Path, files: dict[str, _File]) -> dict[str, tarfile.TarInfo]:
    """Every remaining header, checked as it is read (before its data is): a listed name, a
    regular file, the listed size; and every listed file present."""
    found: dict[str, tarfile.TarInfo] = {}
    while (member := tar.next()) is not None:
        item = files.get(member.name)
        _need(item is not None and member.name not in found, bundle,
              f"member {member.name!r} is not listed in {INDEX} (or appears twice)")
        assert item is not None
        kind = _member_kind(member)
        _need(kind == "a regular file", bundle, f"member {member.name} is {kind}, not a regular file")
        _need(member.size == item.size, bundle,
              f"member {member.name} holds {member.size} bytes, {INDEX} lists {item.size}")
        found[member.name] = member
    missing = sorted(set(files) - set(found))
    _need(not missing, bundle, f"listed member(s) missing from the tar: {', '.join(missing)}")
    return found


def _copy_capped(source: IO[bytes], dest: Path, item: _File, bundle: Path) -> None:
    """Copy at most the listed size (a stream that holds more is refused), hashing as it goes."""
    digest, written = hashlib.sha256(), 0
    dest.parent.mkdir(parents=True, exist_ok=True)
    with dest.open("xb") as out:
        while chunk := source.read(min(COPY_CHUNK, item.size - written + 1)):
            written += len(chunk)
            _need(written <= item.size, bundle, f"{item.name} holds more than the {item.size} bytes listed")
            digest.update(chunk)
            out.write(chunk)
    _need(written == item.size, bundle, f"{item.name} holds {written} bytes, {INDEX} lists {item.size}")
    got = digest.hexdigest()
    _need(got == item.sha256, bundle, f"{item.name} has sha256 {got[:12]}…, the bundle lists {item.sha256[:12]}…")


def _inside(root: Path, path: Path, bundle: Path) -> Path:
    """``path`` when it resolves strictly under ``root`` (symbolic links followed)."""
    real_root, real = root.resolve(), path.resolve()
    _need(real != real_root and real.is_relative_to(real_root), bundle,
          f"{path} does not resolve under {root}")
    return path


@dataclass(frozen=True)
class _Targets:
    """Where one model goes; every path checked to lie under its root."""

    receipt: Path
    directory: Path | None = None  # an encoder's export directory
    blob: Path | None = None       # a judge's Hub-cache blob, snapshot pointer and ref
    pointer: Path | None = None
    ref: Path | None = None


def _targets(model: _Model, bundle: Path) -> _Targets:
    model_id = model.entry.id
    receipt = _inside(receipts_dir(), receipt_path(model_id), bundle)
    if not model.hub:
        return _Targets(receipt, directory=_inside(export_root(), export_dir(model_id), bundle))
    source = model.source
    folder = download.storage_folder(source["repo"])
    from huggingface_hub import constants

    _inside(Path(constants.HF_HUB_CACHE), folder, bundle)
    revision = source.get("revision")
    ref = folder / "refs" / revision if revision and revision != source["commit"] else None
    return _Targets(receipt, blob=_inside(folder, folder / "blobs" / source["etag"], bundle),
                    pointer=_inside(folder, folder / "snapshots" / source["commit"] / source["file"], bundle),
                    ref=_inside(folder, ref, bundle) if ref else None)


def unpack(bundle: Path) -> list[Prepared]:
    """Check the index, every member header and every file's hash, then install; nothing is
    installed if one is wrong (see the module doc)."""
    if not bundle.is_file():
        raise BundleError(f"no bundle at {bundle}")
    try:
        with tarfile.open(bundle) as tar:
            models = _read_index(tar, bundle)
            _check_room(bundle, models)
            targets = {model_id: _targets(model, bundle) for model_id, model in models.items()}
            files = {f.name: f for m in models.values() for f in m.files}
            members = _check_members(tar, bundle, files)
            with tempfile.TemporaryDirectory(dir=_scratch_dir()) as tmp:
                for name, item in files.items():
                    source = tar.extractfile(members[name])
                    assert source is not None
                    _copy_capped(source, Path(tmp, *name.split("/")), item, bundle)
                return [_install(model, targets[model_id], Path(tmp)) for model_id, model in models.items()]
    except (tarfile.TarError, EOFError, UnicodeError) as exc:
        raise _fail(bundle, f"not a readable tar file ({type(exc).__name__}: {exc})") from None
    except OSError as exc:
        raise BundleError(f"{bundle}: could not unpack: {exc.strerror or exc} "
                          f"({exc.filename or 'the bundle'})") from None


def _scratch_dir() -> str:
    root = export_root()
    root.mkdir(parents=True, exist_ok=True)
    return str(root)  # usually the same file system as the targets: installing is a rename


def _install(model: _Model, targets: _Targets, tmp: Path) -> Prepared:
    model_id = model.entry.id
    if model.hub:
        item = model.files[0]
        path = _install_hub_file(model.source, targets, tmp.joinpath(*item.name.split("/")))
        new_files = [{"path": str(path), "sha256": item.sha256, "size": item.size}]
    else:
        assert targets.directory is not None
        path = targets.directory
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.exists():
            shutil.rmtree(path)
        shutil.move(tmp / "models" / model_id, path)
        new_files = [{"path": str(path.joinpath(*f.name.split("/")[2:])), "sha256": f.sha256, "size": f.size}
                     for f in model.files]
    prepared = Prepared(model_id, model.entry.task, str(path), new_files, source=dict(model.source))
    save_receipt(prepared)
    return prepared


def _install_hub_file(source: dict[str, str], targets: _Targets, file: Path) -> Path:
    """Place a file where huggingface_hub's cache lookups (offline included) find it."""
    blob, pointer = targets.blob, targets.pointer
    assert blob is not None and pointer is not None
    blob.parent.mkdir(parents=True, exist_ok=True)
    pointer.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(file, blob)
    if pointer.is_symlink() or pointer.exists():
        pointer.unlink()
    os.symlink(os.path.relpath(blob, pointer.parent), pointer)
    if targets.ref is not None:
        targets.ref.parent.mkdir(exist_ok=True)
        targets.ref.write_text(source["commit"])
    return pointer
