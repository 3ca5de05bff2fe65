"""``radscope runs``: list, show, export (the files ``score`` wrote, byte for byte), remove and
compact (the store file shrinks once removed runs' space is given back), through the command."""
from __future__ import annotations

import json

import pytest

from radscope.cli import main
from radscope.engine.runs.store import Store


def _pairs_file(path, n, edit=""):
    rows = [{"id": f"p{i}", "reference": "FINDINGS: Heart size normal. IMPRESSION: No pleural effusion.",
             "candidate": (f"Small left pleural effusion, {i} mm{edit}." if i % 2 else f"No effusion, case {i}.")}
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _score(tmp_path, pairs, name, *extra):
    out, csv = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.csv"
    assert main(["score", "--input", str(pairs), "--metrics", "bleu,rouge,clear", "--out", str(out),
                 "--csv", str(csv), "--db", str(tmp_path / "db.sqlite"), "--no-progress",
                 "--workers", "1", *extra]) == 0
    return out, csv


def _runs(tmp_path, *args):
    return main(["runs", "--db", str(tmp_path / "db.sqlite"), *args])


def test_export_writes_the_files_score_wrote(tmp_path, capsys):
    pairs = _pairs_file(tmp_path / "pairs.jsonl", 40)
    out, csv = _score(tmp_path, pairs, "scored")
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith(f"store {tmp_path / 'db.sqlite'}: ") and "this run stored 120 results (40 pairs)" in last
    with Store(tmp_path / "db.sqlite") as store:
        (run_id,) = [r.run_id for r in store.list_runs()]
    assert _runs(tmp_path, "export", run_id, "--out", str(tmp_path / "again.jsonl"),
                 "--csv", str(tmp_path / "again.csv"), "--input", str(pairs)) == 0
    assert (tmp_path / "again.jsonl").read_bytes() == out.read_bytes()
    assert (tmp_path / "again.csv").read_bytes() == csv.read_bytes()
    # The same command again answers from the store and says so; its files are the same too.
    capsys.readouterr()
    out2, csv2 = _score(tmp_path, pairs, "rerun")
    assert "answered from it, nothing stored again" in capsys.readouterr().out
    assert out2.read_bytes() == out.read_bytes() and csv2.read_bytes() == csv.read_bytes()


def test_list_show_remove_and_compact_free_the_space(tmp_path, capsys):
    first = _pairs_file(tmp_path / "pairs.jsonl", 300)
    _score(tmp_path, first, "a")
    _score(tmp_path, first, "fresh", "--fresh")  # the same input stored a second time
    capsys.readouterr()
    assert _runs(tmp_path, "list") == 0
    listed = capsys.readouterr().out.splitlines()
    with Store(tmp_path / "db.sqlite") as store:
        ids = [r.run_id for r in store.list_runs()]
    assert len(ids) == 2 and ids[0].endswith("-2")
    assert all(any(line.startswith(run_id) and " 300 " in line and "bleu,rouge,clear" in line
                   for line in listed) for run_id in ids)
    assert listed[-1].startswith("2 runs; store ")
    assert main(["runs", "show", ids[1], "--db", str(tmp_path / "db.sqlite")]) == 0  # --db after works too
    assert json.loads(capsys.readouterr().out)["run_id"] == ids[1]
    assert _runs(tmp_path, "show", ids[1]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["run_id"] == ids[1] and shown["n_results"] == 900 and shown["size_bytes"] > 0
    db = tmp_path / "db.sqlite"
    assert _runs(tmp_path, "compact") == 0
    full = db.stat().st_size
    assert _runs(tmp_path, "remove", ids[0]) == 0
    assert _runs(tmp_path, "compact") == 0
    assert db.stat().st_size < 0.7 * full  # the removed run's rows and details are gone from the file
    with Store(db) as store:
        assert [r.run_id for r in store.list_runs()] == [ids[1]]
        assert len(list(store.results(ids[1]))) == 900  # the other run is whole
    assert _runs(tmp_path, "remove", "no-such-run") == 2
    assert "no run 'no-such-run'" in capsys.readouterr().err


def test_compact_rewrites_an_older_store_and_keeps_its_results(tmp_path, capsys):
    from tests.reference.store import write_schema_2_store

    rows = [(f"p{i}", "bleu", {"score": i / 10, "direction": "higher", "signature": "bleu|v:1",
                               "error": None, "elapsed_ms": 1.0, "details": {"n": i}}, f"{i:032x}")
            for i in range(5)]
    write_schema_2_store(tmp_path / "db.sqlite", "old-run", ["bleu"], {"signatures": {"bleu": "bleu|v:1"}}, rows)
    assert _runs(tmp_path, "list") == 0  # listed as it is, with its size
    listed = capsys.readouterr().out.splitlines()
    assert listed[1].startswith("old-run") and " 5 " in listed[1] and " 0 B " not in listed[1]
    assert _runs(tmp_path, "compact") == 0
    with Store(tmp_path / "db.sqlite") as store:
        assert store._conn().execute("SELECT COUNT(*) FROM results").fetchone() == (0,)
        assert [(r.pair_id, r.metric, r.payload, r.content_hash) for r in store.results("old-run")] == rows


@pytest.mark.parametrize("args", [["show", "nope"], ["export", "nope", "--out", "x.jsonl"]])
def test_an_unknown_run_is_a_one_line_error(tmp_path, capsys, args):
    assert _runs(tmp_path, *args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no run 'nope'") and "Traceback" not in err
