"""A local stand-in for the Hugging Face Hub's download protocol, served on 127.0.0.1.

It answers what huggingface_hub 2.4 asks for when ``HF_ENDPOINT`` points at it:

* ``HEAD|GET /{org}/{name}/resolve/{revision}/{file}``: ``ETag`` (the content sha256 for
  large files, as LFS files have; a git-style sha1 for small ones, also in ``X-Linked-Etag``
  for large ones), ``X-Repo-Commit``, ``Content-Length``, ``Accept-Ranges`` and, for a
  ``Range: bytes=N-`` request, ``206`` with ``Content-Range``;
* ``GET /api/models/{org}/{name}[/revision/{revision}]``: the model info JSON with ``sha`` and
  ``siblings`` (with ``size`` and ``lfs`` when ``?blobs=true``);
* unknown repositories, revisions and files: 404 with the Hub's ``X-Error-Code`` header.

Faults for tests: ``drop_after[file] = n`` closes the connection after n bytes of the next
GET of that file (once); ``bad_etag[file] = sha`` advertises a wrong hash; ``slow[file] = s``
waits s seconds between 64 KB chunks. Every request is logged in ``requests`` as (method,
path, Range header).
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

LFS_THRESHOLD = 10_000  # bytes; larger files are served as LFS files (sha256 ETag)


@dataclass
class Repo:
    commit: str
    files: dict[str, bytes]
    revisions: tuple[str, ...] = ("main",)


@dataclass
class FakeHub:
    repos: dict[str, Repo] = field(default_factory=dict)
    drop_after: dict[str, int] = field(default_factory=dict)
    bad_etag: dict[str, str] = field(default_factory=dict)
    slow: dict[str, float] = field(default_factory=dict)
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def add(self, repo: str, files: dict[str, bytes]) -> Repo:
        commit = hashlib.sha1(repo.encode() + b"".join(n.encode() + files[n] for n in sorted(files))).hexdigest()
        self.repos[repo] = Repo(commit, files)
        return self.repos[repo]

    def start(self) -> FakeHub:
        hub = self

        class Handler(_Handler):
            fake = hub

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def ranges(self, filename: str) -> list[str | None]:
        """The Range headers of every GET of ``filename`` so far."""
        return [r for m, p, r in self.requests if m == "GET" and p.endswith("/" + filename)]


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A client that hangs up (a cancelled download) is expected here, not an error."""


def etag_of(name: str, data: bytes, hub: FakeHub) -> tuple[str, bool]:
    if name in hub.bad_etag:
        return hub.bad_etag[name], True
    if len(data) > LFS_THRESHOLD:
        return hashlib.sha256(data).hexdigest(), True
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(), False


class _Handler(BaseHTTPRequestHandler):
    fake: FakeHub
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def _not_found(self, code: str) -> None:
        body = json.dumps({"error": code}).encode()
        self.send_response(404)
        self.send_header("X-Error-Code", code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, payload: object) -> None:
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _route(self) -> None:
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        self.fake.requests.append((self.command, path, self.headers.get("Range")))
        segs = path.strip("/").split("/")
        if segs[:2] == ["api", "models"] and len(segs) >= 4:
            repo_id = "/".join(segs[2:4])
            revision = segs[5] if len(segs) >= 6 and segs[4] == "revision" else "main"
            return self._info(repo_id, revision, "blobs=true" in (parts.query or "").lower())
        if len(segs) >= 5 and segs[2] == "resolve":
            return self._resolve("/".join(segs[:2]), segs[3], "/".join(segs[4:]))
        self._not_found("EntryNotFound")

    def _repo(self, repo_id: str, revision: str) -> Repo | None:
        repo = self.fake.repos.get(repo_id)
        if repo is None:
            self._not_found("RepoNotFound")
            return None
        if revision not in (*repo.revisions, repo.commit):
            self._not_found("RevisionNotFound")
            return None
        return repo

    def _info(self, repo_id: str, revision: str, blobs: bool) -> None:
        repo = self._repo(repo_id, revision)
        if repo is None:
            return
        siblings = []
        for name, data in sorted(repo.files.items()):
            sib: dict[str, object] = {"rfilename": name}
            if blobs:
                etag, lfs = etag_of(name, data, self.fake)
                sib["size"] = len(data)
                sib["blobId"] = hashlib.sha1(data).hexdigest()
                if lfs:
                    sib["lfs"] = {"sha256": etag, "size": len(data), "pointerSize": 134}
            siblings.append(sib)
        self._json({"_id": repo.commit[:24], "id": repo_id, "modelId": repo_id, "sha": repo.commit,
                    "private": False, "disabled": False, "gated": False, "downloads": 0,
                    "likes": 0, "tags": [], "siblings": siblings,
                    "lastModified": "2026-01-01T00:00:00.000Z"})

    def _resolve(self, repo_id: str, revision: str, filename: str) -> None:
        repo = self._repo(repo_id, revision)
        if repo is None:
            return
        if filename not in repo.files:
            self._not_found("EntryNotFound")
            return
        data = repo.files[filename]
        etag, lfs = etag_of(filename, data, self.fake)
        start = 0
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes=") and self.command == "GET":
            start = int(rng[6:].split("-")[0] or 0)
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        body = data[start:]
        self.send_response(206 if start else 200)
        self.send_header("ETag", f'"{etag}"')
        if lfs:
            self.send_header("X-Linked-Etag", f'"{etag}"')
            self.send_header("X-Linked-Size", str(len(data)))
        self.send_header("X-Repo-Commit", repo.commit)
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.end_headers()
        if self.command == "HEAD":
            return
        cut = self.fake.drop_after.pop(filename, None)
        if cut is not None and cut < len(body):
            self.wfile.write(body[:cut])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)  # the connection drops mid-file
            return
        pause = self.fake.slow.get(filename)
        if pause is None:
            self.wfile.write(body)
            return
        for at in range(0, len(body), 1 << 16):
            self.wfile.write(body[at:at + (1 << 16)])
            self.wfile.flush()
            time.sleep(pause)

    def do_HEAD(self) -> None:
        self._route()

    def do_GET(self) -> None:
        self._route()
