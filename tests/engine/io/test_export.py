"""The CLI's --csv and the app's Batch download are one table (engine.io.export): the same
columns, the same names, the same bytes for the same pairs and metrics; a second system in the
app adds its candidate and its metric columns suffixed ``_b``, nothing else."""
from __future__ import annotations

import csv
import json

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.framework.defaults import default_metrics
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.ui.tabs.batch import logic as batch_logic
from tests.conftest import run_cli


def _header(path):
    with path.open(newline="", encoding="utf-8") as fh:
        return next(csv.reader(fh))


def test_cli_csv_and_app_download_are_the_same_table(tmp_path):
    pairs = [e.pair for e in example_pairs()]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"id": p.id, "reference": p.reference, "candidate": p.candidate,
                                        "modality": p.modality, "area": p.area}) + "\n" for p in pairs),
                    encoding="utf-8")
    registry = production()
    metrics = default_metrics(registry, {})
    cli_csv = tmp_path / "cli.csv"
    proc = run_cli("score", "--input", str(path), "--metrics", ",".join(metrics), "--modality-col",
                   "modality", "--area-col", "area", "--out", str(tmp_path / "cli.jsonl"), "--csv",
                   str(cli_csv), "--no-progress", "--db", str(tmp_path / "db.sqlite"))
    assert proc.returncode == 0, proc.stderr

    run = run_batch(pairs, metrics, RuntimeContext(), registry=registry)
    _, app_csv, _ = batch_logic.write_downloads(run, None, None, tmp_path / "app", pairs=pairs)
    header = _header(app_csv)
    assert _header(cli_csv) == header
    assert header[:5] == ["id", "reference", "candidate", "modality", "area"]
    for name in metrics:  # every metric's standard columns, in the CLI's old names
        assert [f"{name}_{f}" for f in ("score", "error", "model", "signature")] == \
            header[header.index(f"{name}_score"):header.index(f"{name}_score") + 4]
    assert {"clear_pos_f1", "crepe_count_A", "srr_leaf_f1", "radsem_abnormal_f1"} <= set(header)
    assert cli_csv.read_bytes() == app_csv.read_bytes()

    run_b = run_batch(pairs, metrics, RuntimeContext(), registry=registry)
    _, both, _ = batch_logic.write_downloads(run, run_b, {}, tmp_path / "ab", pairs=pairs, pairs_b=pairs)
    header_b = _header(both)
    assert header_b == header + ["candidate_b"] + [f"{c}_b" for c in header[5:]]
