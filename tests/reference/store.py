"""Store conveniences only the tests use: one result stored at a time, and a run's scores as a
pandas frame (one row per registered pair, in input order). The engine stores results in
batches (``Store.put_results``) and reads them as rows (``Store.results``)."""
from __future__ import annotations

from typing import Any

import pandas as pd

from radscope.engine.runs.store import Store, UnknownRunError


def put_result(store: Store, run_id: str, pair_id: str, metric: str, result: Any,
               content_hash: str | None = None) -> None:
    """Store one (pair, metric) result and commit at once (see ``Store.put_results``)."""
    store.put_results(run_id, [(pair_id, metric, result, content_hash)])


def results_frame(store: Store, run_id: str) -> pd.DataFrame:
    """One row per registered pair, in input order: ``pair_id``, then per metric
    ``<metric>_score`` and ``<metric>_error`` (NaN / None where nothing is stored yet)."""
    info = store.get_run(run_id)
    if info is None:
        raise UnknownRunError(f"no run {run_id!r} in this store")
    conn = store._conn()
    pair_ids = [r[0] for r in conn.execute(
        "SELECT pair_id FROM pairs WHERE run_id = ? ORDER BY position", (run_id,))]
    stored = [(r.pair_id, r.metric, r.score, r.error) for r in store.results(run_id)]
    metrics = list(info.metrics)
    metrics += sorted({r[1] for r in stored} - set(metrics))
    found = pd.DataFrame(stored, columns=["pair_id", "metric", "score", "error"])
    frame = pd.DataFrame({"pair_id": pd.Series(pair_ids, dtype="object")})
    for metric in metrics:
        mine = found[found["metric"] == metric].set_index("pair_id")
        frame[f"{metric}_score"] = frame["pair_id"].map(mine["score"]).astype("float64")
        errors = frame["pair_id"].map(mine["error"]).astype("object")
        frame[f"{metric}_error"] = errors.where(errors.notna(), None)
    return frame


# The tables of a schema 2 store (RadScope before the compact store), as that version wrote them.
_SCHEMA_2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (run_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, input TEXT NOT NULL,
                   metrics TEXT NOT NULL, options TEXT NOT NULL, status TEXT NOT NULL, finished_at TEXT);
CREATE TABLE pairs (run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
                    pair_id TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (run_id, pair_id));
CREATE INDEX pairs_by_position ON pairs (run_id, position);
CREATE TABLE results (run_id TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
                      pair_id TEXT NOT NULL, metric TEXT NOT NULL, score REAL, error TEXT,
                      signature TEXT NOT NULL DEFAULT '', payload TEXT NOT NULL, elapsed_ms REAL,
                      created_at TEXT NOT NULL, content_hash TEXT,
                      PRIMARY KEY (run_id, pair_id, metric));
CREATE TABLE run_owners (run_id TEXT PRIMARY KEY, owner TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '2');
"""


def write_schema_2_store(path: Any, run_id: str, metrics: list[str], options: dict[str, Any],
                         rows: list[tuple[str, str, dict[str, Any], str | None]],
                         input_label: str = "pairs.jsonl") -> None:
    """A finished run written as a schema 2 store holds it: every result's dict as JSON text."""
    import json
    import sqlite3

    with sqlite3.connect(path) as conn:
        conn.executescript(_SCHEMA_2)
        conn.execute("INSERT INTO runs VALUES (?, '2026-01-01T00:00:00.000+00:00', ?, ?, ?, 'finished',"
                     " '2026-01-01T00:01:00.000+00:00')",
                     (run_id, input_label, json.dumps(metrics), json.dumps(options, sort_keys=True)))
        order: list[str] = []
        for pair_id, metric, payload, content_hash in rows:
            if pair_id not in order:
                order.append(pair_id)
                conn.execute("INSERT INTO pairs VALUES (?, ?, ?)", (run_id, pair_id, len(order) - 1))
            conn.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:30.000+00:00', ?)",
                         (run_id, pair_id, metric, payload.get("score"), payload.get("error"),
                          payload.get("signature") or "", json.dumps(payload), payload.get("elapsed_ms"),
                          content_hash))
