"""SQLite store of batch runs and their per-pair results.

A batch writes the (pair, metric) results of each chunk as soon as the chunk is scored, in one
committed transaction (``put_results``), so an interrupted batch loses at most the chunk that
was in flight; restarting the same run id resumes from ``done(run_id)``. Each result keeps a hash
of the pair's text (``content_hash``) so that a resumed run reuses it only for an unchanged pair.

The store stays small (about 1.5 KB per pair per run with the default metrics, where JSON
text took 34 KB): the score, error, signature (an id into ``signatures``) and content hash of a
result are columns of ``scores``, keyed by a run number, the pair's position and the metric;
the metric's whole per-pair result dict (details included, so corpus statistics and the
Differences view are rebuilt without running a model again) is a line of a compressed blob in
``details`` (engine.runs.details), which the runs holding the same result share (an edited
input's unchanged pairs, ``copy_results``). Stores written before (schema 2: every result as JSON text in
``results``) stay readable as they are; a run of them is rewritten in the compact form when it
is written to again, and ``compact()`` rewrites them all.

A finished run is checkpointed (the WAL folded into the main file), so copying the
``.sqlite`` file alone after a run loses nothing. A file that is not a SQLite database, or a
damaged one, raises ``StoreError`` naming the file.

Threads: each thread gets its own connection (``threading.local``) and the database runs in
WAL mode, so the UI can read while a batch writes; writers are serialised by SQLite itself and
wait for each other through the busy timeout instead of failing.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
import sqlite3
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self, cast

from radscope.engine.runs import details as blobs

SCHEMA_VERSION = 3  # 2: results.content_hash; 3: compact scores + shared compressed details
BUSY_TIMEOUT_S = 60.0
_PAGE_SIZE = 500  # rows fetched per query while iterating results (and pair ids per IN list)
# Registers a pair id after the run's last one, unless it is registered already.
_APPEND_PAIR = ("INSERT OR IGNORE INTO pairs(run_id, pair_id, position) VALUES (?, ?,"
                " (SELECT COALESCE(MAX(position) + 1, 0) FROM pairs WHERE run_id = ?))")
_RESULT_COLUMNS = """r.run_id, r.pair_id, p.position, r.metric, r.score, r.error, r.signature,
                     r.payload, r.elapsed_ms, r.created_at, r.content_hash"""
# A compact result row, with the columns ``_compact_row`` reads.
_SCORE_COLUMNS = """p.pair_id, s.position, s.metric, s.score, s.error, g.text, s.details, s.part,
                    s.created_ms, s.content_hash"""
_SCORE_JOINS = "JOIN signatures g ON g.id = s.signature"
_INSERT_SCORE = (
    "INSERT OR REPLACE INTO scores(run_no, position, metric, score, error, signature, content_hash,"
    " created_ms, details, part) SELECT ?, p.position, ?, ?, ?,"
    " (SELECT id FROM signatures WHERE text = ?), ?, ?, ?, ? FROM pairs p"
    " WHERE p.run_id = ? AND p.pair_id = ?")
# Another run's result of the same pair id (same pair, metric), kept as a row of this run.
_COPY_SCORE = """
    INSERT OR REPLACE INTO scores(run_no, position, metric, score, error, signature, content_hash,
                                  created_ms, details, part)
    SELECT ?, pn.position, s.metric, s.score, s.error, s.signature, s.content_hash, ?, s.details, s.part
    FROM run_keys ko JOIN pairs po ON po.run_id = ko.run_id
    JOIN scores s ON s.run_no = ko.run_no AND s.position = po.position
    JOIN pairs pn ON pn.run_id = ? AND pn.pair_id = po.pair_id
    WHERE ko.run_id = ? AND po.pair_id = ? AND s.metric = ?"""
_BLOB_CACHE = 256  # decompressed details blobs kept for reading (a page of results spans a few)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    run_id      TEXT PRIMARY KEY,
    created_at  TEXT NOT NULL,
    input       TEXT NOT NULL,
    metrics     TEXT NOT NULL,            -- JSON list of metric names, in display order
    options     TEXT NOT NULL,            -- JSON object
    status      TEXT NOT NULL,            -- 'running' | 'finished' | caller-defined
    finished_at TEXT,
    summary     TEXT                      -- JSON: the corpus summary of a finished run
);
CREATE TABLE IF NOT EXISTS pairs (
    run_id   TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    pair_id  TEXT NOT NULL,
    position INTEGER NOT NULL,            -- 0-based order of the pair in the run's input
    PRIMARY KEY (run_id, pair_id)
);
CREATE INDEX IF NOT EXISTS pairs_by_position ON pairs (run_id, position);
CREATE TABLE IF NOT EXISTS run_keys (    -- a small number for each run, so result rows stay short
    run_no INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL UNIQUE REFERENCES runs(run_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS signatures (
    id   INTEGER PRIMARY KEY,
    text TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS dictionaries ( -- zlib preset dictionaries, made from a metric's results
    id     INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: readers keep them by id
    metric TEXT NOT NULL,
    data   BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS details (      -- results' whole dicts, one metric's batch compressed together
    id         INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused (after compact): readers in other
                                          -- processes keep decompressed blobs by id
    dictionary INTEGER,                   -- dictionaries.id, or NULL when compressed without one
    data       BLOB NOT NULL              -- engine.runs.details.compress of JSON lines
);
CREATE TABLE IF NOT EXISTS scores (
    run_no       INTEGER NOT NULL REFERENCES run_keys(run_no) ON DELETE CASCADE,
    position     INTEGER NOT NULL,        -- the pair's position in pairs
    metric       TEXT NOT NULL,
    score        REAL,
    error        TEXT,
    signature    INTEGER NOT NULL,        -- signatures.id
    content_hash BLOB,                    -- hash of the pair's texts (ReportPair.content_hash)
    created_ms   INTEGER NOT NULL,        -- milliseconds since 1970 (UTC)
    details      INTEGER NOT NULL,        -- details.id: shared by the runs that hold the same result
    part         INTEGER NOT NULL,        -- the result's line in that blob
    PRIMARY KEY (run_no, position, metric)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS run_owners (   -- public app: which visitor (a hashed session) owns a run
    run_id TEXT PRIMARY KEY,
    owner  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outputs (      -- the files a finished run wrote: an identical rerun leaves them be
    run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    kind   TEXT NOT NULL,                 -- 'jsonl' | 'csv'
    path   TEXT NOT NULL,                 -- absolute
    sha256 TEXT NOT NULL,
    bytes  INTEGER NOT NULL,
    PRIMARY KEY (run_id, kind)
);
CREATE TABLE IF NOT EXISTS pair_texts (   -- the texts of a run's pairs, when the run keeps them
    run_id    TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    pair_id   TEXT NOT NULL,
    reference TEXT NOT NULL,
    candidate TEXT NOT NULL,
    modality  TEXT,
    area      TEXT,
    PRIMARY KEY (run_id, pair_id)
);
"""


class StoreError(Exception):
    """Base class for store errors that a user can act on."""


class DamagedStoreError(StoreError):
    """The store file is not a SQLite database, or it is damaged (truncated, overwritten)."""


class UnknownRunError(StoreError, KeyError):
    """The run id has never been started in this database."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class RunConflictError(StoreError, ValueError):
    """A run id is being restarted with different metrics, options or pairs."""


_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


def _place_problem(exc: sqlite3.DatabaseError) -> str | None:
    """What is wrong with where the store lives, from SQLite's (primary) error code; None when
    the error is about the file's contents."""
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    text = str(exc).lower()
    if code == _SQLITE_FULL or "disk is full" in text:
        return "the disk is full"
    if code == _SQLITE_READONLY or "readonly" in text or "read-only" in text:
        return "the store or its folder is read-only (a read-only file, folder or mount)"
    if code == _SQLITE_CANTOPEN:
        return "the store file cannot be opened (a missing or read-only folder, or no permission)"
    if code == _SQLITE_IOERR:
        return "the disk reported an I/O error (full, read-only or failing)"
    return None


def os_error_message(path: str | os.PathLike[str], exc: OSError) -> str:
    """A file system error as the cause a user can act on (full disk, read-only place...)."""
    import errno

    cause = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
             errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
             errno.EPERM: "permission denied", errno.EIO: "the disk reported an I/O error"}.get(
        exc.errno or 0, exc.strerror or str(exc))
    return f"{path}: {cause}"


def default_db_path() -> Path:
    """``$RADSCOPE_HOME/radscope.sqlite``; RADSCOPE_HOME defaults to ``~/.cache/radscope``."""
    home = os.environ.get("RADSCOPE_HOME") or os.path.join("~", ".cache", "radscope")
    return Path(home).expanduser() / "radscope.sqlite"


def _file_digest(path: Path) -> tuple[str, int]:
    """A file's SHA-256 (hex) and size in bytes, read in blocks."""
    with path.open("rb") as fh:
        digest = hashlib.file_digest(fh, "sha256").hexdigest()
    return digest, path.stat().st_size


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _iso(ms: int) -> str:
    """A stored time in milliseconds as ``_now``'s text."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


def _hash_blob(content_hash: str | None) -> bytes | str | None:
    """A content hash as the store keeps it: bytes when it is hex (half the size), else as given."""
    if content_hash is None:
        return None
    try:
        return bytes.fromhex(content_hash) if content_hash == content_hash.lower() else content_hash
    except ValueError:
        return content_hash


def _hash_text(stored: bytes | str | None) -> str | None:
    return stored.hex() if isinstance(stored, bytes) else stored


def _plain_json(value: Any) -> Any:
    """A JSON-safe copy: non-finite floats become None (JSON has no NaN), tuples become lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _plain_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_json(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # NumPy scalar
        return _plain_json(value.item())
    return value


def _dumps(value: Any, sort_keys: bool = False) -> str:
    return json.dumps(_plain_json(value), ensure_ascii=False, allow_nan=False, sort_keys=sort_keys)


def _as_dict(result: Any) -> dict[str, Any]:
    """Accept a plain mapping, an object with ``to_json()`` or a dataclass instance."""
    if isinstance(result, Mapping):
        return dict(result)
    if hasattr(result, "to_json"):
        return dict(result.to_json())
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return dataclasses.asdict(result)
    raise TypeError("a result must be a dict, a dataclass or have to_json(); "
                    f"got {type(result).__name__}")


class _JsonRow:
    """``to_json`` / ``from_json`` for the store's row dataclasses: every field out, and back in
    from a dict that may carry other keys (a newer store's, a caller's extras)."""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(cast(Any, self))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        names = {f.name for f in dataclasses.fields(cast(Any, cls))}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class RunInfo(_JsonRow):
    """One row of the runs table, with progress counts."""

    run_id: str
    created_at: str
    input: str
    metrics: list[str]
    options: dict[str, Any]
    status: str
    finished_at: str | None = None
    n_pairs: int = 0
    n_results: int = 0
    n_errors: int = 0


@dataclass
class ResultRow(_JsonRow):
    """One stored (pair, metric) result; ``payload`` is the metric's full result dict."""

    run_id: str
    pair_id: str
    position: int | None
    metric: str
    score: float | None
    error: str | None
    signature: str
    payload: dict[str, Any]
    elapsed_ms: float | None
    created_at: str
    content_hash: str | None = None

    def __getitem__(self, key: str) -> Any:
        """Rows also read like records (``row["score"]``), as callers iterating results expect."""
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)


def _result_row(r: Sequence[Any]) -> ResultRow:
    """A ``ResultRow`` from a query selecting ``_RESULT_COLUMNS`` (a schema 2 store's row)."""
    return ResultRow(run_id=r[0], pair_id=r[1], position=r[2], metric=r[3], score=r[4],
                     error=r[5], signature=r[6], payload=json.loads(r[7]), elapsed_ms=r[8],
                     created_at=r[9], content_hash=r[10])


def _checked_score(score: Any) -> float | None:
    if score is not None and not isinstance(score, (int, float)):
        raise TypeError(f"score must be a number or None, got {score!r}")
    return None if score is None else float(score)


class Store:
    """Runs and per-pair results in one SQLite file (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        if self.path.is_dir():
            raise DamagedStoreError(f"{self.path}: is a directory; the store is a file (--db)")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the store's folder: {os_error_message(self.path.parent, exc)} "
                             "(pass another store path, --db, or set RADSCOPE_HOME)") from None
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._dictionaries: dict[int, bytes] = {}  # id -> zlib preset dictionary (never changes)
        self._blobs: OrderedDict[int, list[str]] = OrderedDict()  # details id -> its JSON lines
        self._blobs_lock = threading.Lock()
        self._legacy = False  # whether schema 2 results (JSON text) are still stored
        try:
            self._open_schema()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise self.damaged(exc) from None

    def damaged(self, exc: sqlite3.DatabaseError) -> StoreError:
        """The message for a store file SQLite cannot use: the real cause when it is the place
        (read-only, full disk, I/O error, locked), "damaged" only when the file itself is."""
        cause = _place_problem(exc)
        if cause:
            return StoreError(f"{self.path}: {cause} ({exc}). Nothing stored was lost: the same "
                              "command resumes once that is fixed (or pass another store path, --db)")
        if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
            return StoreError(f"{self.path}: the store stayed locked for {BUSY_TIMEOUT_S:.0f} s "
                              f"({exc}); another process may be writing to it. Try again, or pass "
                              "another store path (--db)")
        return DamagedStoreError(
            f"{self.path}: not a usable RadScope store ({exc}); the file is damaged or is not a "
            "SQLite database. Move it away (a new store is created in its place) or pass "
            "another store path (--db)")

    def _open_schema(self) -> None:
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")  # persistent: stored in the database file
        conn.executescript(f"BEGIN IMMEDIATE;\n{_SCHEMA}\nCOMMIT;")
        with self._write(conn):
            conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)",
                         (str(SCHEMA_VERSION),))
            self._migrate(conn)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        """A schema 1 or 2 store keeps its ``results`` table as it is (read as before). Version
        1 stores have no ``content_hash``: the column is added empty, so their results are
        never reused for a resumed run (they are recomputed, and counted)."""
        if "summary" not in {r[1] for r in conn.execute("PRAGMA table_info(runs)")}:
            conn.execute("ALTER TABLE runs ADD COLUMN summary TEXT")
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'results'").fetchone():
            columns = {r[1] for r in conn.execute("PRAGMA table_info(results)")}
            if "content_hash" not in columns:
                conn.execute("ALTER TABLE results ADD COLUMN content_hash TEXT")
            self._legacy = conn.execute("SELECT 1 FROM results LIMIT 1").fetchone() is not None
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))

    def checkpoint(self) -> bool:
        """Fold the write-ahead log into the database file, so the file alone is complete.
        False when other connections kept it from finishing (the results are safe in the
        -wal file; the next checkpoint or the last connection to close folds them in)."""
        try:
            busy, _, _ = self._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.OperationalError:  # locked past the busy timeout
            return False
        return busy == 0

    def size_bytes(self) -> int:
        """The store's size on disk: its file and write-ahead log."""
        wal = self.path.with_name(self.path.name + "-wal")
        return sum(f.stat().st_size for f in (self.path, wal) if f.exists())

    # --- connections ---------------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            # Autocommit mode: transactions are opened explicitly (BEGIN IMMEDIATE) so that a
            # read-then-write never has to upgrade its lock, which SQLite refuses under contention.
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA synchronous=NORMAL")  # durable across process crashes in WAL
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    @contextmanager
    def _write(self, conn: sqlite3.Connection | None = None) -> Iterator[sqlite3.Connection]:
        """One write transaction. A Ctrl+C can land between BEGIN and the ``try`` or inside
        COMMIT, and leave this thread's connection in a transaction that no one ends; the next
        write then failed with "cannot start a transaction within a transaction" (reported as a
        damaged store). Such a leftover is rolled back first (writes never nest), and an
        interrupted COMMIT rolls back like an interrupted body."""
        conn = conn or self._conn()
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def close(self) -> None:
        """Close every connection this store opened (in any thread)."""
        with self._all_lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- runs ----------------------------------------------------------------------------------

    def start_run(self, run_id: str, input: str, metrics: Sequence[str],
                  options: Mapping[str, Any] | None = None,
                  pair_ids: Sequence[str] | None = None) -> RunInfo:
        """Create a run, or resume it when the id exists.

        Resuming keeps every stored result. The metrics (as a set) and options must match the
        stored ones, because mixing results computed under different settings in one run would
        make its numbers meaningless; a mismatch raises ``RunConflictError``. When ``pair_ids``
        is given it fixes the input order; on resume it must equal the registered order.
        """
        metrics = list(metrics)
        if not metrics:
            raise ValueError("a run needs at least one metric")
        if len(set(metrics)) != len(metrics):
            raise ValueError(f"metric names repeat: {metrics}")
        options_json = _dumps(dict(options or {}), sort_keys=True)
        with self._write() as conn:
            row = conn.execute("SELECT metrics, options FROM runs WHERE run_id = ?",
                               (run_id,)).fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO runs(run_id, created_at, input, metrics, options, status)"
                    " VALUES (?, ?, ?, ?, ?, 'running')",
                    (run_id, _now(), input, json.dumps(metrics), options_json))
            else:
                self._check_same_setup(run_id, row, metrics, options_json)
                conn.execute("UPDATE runs SET status = 'running', finished_at = NULL"
                             " WHERE run_id = ?", (run_id,))
                self._rewrite_legacy(conn, run_id)
            if pair_ids is not None:
                self._register_pairs(conn, run_id, list(pair_ids), must_match=row is not None)
        info = self.get_run(run_id)
        assert info is not None
        return info

    def check_run(self, run_id: str, metrics: Sequence[str],
                  options: Mapping[str, Any] | None = None) -> RunInfo:
        """A stored run, after checking (without writing anything) that it was run with these
        metrics and options, as ``start_run`` would before resuming it."""
        info = self.get_run(run_id)
        if info is None:
            raise UnknownRunError(f"no run {run_id!r} in this store")
        self._check_same_setup(run_id, (json.dumps(info.metrics), json.dumps(info.options)),
                               list(metrics), _dumps(dict(options or {}), sort_keys=True))
        return info

    @staticmethod
    def _check_same_setup(run_id: str, row: tuple[str, str], metrics: list[str],
                          options_json: str) -> None:
        stored_metrics = json.loads(row[0])
        if sorted(stored_metrics) != sorted(metrics):
            raise RunConflictError(
                f"run {run_id!r} already exists with metrics {stored_metrics}, not {metrics}; "
                "use a new run id to score with a different set of metrics")
        if json.loads(row[1]) != json.loads(options_json):
            raise RunConflictError(
                f"run {run_id!r} already exists with options {row[1]}, not {options_json}; "
                "use a new run id, since results computed under different options cannot be mixed")

    def put_pairs(self, run_id: str, pair_ids: Sequence[str]) -> None:
        """Append pair ids to the run's input order (ids already registered keep their place)."""
        with self._write() as conn:
            self._require_run(conn, run_id)
            self._register_pairs(conn, run_id, list(pair_ids), must_match=False)

    def _register_pairs(self, conn: sqlite3.Connection, run_id: str, pair_ids: list[str],
                        must_match: bool) -> None:
        if len(set(pair_ids)) != len(pair_ids):
            dupes = sorted(p for p, k in Counter(pair_ids).items() if k > 1)
            raise ValueError(f"pair ids repeat within run {run_id!r}: {dupes[:10]}")
        if must_match:
            existing = [r[0] for r in conn.execute(
                "SELECT pair_id FROM pairs WHERE run_id = ? ORDER BY position", (run_id,))]
            if existing and existing != pair_ids:
                raise RunConflictError(
                    f"run {run_id!r} was started on {len(existing)} pairs and is now resumed on "
                    f"{len(pair_ids)} pairs in a different order or with different ids; "
                    "use a new run id for a different input")
        # Ids already registered keep their place; the others go last, in the order given (a
        # run registering a million ids chunk by chunk never reads the ones stored before).
        conn.executemany(_APPEND_PAIR, [(run_id, p, run_id) for p in pair_ids])

    @staticmethod
    def _require_run(conn: sqlite3.Connection, run_id: str) -> None:
        if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone() is None:
            raise UnknownRunError(f"no run {run_id!r} in this store; call start_run first")

    def finish_run(self, run_id: str, status: str = "finished",
                   summary: Mapping[str, Any] | None = None) -> None:
        """Mark a run finished (or another final status such as 'cancelled' or 'failed'), keep
        its corpus ``summary`` (an identical rerun answers with it), and checkpoint the store
        so its main file holds every result."""
        with self._write() as conn:
            self._require_run(conn, run_id)
            conn.execute("UPDATE runs SET status = ?, finished_at = ?, summary = ? WHERE run_id = ?",
                         (status, _now(), None if summary is None else _dumps(summary), run_id))
        self.checkpoint()

    def record_output(self, run_id: str, kind: str, path: str | os.PathLike[str]) -> None:
        """Remember the file a finished run wrote (its path, size and SHA-256), so that an
        identical rerun can tell that the file still holds this run's results."""
        final = Path(path).resolve()
        digest, size = _file_digest(final)
        with self._write() as conn:
            self._require_run(conn, run_id)
            conn.execute("INSERT OR REPLACE INTO outputs(run_id, kind, path, sha256, bytes) VALUES (?, ?, ?, ?, ?)",
                         (run_id, kind, str(final), digest, size))

    def output_unchanged(self, run_id: str, kind: str, path: str | os.PathLike[str]) -> bool:
        """Whether ``path`` is the file this run wrote as ``kind``, byte for byte (same path,
        size and SHA-256): a file edited, moved or replaced since is not."""
        final = Path(path).resolve()
        row = self._conn().execute("SELECT path, sha256, bytes FROM outputs WHERE run_id = ? AND kind = ?",
                                   (run_id, kind)).fetchone()
        if row is None or row[0] != str(final) or not final.is_file() or final.stat().st_size != row[2]:
            return False
        return _file_digest(final)[0] == row[1]

    def run_summary(self, run_id: str) -> dict[str, Any] | None:
        """The summary kept when the run finished (None: none kept, or the run is not finished)."""
        row = self._conn().execute("SELECT summary FROM runs WHERE run_id = ? AND status = 'finished'",
                                   (run_id,)).fetchone()
        return None if row is None or row[0] is None else dict(json.loads(row[0]))

    def get_run(self, run_id: str) -> RunInfo | None:
        rows = self._run_rows("WHERE r.run_id = ?", (run_id,))
        return rows[0] if rows else None

    def list_runs(self, owner: str | None = None) -> list[RunInfo]:
        """All runs, newest first; with ``owner``, only the runs that owner claimed."""
        if owner is None:
            return self._run_rows("", ())
        return self._run_rows("WHERE r.run_id IN (SELECT run_id FROM run_owners WHERE owner = ?)",
                              (owner,))

    def claim_run(self, run_id: str, owner: str) -> bool:
        """Bind ``run_id`` to ``owner`` unless it is taken: True when the owner may use the id
        (new, or already theirs); False when another owner holds it or the run exists without
        one (a command-line or local run), so a visitor never reads someone else's results."""
        with self._write() as conn:
            held = conn.execute("SELECT owner FROM run_owners WHERE run_id = ?",
                                (run_id,)).fetchone()
            if held is not None:
                return held[0] == owner
            if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone():
                return False
            conn.execute("INSERT INTO run_owners(run_id, owner) VALUES (?, ?)", (run_id, owner))
            return True

    def _run_rows(self, where: str, params: tuple[Any, ...]) -> list[RunInfo]:
        sql = f"""
            SELECT r.run_id, r.created_at, r.input, r.metrics, r.options, r.status, r.finished_at,
                   (SELECT COUNT(*) FROM pairs p WHERE p.run_id = r.run_id),
                   (SELECT COUNT(*) FROM scores s JOIN run_keys k ON k.run_no = s.run_no
                     WHERE k.run_id = r.run_id),
                   (SELECT COUNT(*) FROM scores s JOIN run_keys k ON k.run_no = s.run_no
                     WHERE k.run_id = r.run_id AND s.error IS NOT NULL)
                   {self._legacy_counts()}
            FROM runs r {where}
            ORDER BY r.created_at DESC, r.run_id"""
        return [RunInfo(run_id=r[0], created_at=r[1], input=r[2], metrics=json.loads(r[3]),
                        options=json.loads(r[4]), status=r[5], finished_at=r[6], n_pairs=r[7],
                        n_results=r[8] + (r[10] if self._legacy else 0),
                        n_errors=r[9] + (r[11] if self._legacy else 0))
                for r in self._conn().execute(sql, params)]

    def _legacy_counts(self) -> str:
        """The schema 2 results' counts, as two more columns of ``_run_rows``'s query."""
        if not self._legacy:
            return ""
        return """, (SELECT COUNT(*) FROM results s WHERE s.run_id = r.run_id),
                   (SELECT COUNT(*) FROM results s WHERE s.run_id = r.run_id AND s.error IS NOT NULL)"""

    def remove_run(self, run_id: str) -> bool:
        """Delete a run, its pairs and results (details that no other run shares are freed by
        ``compact``). False when there is no such run."""
        with self._write() as conn:
            gone = conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,)).rowcount
            conn.execute("DELETE FROM run_owners WHERE run_id = ?", (run_id,))
        return bool(gone)

    def compact(self) -> None:
        """Rewrite every schema 2 run in the compact form, drop the details no run holds any
        more, and VACUUM, so that the file shrinks to what the store holds."""
        with self._write() as conn:
            if self._legacy:
                for (run_id,) in conn.execute("SELECT DISTINCT run_id FROM results").fetchall():
                    self._rewrite_legacy(conn, run_id)
                self._legacy = False
            conn.execute("DELETE FROM details WHERE id NOT IN (SELECT details FROM scores)")
        with self._blobs_lock:
            self._blobs.clear()
        self._conn().execute("VACUUM")
        self.checkpoint()

    def run_sizes(self, run_ids: Sequence[str] | None = None) -> dict[str, int]:
        """run id -> about how many bytes its results take: the compressed details it holds
        (a blob shared with another run counts for both) and its rows; of ``run_ids`` only,
        when given (each run's rows are read: a listing asks for the runs it shows)."""
        conn = self._conn()
        wanted = list(run_ids) if run_ids is not None else [r[0] for r in conn.execute(
            "SELECT run_id FROM runs")]
        sizes: dict[str, int] = {}
        for run_id in wanted:
            row = conn.execute(
                """SELECT (SELECT SUM(length(d.data)) FROM details d WHERE d.id IN
                              (SELECT DISTINCT s.details FROM scores s WHERE s.run_no = k.run_no)),
                          (SELECT COUNT(*) FROM scores s WHERE s.run_no = k.run_no)
                   FROM run_keys k WHERE k.run_id = ?""", (run_id,)).fetchone()
            if row is not None:
                sizes[run_id] = int(row[0] or 0) + 48 * int(row[1])
            if self._legacy_run(run_id):
                legacy = conn.execute("SELECT SUM(length(payload) + 100) FROM results WHERE run_id = ?",
                                      (run_id,)).fetchone()[0]
                sizes[run_id] = sizes.get(run_id, 0) + int(legacy or 0)
        return sizes

    # --- results -------------------------------------------------------------------------------

    def put_results(self, run_id: str,
                    results: Sequence[tuple[str, str, Any, str | None]]) -> None:
        """Store (pair id, metric, result, content hash) entries in one committed transaction.

        ``result`` is the metric's per-pair result dict (or a dataclass / object with
        ``to_json``); ``score``, ``error`` and ``signature`` are read from it into columns and
        the whole dict is kept, compressed, as its details. Storing the same key again replaces
        it (a retried pair). A pair id not yet registered is appended to the run's input order.
        ``content_hash`` identifies the pair's texts the result was computed on.
        """
        cleaned = [(pair_id, metric, _plain_json(_as_dict(result)), content_hash)
                   for pair_id, metric, result, content_hash in results]
        if not cleaned:
            return
        texts = [blobs.to_json(data) for _, _, data, _ in cleaned]
        with self._write() as conn:
            self._require_run(conn, run_id)
            self._rewrite_legacy(conn, run_id)
            self._insert_compact(conn, run_id, cleaned, texts, int(time.time() * 1000))

    def _insert_compact(self, conn: sqlite3.Connection, run_id: str,
                        cleaned: Sequence[tuple[str, str, dict[str, Any], Any]],
                        texts: Sequence[str], created_ms: int | Sequence[int]) -> None:
        """Write cleaned results (``texts``: their JSON) as compact rows, inside a transaction."""
        run_no = self._run_no(conn, run_id)
        conn.executemany(_APPEND_PAIR, [(run_id, pair_id, run_id) for pair_id, *_ in cleaned])
        dictionaries = self._dictionaries_for(conn, cleaned, texts)
        by_metric: dict[str, list[int]] = {}
        for i, (_, metric, _, _) in enumerate(cleaned):
            by_metric.setdefault(metric, []).append(i)
        where: list[tuple[int, int]] = [(0, 0)] * len(cleaned)  # (details id, line)
        for metric, rows in by_metric.items():
            dictionary_id, dictionary = dictionaries[metric]
            blob = blobs.compress("\n".join(texts[i] for i in rows), dictionary)
            details_id = conn.execute("INSERT INTO details(dictionary, data) VALUES (?, ?)",
                                      (dictionary_id, blob)).lastrowid
            assert details_id is not None
            for line, i in enumerate(rows):
                where[i] = (details_id, line)
        conn.executemany("INSERT OR IGNORE INTO signatures(text) VALUES (?)",
                         [(str(data.get("signature") or ""),) for _, _, data, _ in cleaned])
        times = [created_ms] * len(cleaned) if isinstance(created_ms, int) else created_ms
        conn.executemany(_INSERT_SCORE, [
            (run_no, metric, _checked_score(data.get("score")),
             None if data.get("error") is None else str(data["error"]),
             str(data.get("signature") or ""), _hash_blob(content_hash), when, *place, run_id, pair_id)
            for (pair_id, metric, data, content_hash), place, when
            in zip(cleaned, where, times, strict=True)])

    def copy_results(self, run_id: str, earlier: str,
                     results: Sequence[tuple[str, str, Any, str | None]]) -> None:
        """Store (pair id, metric, result, content hash) entries that were read from the run
        ``earlier`` (the same pair id there): its rows are copied and share its details, so
        only a short row per result is written."""
        if not results:
            return
        if self._legacy_run(earlier):
            self.put_results(run_id, results)
            return
        with self._write() as conn:
            self._require_run(conn, run_id)
            run_no = self._run_no(conn, run_id)
            conn.executemany(_APPEND_PAIR, [(run_id, pair_id, run_id) for pair_id, *_ in results])
            now = int(time.time() * 1000)
            conn.executemany(_COPY_SCORE, [(run_no, now, run_id, earlier, pair_id, metric)
                                           for pair_id, metric, _, _ in results])

    @staticmethod
    def _run_no(conn: sqlite3.Connection, run_id: str) -> int:
        conn.execute("INSERT OR IGNORE INTO run_keys(run_id) VALUES (?)", (run_id,))
        return int(conn.execute("SELECT run_no FROM run_keys WHERE run_id = ?", (run_id,)).fetchone()[0])

    def _dictionaries_for(self, conn: sqlite3.Connection,
                          cleaned: Sequence[tuple[str, str, dict[str, Any], Any]],
                          texts: Sequence[str]) -> dict[str, tuple[int | None, bytes | None]]:
        """metric -> (id, bytes) of the dictionary its results are compressed with: the
        metric's newest one, else one made now from these results, else none yet."""
        found: dict[str, tuple[int | None, bytes | None]] = {}
        for metric in {m for _, m, _, _ in cleaned}:
            row = conn.execute("SELECT id, data FROM dictionaries WHERE metric = ? ORDER BY id DESC"
                               " LIMIT 1", (metric,)).fetchone()
            if row is None:
                made = blobs.make_dictionary([text for text, (_, m, data, _) in zip(texts, cleaned, strict=True)
                                              if m == metric and data.get("error") is None])
                if made is not None:
                    cursor = conn.execute("INSERT INTO dictionaries(metric, data) VALUES (?, ?)",
                                          (metric, made))
                    row = (cursor.lastrowid, made)
            found[metric] = (row[0], bytes(row[1])) if row else (None, None)
            if row:
                self._dictionaries[row[0]] = bytes(row[1])
        return found

    def _dictionary(self, dictionary_id: int | None) -> bytes | None:
        if dictionary_id is None:
            return None
        known = self._dictionaries.get(dictionary_id)
        if known is None:
            row = self._conn().execute("SELECT data FROM dictionaries WHERE id = ?",
                                       (dictionary_id,)).fetchone()
            known = self._dictionaries[dictionary_id] = bytes(row[0])
        return known

    def _lines(self, details_id: int) -> list[str]:
        """The JSON lines of one details blob (the most recently read are kept decompressed)."""
        with self._blobs_lock:
            lines = self._blobs.get(details_id)
            if lines is not None:
                self._blobs.move_to_end(details_id)
                return lines
        dictionary_id, data = self._conn().execute(
            "SELECT dictionary, data FROM details WHERE id = ?", (details_id,)).fetchone()
        lines = blobs.decompress(data, self._dictionary(dictionary_id)).split("\n")
        with self._blobs_lock:
            self._blobs[details_id] = lines
            while len(self._blobs) > _BLOB_CACHE:
                self._blobs.popitem(last=False)
        return lines

    def _compact_row(self, run_id: str, r: Sequence[Any], details: bool = True) -> ResultRow:
        """A ``ResultRow`` from a query selecting ``_SCORE_COLUMNS`` (without ``details``, an
        empty payload unless the result is an error)."""
        payload = dict(json.loads(self._lines(r[6])[r[7]])) if details or r[4] is not None else {}
        elapsed = payload.get("elapsed_ms")
        return ResultRow(run_id=run_id, pair_id=r[0], position=r[1], metric=r[2], score=r[3],
                         error=r[4], signature=r[5], payload=payload,
                         elapsed_ms=None if elapsed is None else float(elapsed),
                         created_at=_iso(r[8]), content_hash=_hash_text(r[9]))

    def _rewrite_legacy(self, conn: sqlite3.Connection, run_id: str) -> None:
        """Move a run's schema 2 results (JSON text) into the compact tables, inside a write
        transaction, so that a run written to again is never half in each form."""
        if not self._legacy:
            return
        rows = [_result_row(r) for r in conn.execute(
            f"""SELECT {_RESULT_COLUMNS} FROM results r
               LEFT JOIN pairs p ON p.run_id = r.run_id AND p.pair_id = r.pair_id
               WHERE r.run_id = ?""", (run_id,))]
        if not rows:
            return
        cleaned = [(row.pair_id, row.metric, row.payload, row.content_hash) for row in rows]
        times = [int(datetime.fromisoformat(row.created_at).timestamp() * 1000) for row in rows]
        self._insert_compact(conn, run_id, cleaned, [blobs.to_json(c[2]) for c in cleaned], times)
        conn.execute("DELETE FROM results WHERE run_id = ?", (run_id,))

    def _legacy_run(self, run_id: str) -> bool:
        """Whether the run's results are still in the schema 2 form (never written to since)."""
        return self._legacy and self._conn().execute(
            "SELECT 1 FROM results WHERE run_id = ? LIMIT 1", (run_id,)).fetchone() is not None

    def done(self, run_id: str, include_errors: bool = True) -> set[tuple[str, str]]:
        """(pair_id, metric) keys already stored for the run.

        Errors count as done by default so that a resumed batch does not loop on a pair that
        always fails; pass ``include_errors=False`` to retry failed pairs.
        """
        if self._legacy_run(run_id):
            sql = "SELECT pair_id, metric FROM results WHERE run_id = ?"
        else:
            sql = ("SELECT p.pair_id, s.metric FROM run_keys k JOIN scores s ON s.run_no = k.run_no"
                   " JOIN pairs p ON p.run_id = k.run_id AND p.position = s.position WHERE k.run_id = ?")
        if not include_errors:
            sql += " AND error IS NULL"
        return {(r[0], r[1]) for r in self._conn().execute(sql, (run_id,))}

    def results(self, run_id: str) -> Iterator[ResultRow]:
        """Stored results in input order (pair position, then metric name), fetched page by page."""
        if self._legacy_run(run_id):
            yield from self._legacy_results(run_id)
            return
        conn = self._conn()
        key = conn.execute("SELECT run_no FROM run_keys WHERE run_id = ?", (run_id,)).fetchone()
        if key is None:
            return
        last: tuple[int, str] = (-1, "")
        while True:
            page = conn.execute(
                f"""SELECT {_SCORE_COLUMNS} FROM scores s
                   JOIN pairs p ON p.run_id = ? AND p.position = s.position {_SCORE_JOINS}
                   WHERE s.run_no = ? AND (s.position, s.metric) > (?, ?)
                   ORDER BY s.position, s.metric LIMIT ?""",
                (run_id, key[0], *last, _PAGE_SIZE)).fetchall()
            yield from (self._compact_row(run_id, r) for r in page)
            if len(page) < _PAGE_SIZE:
                return
            last = (page[-1][1], page[-1][2])

    def _legacy_results(self, run_id: str) -> Iterator[ResultRow]:
        conn = self._conn()
        last: tuple[int, str, str] = (-1, "", "")
        while True:
            page = conn.execute(
                f"""SELECT {_RESULT_COLUMNS}
                   FROM results r JOIN pairs p ON p.run_id = r.run_id AND p.pair_id = r.pair_id
                   WHERE r.run_id = ? AND (p.position, r.pair_id, r.metric) > (?, ?, ?)
                   ORDER BY p.position, r.pair_id, r.metric LIMIT ?""",
                (run_id, *last, _PAGE_SIZE)).fetchall()
            yield from map(_result_row, page)
            if len(page) < _PAGE_SIZE:
                return
            last = (page[-1][2], page[-1][1], page[-1][3])

    def put_texts(self, run_id: str, pairs: Sequence[Mapping[str, Any]]) -> None:
        """Keep the texts of a run's pairs (``id``, ``reference``, ``candidate``, ``modality``,
        ``area``), so that a stored comparison can be shown again without its input file."""
        rows = [(run_id, str(p["id"]), p["reference"], p["candidate"], p.get("modality"),
                 p.get("area")) for p in pairs]
        with self._write() as conn:
            self._require_run(conn, run_id)
            conn.executemany("INSERT OR REPLACE INTO pair_texts(run_id, pair_id, reference, candidate,"
                             " modality, area) VALUES (?, ?, ?, ?, ?, ?)", rows)

    def texts(self, run_id: str) -> dict[str, dict[str, Any]]:
        """pair id -> its texts, for the pairs whose texts the run kept (see ``put_texts``)."""
        return {r[0]: {"id": r[0], "reference": r[1], "candidate": r[2], "modality": r[3],
                       "area": r[4]}
                for r in self._conn().execute(
                    "SELECT pair_id, reference, candidate, modality, area FROM pair_texts"
                    " WHERE run_id = ?", (run_id,))}

    def results_for(self, run_id: str, pair_ids: Sequence[str], details: bool = True) -> list[ResultRow]:
        """The stored results of these pairs (any order): a run resumed chunk by chunk reads
        only the chunk's results, never the whole run's. Without ``details`` only a failed
        result's payload is read (what a count of the reusable results needs); the others'
        payloads are empty."""
        conn = self._conn()
        legacy = self._legacy_run(run_id)
        found: list[ResultRow] = []
        for start in range(0, len(pair_ids), _PAGE_SIZE):
            ids = list(pair_ids[start:start + _PAGE_SIZE])
            marks = ", ".join("?" * len(ids))
            if legacy:
                found.extend(map(_result_row, conn.execute(
                    f"""SELECT {_RESULT_COLUMNS}
                       FROM results r LEFT JOIN pairs p ON p.run_id = r.run_id AND p.pair_id = r.pair_id
                       WHERE r.run_id = ? AND r.pair_id IN ({marks})""", (run_id, *ids))))
                continue
            # CROSS JOIN keeps the pairs outermost: their ids select the few rows wanted.
            found.extend(self._compact_row(run_id, r, details) for r in conn.execute(
                f"""SELECT {_SCORE_COLUMNS} FROM run_keys k CROSS JOIN pairs p
                   CROSS JOIN scores s ON s.run_no = k.run_no AND s.position = p.position {_SCORE_JOINS}
                   WHERE k.run_id = ? AND p.run_id = ? AND p.pair_id IN ({marks})""",
                (run_id, run_id, *ids)))
        return found
