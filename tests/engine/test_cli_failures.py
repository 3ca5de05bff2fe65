"""``radscope score`` as a user meets it: bad input, bad output paths and a damaged store
are one-line messages; the run id is printed at the start; Ctrl-C stops cleanly and prints the
command that resumes; running the same command again resumes the unfinished run."""
import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from radscope.engine.runs.store import Store
from tests.conftest import ROOT, run_cli


def _pairs_file(path, n):
    rows = [{"id": f"p{i}", "reference": "No pleural effusion. Heart size normal.",
             "candidate": "Small left pleural effusion." if i % 2 else f"No effusion, case {i}."}
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("name, content, message", [
    ("open.csv", 'id,reference,candidate\np1,R1,"C1\np2,R2,C2\np3,R3,C3\n',
     "open.csv: line 2, column 3 ('candidate'): the quote at character 7 is never closed"),
    ("header.csv", "id,reference,candidate\n", "header.csv: the file has a header line but no rows"),
    ("prose.txt", "The lungs are clear.\nNo effusion.\n", "prose.txt: line 1 holds a single column"),
    ("inf.jsonl", '{"id": "a", "reference": "R", "candidate": Infinity}\n', "Infinity is not a JSON value"),
])
def test_bad_input_files_are_messages(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    proc = run_cli("score", "--input", str(path), "--metrics", "bleu", "--out", str(tmp_path / "o.jsonl"))
    assert proc.returncode == 2 and message in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "o.jsonl").exists()


def test_output_path_is_checked_before_any_work(tmp_path):
    pairs = _pairs_file(tmp_path / "pairs.jsonl", 3)
    db = tmp_path / "db.sqlite"
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(tmp_path),
                   "--db", str(db))
    assert proc.returncode == 2 and f"--out {tmp_path}: is a directory" in proc.stderr
    assert not db.exists()  # nothing was scored or stored
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(pairs))
    assert proc.returncode == 2 and "is the same file as --input" in proc.stderr


def test_garbage_store_is_a_message(tmp_path):
    pairs = _pairs_file(tmp_path / "pairs.jsonl", 3)
    db = tmp_path / "db.sqlite"
    db.write_bytes(b"\x00garbage, not SQLite" * 100)
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(tmp_path / "o.jsonl"),
                   "--db", str(db))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"error: {db}: not a usable RadScope store" in proc.stderr


@pytest.mark.slow  # several CLI processes or a worker pool: kept out of make test-fast
def test_ctrl_c_prints_the_resume_command_and_a_rerun_resumes(tmp_path):
    pairs = _pairs_file(tmp_path / "pairs.jsonl", 4000)
    db = tmp_path / "db.sqlite"
    args = ["score", "--input", str(pairs), "--metrics", "bleu,rouge", "--out", str(tmp_path / "o.jsonl"),
            "--db", str(db), "--no-progress"]
    # As typed in a terminal: Ctrl+C raises KeyboardInterrupt even when this test process was
    # itself started in the background (`make test &`), whose children inherit SIGINT ignored.
    as_in_a_terminal = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                        "sys.argv = ['radscope', *sys.argv[1:]]; runpy.run_module('radscope', run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-c", as_in_a_terminal, *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first_line = proc.stderr.readline()  # printed when the run starts, before any scoring
    assert first_line.startswith("run id: run-")
    run_id = first_line.split()[2]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # wait until some results are stored
        time.sleep(0.2)
        # Read-only: opening a Store takes the write lock for its schema, and a poller queued
        # behind the run's chunk transactions could see the first results only once it ended.
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)) as conn:
            stored = conn.execute("SELECT COUNT(*) FROM scores s JOIN run_keys k ON k.run_no = s.run_no"
                                  " WHERE k.run_id = ?", (run_id,)).fetchone()[0]
        if stored >= 50:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and f"interrupted: run {run_id} stopped with" in err
    assert f"-m radscope score --input {pairs}" in err and f"--run-id {run_id}" in err
    with Store(db) as store:
        info = store.get_run(run_id)
    assert info.status == "interrupted" and 0 < info.n_results < 8000
    # Rows were streamed to a partial file, removed on the way out: no output that looks whole.
    assert not list(tmp_path.glob("o.jsonl*"))
    # The same command without --run-id finds the unfinished run and reuses what it stored.
    again = run_cli(*args)
    assert again.returncode == 0, again.stderr
    assert f"run id: {run_id} (resuming: {info.n_results} results stored)" in again.stderr
    assert f"resumed: {info.n_results} stored results reused, 0 recomputed" in again.stdout
    assert len((tmp_path / "o.jsonl").read_text().splitlines()) == 4000
