"""`radscope models unpack` on hostile bundles: every case ends in one clear error (exit 2, a
message naming what is wrong, no traceback) and a snapshot of everything around the targets
(the models directory, the Hugging Face cache, a sibling "victim" directory that absolute and
``../`` names point at) is identical before and after, down to the byte and the mtime.

A valid bundle built the same way installs (the control), so each hostile case fails for the
one field it changes.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from radscope.models.__main__ import main as models_main

JUDGE_ID, JUDGE_REPO, JUDGE_FILE = ("qwen2.5-7b-instruct", "bartowski/Qwen2.5-7B-Instruct-GGUF",
                                    "Qwen2.5-7B-Instruct-Q4_K_M.gguf")
CREPE_ID = "crepe-biomedbert"
GGUF = b"GGUF" + bytes(range(256)) * 4
ENCODER_FILES = {"manifest.json": b'{"format": 1}\n', "model.int8.onnx": b"\x08\x07onnx" * 100}
COMMIT = "c0ffee" + "0" * 34


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file(name: str, data: bytes) -> dict[str, Any]:
    return {"name": name, "sha256": _sha(data), "size": len(data)}


def valid_index() -> dict[str, Any]:
    """What `models pack` writes for one judge and one encoder."""
    etag = _sha(GGUF)
    judge = {"receipt": {"model_id": JUDGE_ID, "task": "judge", "path": "/somewhere/else", "files": [],
                         "steps": [], "source": {"repo": JUDGE_REPO, "file": JUDGE_FILE, "revision": "main",
                                                 "commit": COMMIT, "etag": etag}},
             "files": [_file(f"gguf/{JUDGE_ID}/{JUDGE_FILE}", GGUF)]}
    crepe = {"receipt": {"model_id": CREPE_ID, "task": "crepe", "path": "/x", "files": [], "steps": [],
                         "source": {"repo": "gihuncho/crepe-biomedbert", "revision": "main", "commit": COMMIT}},
             "files": [_file(f"models/{CREPE_ID}/{n}", d) for n, d in ENCODER_FILES.items()]}
    return {"format": 1, "models": {JUDGE_ID: judge, CREPE_ID: crepe}}


def valid_members() -> list[tuple[str, bytes]]:
    return [(f"gguf/{JUDGE_ID}/{JUDGE_FILE}", GGUF)] + [(f"models/{CREPE_ID}/{n}", d)
                                                          for n, d in ENCODER_FILES.items()]


def write_tar(path: Path, index: Any, members: list[tuple[str, bytes]] | None = None,
              extra: list[tarfile.TarInfo] | None = None, mode: str = "w", raw_index: bytes | None = None,
              **kwargs: Any) -> Path:
    with tarfile.open(path, mode, **kwargs) as tar:
        data = raw_index if raw_index is not None else json.dumps(index).encode()
        info = tarfile.TarInfo("radscope-bundle.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for name, blob in valid_members() if members is None else members:
            info = tarfile.TarInfo(name)
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
        for info in extra or []:
            tar.addfile(info)
    return path


@pytest.fixture
def world(tmp_path, monkeypatch):
    """RADSCOPE_MODELS and the Hub cache under ``tmp_path``, each with an earlier install in it,
    and a victim directory beside them."""
    from huggingface_hub import constants

    models, hf, victim = tmp_path / "models", tmp_path / "hf", tmp_path / "victim"
    monkeypatch.setenv("RADSCOPE_MODELS", str(models))
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(hf))
    for folder, name in ((victim, "precious.txt"), (victim / "sub", "also.txt"),
                         (models / "srr-bert-leaves", "model.onnx"), (models / "fetched", "x.json"),
                         (hf / "models--a--b" / "blobs", "0" * 64), (tmp_path / "sibling", "keep.txt")):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(f"{name} must survive\n")
    return tmp_path


def snapshot(root: Path, skip: Path) -> dict[str, tuple]:
    """Every path under ``root`` (but ``skip``, the bundle): kind, size, mtime and content hash."""
    found: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        if path == skip:
            continue
        st = path.lstat()
        if path.is_symlink():
            found[str(path)] = ("link", os.readlink(path))
        elif path.is_file():
            found[str(path)] = ("file", st.st_size, st.st_mtime_ns, _sha(path.read_bytes()))
        else:
            found[str(path)] = ("dir", st.st_mtime_ns)
    return found


def unpack(bundle: Path, capsys) -> tuple[int, str]:
    code = models_main(["unpack", str(bundle)])
    return code, capsys.readouterr().err


def test_a_valid_bundle_installs(world, capsys):
    """The control: the same construction, unchanged, installs both models where they belong."""
    bundle = write_tar(world / "ok.tar", valid_index())
    code, err = unpack(bundle, capsys)
    assert code == 0, err
    pointer = world / "hf" / f"models--bartowski--Qwen2.5-7B-Instruct-GGUF" / "snapshots" / COMMIT / JUDGE_FILE
    assert pointer.read_bytes() == GGUF
    assert (world / "models" / CREPE_ID / "model.int8.onnx").read_bytes() == ENCODER_FILES["model.int8.onnx"]
    receipt = json.loads((world / "models" / "fetched" / f"{JUDGE_ID}.json").read_text())
    assert receipt["path"] == str(pointer) and receipt["source"]["etag"] == _sha(GGUF)


def _set(path: tuple, value: Any) -> Callable[[dict, Path], None]:
    def edit(index: dict, world: Path) -> None:
        target = index
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(world) if callable(value) else value
    return edit


def _rekey(new_id: Callable[[Path], str]) -> Callable[[dict, Path], None]:
    def edit(index: dict, world: Path) -> None:
        index["models"][new_id(world)] = index["models"].pop(CREPE_ID)
    return edit


SRC = ("models", JUDGE_ID, "receipt", "source")
INDEX_CASES: dict[str, tuple[Callable[[dict, Path], None], str]] = {
    "absolute model id": (_rekey(lambda w: str(w / "victim")), "is not a registry id"),
    "../ model id": (_rekey(lambda w: "../victim"), "is not a registry id"),
    "unregistered model id": (_rekey(lambda w: "someone-elses-model"), "is not in this version's registry"),
    "absolute receipt model_id": (_set(("models", CREPE_ID, "receipt", "model_id"), lambda w: str(w / "victim" / "r")),
                                  "its receipt names model_id"),
    "../ receipt model_id": (_set(("models", CREPE_ID, "receipt", "model_id"), "../../victim/r"),
                             "its receipt names model_id"),
    "absolute etag": (_set(SRC + ("etag",), lambda w: str(w / "victim" / "planted.gguf")), "etag"),
    "../ etag": (_set(SRC + ("etag",), "../../../victim/planted"), "etag"),
    "../ commit": (_set(SRC + ("commit",), "../../../victim"), "commit"),
    "absolute revision": (_set(SRC + ("revision",), lambda w: str(w / "victim" / "ref")), "revision"),
    "../ revision": (_set(SRC + ("revision",), "../../../victim/ref"), "revision"),
    "other repository": (_set(SRC + ("repo",), "../../victim"), "registry's"),
    "../ file": (_set(SRC + ("file",), "../../../../victim/x.gguf"), "registry's"),
    "../ member name": (_set(("models", CREPE_ID, "files", 0, "name"), f"models/{CREPE_ID}/../../victim/x"),
                        "unsafe member name"),
    "member outside its model": (_set(("models", CREPE_ID, "files", 0, "name"), "models/srr-bert-leaves/x"),
                                 "must lie under"),
    "index without models": (_set(("models",), {}), "lists no models"),
    "wrong format": (_set(("format",), 99), "bundle format 99"),
    "size not a number": (_set(("models", CREPE_ID, "files", 0, "size"), "10"), "is not a byte count"),
    "hash not hex": (_set(("models", CREPE_ID, "files", 0, "sha256"), "../" * 20), "is not 64 hex digits"),
}


def _expect_refused(world: Path, bundle: Path, capsys, *words: str) -> str:
    before = snapshot(world, bundle)
    started = time.monotonic()
    code, err = unpack(bundle, capsys)
    assert code == 2, err
    assert err.startswith("error: ") and "Traceback" not in err and "nothing was installed" in err, err
    for word in words:
        assert word in err, err
    assert snapshot(world, bundle) == before, "unpack changed files around its targets"
    assert time.monotonic() - started < 30  # bounded: the checks read headers, never the bomb
    return err


@pytest.mark.parametrize("case", sorted(INDEX_CASES))
def test_hostile_index_fields_are_refused_before_any_write(world, capsys, case):
    edit, words = INDEX_CASES[case]
    index = valid_index()
    edit(index, world)
    _expect_refused(world, write_tar(world / "bad.tar", index), capsys, words)


def _special(name: str, kind: bytes, **fields: Any) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in fields.items():
        setattr(info, key, value)
    return info


@pytest.mark.parametrize("kind,fields,words", [
    (tarfile.SYMTYPE, {"linkname": "/etc/passwd"}, "is a symbolic link"),
    (tarfile.LNKTYPE, {"linkname": "gguf/qwen2.5-7b-instruct/" + JUDGE_FILE}, "is a hard link"),
    (tarfile.CHRTYPE, {"devmajor": 1, "devminor": 3}, "is a character device"),
    (tarfile.BLKTYPE, {"devmajor": 7, "devminor": 0}, "is a block device"),
    (tarfile.FIFOTYPE, {}, "is a FIFO"),
], ids=["symlink", "hardlink", "char-device", "block-device", "fifo"])
def test_special_members_are_refused(world, capsys, kind, fields, words):
    """The manifest's member, listed in the index, arrives as a link or device instead."""
    name = f"models/{CREPE_ID}/manifest.json"
    index = valid_index()
    for item in index["models"][CREPE_ID]["files"]:
        if item["name"] == name:
            item["size"] = 0
    members = [m for m in valid_members() if m[0] != name]
    bundle = write_tar(world / "bad.tar", index, members, extra=[_special(name, kind, **fields)])
    _expect_refused(world, bundle, capsys, words)


def test_decompression_bomb_stops_at_the_header(world, capsys):
    """50 MB of zeros (a few kB gzipped) listed as 10 bytes: refused from the tar header,
    nothing extracted; the scratch directory is gone too (the snapshot covers it)."""
    bomb = bytes(50 << 20)
    index = valid_index()
    index["models"][CREPE_ID]["files"][1] = {"name": f"models/{CREPE_ID}/model.int8.onnx",
                                             "sha256": _sha(bomb[:10]), "size": 10}
    members = [m if not m[0].endswith(".onnx") else (m[0], bomb) for m in valid_members()]
    bundle = write_tar(world / "bomb.tar.gz", index, members, mode="w:gz")
    assert bundle.stat().st_size < 1 << 20
    _expect_refused(world, bundle, capsys, "holds 52428800 bytes", "lists 10")


def test_the_copy_is_capped_at_the_listed_size(tmp_path):
    """Belt and braces under the header check: a stream longer than listed stops at the cap."""
    from radscope.models.bundle import BundleError, _copy_capped, _File

    class Endless(io.RawIOBase):
        served = 0

        def readinto(self, buf):  # type: ignore[override]
            buf[:] = bytes(len(buf))
            self.served += len(buf)
            return len(buf)

    stream = Endless()
    with pytest.raises(BundleError, match="holds more than the 10 bytes"):
        _copy_capped(stream, tmp_path / "out", _File("x", "0" * 64, 10), tmp_path / "b.tar")
    assert stream.served <= 11


@pytest.mark.parametrize("case", ["not json", "json array", "missing member", "extra member",
                                  "index not first", "not a tar", "gzip of garbage", "truncated"])
def test_malformed_bundles_are_clear_errors(world, capsys, case):
    bundle = world / "bad.tar"
    words = {"not json": "is not JSON", "json array": "is not a JSON object",
             "missing member": "missing from the tar", "extra member": "is not listed",
             "index not first": "the first member is not", "not a tar": "not a readable tar file",
             "gzip of garbage": "not a readable tar file", "truncated": "not a readable tar file"}[case]
    if case == "not json":
        write_tar(bundle, None, raw_index=b"{not json")
    elif case == "json array":
        write_tar(bundle, None, raw_index=b"[1, 2]")
    elif case == "missing member":
        write_tar(bundle, valid_index(), valid_members()[:-1])
    elif case == "extra member":
        write_tar(bundle, valid_index(), valid_members() + [("models/srr-bert-leaves/model.onnx", b"x")])
    elif case == "index not first":
        with tarfile.open(bundle, "w") as tar:
            for name, data in valid_members() + [("radscope-bundle.json", json.dumps(valid_index()).encode())]:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    elif case == "not a tar":
        bundle.write_text("just some text, not a tar file\n" * 40)
    elif case == "gzip of garbage":
        bundle.write_bytes(gzip.compress(b"\x01garbage" * 200))
    else:
        write_tar(bundle, valid_index())
        bundle.write_bytes(bundle.read_bytes()[:2000])
    _expect_refused(world, bundle, capsys, words)


class _Zeros(io.RawIOBase):
    """``size`` zero bytes as a stream (a member's data, never held whole)."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buf):  # type: ignore[override]
        n = min(len(buf), self.left)
        buf[:n] = bytes(n)
        self.left -= n
        return n


GIB = 1 << 30


def _declares_a_gib(path: Path, mode: str) -> Path:
    """A bundle whose encoder member is 1 GiB of zeros, listed (index and header) as such."""
    name = f"models/{CREPE_ID}/model.int8.onnx"
    index = valid_index()
    index["models"][CREPE_ID]["files"][1] = {"name": name, "sha256": "0" * 64, "size": GIB}
    with tarfile.open(path, mode) as tar:
        data = json.dumps(index).encode()
        info = tarfile.TarInfo("radscope-bundle.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for member, blob in valid_members():
            info = tarfile.TarInfo(member)
            info.size = GIB if member == name else len(blob)
            tar.addfile(info, _Zeros(GIB) if member == name else io.BytesIO(blob))
    return path


@pytest.mark.slow  # building the 1 GiB member's gzip takes about 15 s
def test_a_small_gzipped_bundle_that_lists_a_gib_is_refused_at_once(world, capsys):
    """1 GiB of zeros gzips to about 1 MB: the index and the tar header both say 1 GiB, and the
    hash would only fail after 1 GiB was written. Refused from the sizes, before any write."""
    bundle = _declares_a_gib(world / "bomb.tar.gz", "w:gz")
    assert bundle.stat().st_size < 2 << 20
    listed = GIB + len(GGUF) + len(ENCODER_FILES["manifest.json"])
    started = time.monotonic()
    _expect_refused(world, bundle, capsys, f"its index lists {listed:,} bytes",
                    "at most 4 times its size")
    assert time.monotonic() - started < 5


def test_a_plain_bundle_must_hold_the_bytes_it_lists(world, capsys):
    index = valid_index()
    index["models"][CREPE_ID]["files"][1]["size"] = GIB  # the header (written from the data) says less
    bundle = write_tar(world / "short.tar", index)
    _expect_refused(world, bundle, capsys, "a tar file holds every byte it lists")


def test_a_model_larger_than_the_registry_allows_is_refused(world, capsys):
    from radscope.models.bundle import size_bound
    from radscope.models.model_registry import load_registry

    index = valid_index()
    too_big = size_bound(load_registry()[JUDGE_ID]) + 1
    index["models"][JUDGE_ID]["files"][0]["size"] = too_big
    bundle = write_tar(world / "big.tar", index)
    _expect_refused(world, bundle, capsys, f"model {JUDGE_ID}: its files total {too_big:,} bytes",
                    "this version's registry allows")
    assert size_bound(load_registry()[JUDGE_ID]) < 6 * GIB  # 4,680 MB listed: 1.1 times, plus 64 MiB


def test_a_bundle_larger_than_the_free_disk_is_refused(world, capsys, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(1 << 40, (1 << 40) - (100 << 20), 100 << 20))
    bundle = write_tar(world / "ok.tar", valid_index())
    _expect_refused(world, bundle, capsys, "unpacking needs", "bytes free")


def test_a_sparse_member_is_refused(world, capsys):
    """A GNU sparse member reads back as its holes (zeros) from far fewer bytes in the tar."""
    name = f"models/{CREPE_ID}/model.int8.onnx"
    bundle = write_tar(world / "sparse.tar", valid_index(), format=tarfile.GNU_FORMAT)
    raw = bytearray(bundle.read_bytes())
    with tarfile.open(bundle) as tar:
        offset = next(m for m in tar.getmembers() if m.name == name).offset
    raw[offset + 156:offset + 157] = tarfile.GNUTYPE_SPARSE  # the type flag; the sparse map is empty
    checksum = sum(raw[offset:offset + 148]) + 8 * 32 + sum(raw[offset + 156:offset + 512])
    raw[offset + 148:offset + 156] = b"%06o\0 " % checksum
    bundle.write_bytes(bytes(raw))
    _expect_refused(world, bundle, capsys, f"member {name} is a sparse file")
