"""SQLite cache of judge calls, and of model-file hashes.

Every call to a judge is stored under a key made of everything that decides its answer: the
model (id + file hash or revision, chat template, backend), the prompt id and version, the
rendered messages, the output constraint and the decoding settings. Decoding is deterministic,
so a stored answer *is* the answer; scoring the same pairs again makes no model call.

The hash of a multi-gigabyte GGUF takes seconds to compute, so it is kept here too, keyed by
path, size and modification time: computed once per file version, not once per run.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE_FILE = "llm_cache.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    key               TEXT PRIMARY KEY,
    model             TEXT NOT NULL,
    prompt            TEXT NOT NULL,
    text              TEXT NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    finish_reason     TEXT NOT NULL,
    created_at        REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS file_hashes (
    path     TEXT NOT NULL,
    size     INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256   TEXT NOT NULL,
    PRIMARY KEY (path, size, mtime_ns)
);
"""


def radscope_home() -> Path:
    """``$RADSCOPE_HOME`` (default ``~/.cache/radscope``): the store and the caches live here."""
    return Path(os.environ.get("RADSCOPE_HOME") or Path.home() / ".cache" / "radscope").expanduser()


def default_cache_path() -> Path:
    return radscope_home() / CACHE_FILE


@dataclass(frozen=True)
class CachedCall:
    """One stored completion: the raw text and what it cost when it was made."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str


def call_key(parts: dict[str, Any]) -> str:
    """A stable hash of the parts of a request (canonical JSON, sorted keys)."""
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CallCache:
    """Thread-safe SQLite cache (one connection behind a lock; WAL so readers do not block)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False, timeout=60)
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.executescript(_SCHEMA)
            self._conn.commit()

    def get(self, key: str) -> CachedCall | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT text, prompt_tokens, completion_tokens, finish_reason FROM calls "
                "WHERE key = ?", (key,)).fetchone()
        return CachedCall(*row) if row else None

    def put(self, key: str, call: CachedCall, model: str, prompt: str) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (key, model, prompt, call.text, call.prompt_tokens, call.completion_tokens,
                 call.finish_reason, time.time()))
            self._conn.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def file_sha256(self, path: Path) -> str:
        """The file's SHA-256, computed once per (path, size, mtime) and remembered."""
        from radscope.models.resolve import file_sha256

        path = Path(path).resolve()
        stat = path.stat()
        ident = (str(path), stat.st_size, stat.st_mtime_ns)
        with self._lock:
            row = self._conn.execute(
                "SELECT sha256 FROM file_hashes WHERE path = ? AND size = ? AND mtime_ns = ?",
                ident).fetchone()
        if row:
            return str(row[0])
        digest = file_sha256(path)
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO file_hashes VALUES (?, ?, ?, ?)",
                               (*ident, digest))
            self._conn.commit()
        return digest

    def close(self) -> None:
        with self._lock:
            self._conn.close()
