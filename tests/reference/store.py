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
    stored = conn.execute("SELECT pair_id, metric, score, error FROM results WHERE run_id = ?",
                          (run_id,)).fetchall()
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
