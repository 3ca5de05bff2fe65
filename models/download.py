"""Resumable downloads of Hugging Face files into the standard Hugging Face cache.

huggingface_hub retries a dropped connection within one call, but it deletes a partial file
when the call ends, so a cancelled 5 GB download would start again from zero. Here the bytes
go to ``blobs/<etag>.radscope-part`` in the repository's cache folder, a later run continues
it with an HTTP Range request, and only a file whose size and sha256 check out becomes the
blob ``blobs/<etag>``. ``hf_hub_download`` then links it into ``snapshots/<commit>/`` and
records the revision, so everything else (``resolve``, offline mode) sees an ordinary cache.

The protocol parts come from huggingface_hub itself: ``get_hf_file_metadata`` (the HEAD
request on ``resolve/<revision>/<file>`` with its ETag, X-Repo-Commit and size headers),
``model_info`` (``api/models/<repo>/revision/<revision>``) and its HTTP session and headers.
"""
from __future__ import annotations

import hashlib
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from radscope.models.progress import Progress, Reporter, check_cancel

CHUNK = 1 << 20      # hashing
NET_CHUNK = 1 << 16  # network reads: small, so little is lost when a connection drops
RETRIES = 5            # attempts in a row without a single new byte
METADATA_TIMEOUT = 10  # seconds for the HEAD / model-info calls
PART_SUFFIX = ".radscope-part"
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class DownloadError(RuntimeError):
    """The server could not be reached or answered something unusable."""


class ChecksumMismatch(RuntimeError):
    """The downloaded bytes are not the published file; they were deleted."""


@dataclass(frozen=True)
class RemoteFile:
    """One file of a repository at a resolved commit, as the Hub describes it."""

    repo: str
    filename: str
    revision: str
    commit: str
    etag: str
    size: int | None
    url: str

    @property
    def lfs_sha256(self) -> str | None:
        """Large (LFS / xet) files carry their content sha256 as the ETag; small git files do not."""
        return self.etag if _SHA256.match(self.etag) else None


def storage_folder(repo: str) -> Path:
    from huggingface_hub import constants
    from huggingface_hub.file_download import repo_folder_name

    return Path(constants.HF_HUB_CACHE) / repo_folder_name(repo_id=repo, repo_type="model")


def remote_file(repo: str, filename: str, revision: str | None) -> RemoteFile:
    """The HEAD request: where the file is, its ETag, size and the commit behind ``revision``."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    url = hf_hub_url(repo, filename, revision=revision or "main")
    try:
        meta = get_hf_file_metadata(url, timeout=METADATA_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - network, 404, auth: one message with the cause
        raise DownloadError(f"cannot reach {url} ({type(exc).__name__}: {exc})") from None
    if not meta.etag or not meta.commit_hash or not meta.location:
        raise DownloadError(f"{url} answered without an ETag or commit header; is HF_ENDPOINT a Hub?")
    return RemoteFile(repo, filename, revision or "main", meta.commit_hash, meta.etag, meta.size,
                      meta.location)


def repo_files(repo: str, revision: str | None) -> tuple[str, dict[str, int | None]]:
    """The commit behind ``revision`` and every file of the repository with its size."""
    from huggingface_hub import HfApi

    try:
        info = HfApi().model_info(repo, revision=revision or "main", files_metadata=True,
                                  timeout=METADATA_TIMEOUT)
    except Exception as exc:  # noqa: BLE001
        raise DownloadError(f"cannot read the file list of {repo} ({type(exc).__name__}: {exc})") from None
    return info.sha or "", {s.rfilename: s.size for s in info.siblings or []}


def _offline_missing(repo: str, what: str) -> Exception:
    from radscope.models.resolve import ModelNotAvailable

    return ModelNotAvailable(f"{repo}: {what} is not in the Hugging Face cache and HF_HUB_OFFLINE is set")


def cached_listing(repo: str, revision: str | None) -> tuple[str, dict[str, int | None]]:
    """Offline stand-in for ``repo_files``: the commit and files of the cached snapshot."""
    folder = storage_folder(repo)
    ref = folder / "refs" / (revision or "main")
    commit = ref.read_text().strip() if ref.is_file() else (revision or "main")
    snapshot = folder / "snapshots" / commit
    if not snapshot.is_dir():
        raise _offline_missing(repo, f"revision {revision or 'main'}")
    return commit, {p.name: p.stat().st_size for p in snapshot.iterdir() if p.is_file()}


def cached_remote(repo: str, filename: str, revision: str | None) -> RemoteFile:
    """Offline stand-in for ``remote_file``: what the cache recorded when it was downloaded
    (the blob's name is its ETag, so a large file's sha256 can still be checked)."""
    commit, files = cached_listing(repo, revision)
    if filename not in files:
        raise _offline_missing(repo, filename)
    blob = (storage_folder(repo) / "snapshots" / commit / filename).resolve()
    return RemoteFile(repo, filename, revision or "main", commit, blob.name, blob.stat().st_size, "")


def part_path(remote: RemoteFile) -> Path:
    return storage_folder(remote.repo) / "blobs" / (remote.etag + PART_SUFFIX)


def blob_path(remote: RemoteFile) -> Path:
    return storage_folder(remote.repo) / "blobs" / remote.etag


def download(remote: RemoteFile, progress: Progress, report: Reporter,
             cancel: threading.Event | None = None) -> Path:
    """Stream the file into its part file, continuing a previous partial download."""
    from huggingface_hub.utils import build_hf_headers, get_session, httpx

    part = part_path(remote)
    part.parent.mkdir(parents=True, exist_ok=True)
    progress.total = remote.size
    progress.done = progress.resumed_from = part.stat().st_size if part.exists() else 0
    failures = 0
    while remote.size is None or progress.done < remote.size:
        check_cancel(cancel)
        headers = build_hf_headers()
        headers["Accept-Encoding"] = "identity"
        if progress.done:
            headers["Range"] = f"bytes={progress.done}-"
        before = progress.done
        try:
            with get_session().stream("GET", remote.url, headers=headers, follow_redirects=True,
                                      timeout=httpx.Timeout(30.0, connect=METADATA_TIMEOUT)) as resp:
                if resp.status_code not in (200, 206):
                    raise DownloadError(f"{remote.url} answered HTTP {resp.status_code}")
                mode = "ab" if resp.status_code == 206 else "wb"  # 200: the server ignored Range
                if mode == "wb":
                    progress.done = progress.resumed_from = 0
                with part.open(mode) as out:
                    for chunk in resp.iter_bytes(NET_CHUNK):
                        out.write(chunk)
                        progress.done += len(chunk)
                        report(progress)
                        check_cancel(cancel)
            if remote.size is None:
                break
        except (httpx.TransportError, httpx.StreamError) as exc:
            failures = 0 if progress.done > before else failures + 1
            if failures >= RETRIES:
                raise DownloadError(f"download of {remote.filename} keeps failing "
                                    f"({type(exc).__name__}: {exc}); {progress.done} bytes kept") from None
            progress.notice = f"connection lost ({type(exc).__name__}); resuming at byte {progress.done}"
            report(progress)
            progress.notice = ""
            time.sleep(min(2.0, 0.25 * (failures + 1)))
    return part


def sha256_of(path: Path, progress: Progress | None = None, report: Reporter | None = None,
              cancel: threading.Event | None = None) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            digest.update(block)
            if progress is not None and report is not None:
                progress.done += len(block)
                report(progress)
            check_cancel(cancel)
    return digest.hexdigest()


def verify(part: Path, remote: RemoteFile, expected_sha256: str | None, progress: Progress,
           report: Reporter, cancel: threading.Event | None = None) -> str:
    """Size and sha256 against the Hub's metadata (and the registry's hash when it has one).

    A mismatch deletes the part file: those bytes can never become the right file.
    """
    size = part.stat().st_size
    if remote.size is not None and size != remote.size:
        part.unlink(missing_ok=True)
        raise ChecksumMismatch(f"{remote.filename}: {size} bytes on disk, the Hub says {remote.size}; "
                               "the partial file was deleted")
    progress.total, progress.done, progress.resumed_from = size, 0, 0
    progress.started = time.monotonic()
    digest = sha256_of(part, progress, report, cancel)
    for label, expected in (("registry", expected_sha256), ("Hub ETag", remote.lfs_sha256)):
        if expected and digest != expected.lower():
            part.unlink(missing_ok=True)
            raise ChecksumMismatch(f"{remote.filename}: sha256 {digest[:12]}… does not match the "
                                   f"{label} hash {expected[:12]}…; the file was deleted")
    return digest


def install(part: Path, remote: RemoteFile) -> Path:
    """Move a verified part file to its blob and let huggingface_hub link the snapshot."""
    from huggingface_hub import hf_hub_download

    part.replace(blob_path(remote))
    return Path(hf_hub_download(remote.repo, remote.filename, revision=remote.revision,
                                etag_timeout=METADATA_TIMEOUT))


def cached(remote: RemoteFile) -> Path | None:
    """The snapshot file when this exact commit's file is already in the cache."""
    pointer = storage_folder(remote.repo) / "snapshots" / remote.commit / remote.filename
    return pointer if pointer.exists() and blob_path(remote).exists() else None
