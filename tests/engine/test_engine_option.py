"""``score --engine ray`` in an environment without Ray: a one-line error saying how to get it,
exit status 2, and no run started in the store (tests/ray runs the engine itself in .venv-ray)."""
import importlib.util
import json
import sqlite3

import pytest

from tests.conftest import run_cli


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None,
                    reason="Ray is installed here: tests/ray covers --engine ray")
def test_engine_ray_without_ray_says_what_to_run(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"id": "a", "reference": "No effusion.", "candidate": "No effusion."}) + "\n")
    db = tmp_path / "store.sqlite"
    result = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(tmp_path / "o.jsonl"),
                     "--db", str(db), "--engine", "ray", "--no-progress")
    assert result.returncode == 2
    assert "error: --engine ray needs Ray" in result.stderr and "make ray-env" in result.stderr
    assert "Traceback" not in result.stderr
    if db.exists():
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
