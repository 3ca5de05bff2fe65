"""Messages that name the real cause: a read-only store or mount and a full disk are said to be
so (not "damaged… Move it away": nothing was lost), ``--out`` on a full disk is one line, not
a traceback, Ctrl-C with worker processes prints one message and no worker traceback, and a
lone surrogate in the input names the file and the line.

The disk cases run twice: on real SQLite errors and a monkeypatched write (always), and on a
real tiny tmpfs, full or remounted read-only (when this machine lets the test mount one, as
root in a container does; skipped otherwise).
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from radscope.engine.runs.store import Store
from tests.conftest import ROOT, run_cli

MISLEADING = ("damaged", "Move it away")


def pairs_file(path: Path, n: int) -> Path:
    rows = [{"id": f"p{i}", "reference": "No pleural effusion. Heart size normal.",
             "candidate": f"Small left pleural effusion, case {i}."} for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_sqlite_read_only_and_full_errors_name_their_cause(tmp_path):
    path = tmp_path / "store.sqlite"
    Store(path).close()
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn, \
            pytest.raises(sqlite3.OperationalError) as read_only:
        conn.execute("INSERT INTO meta(key, value) VALUES ('x', 'y')")
    with contextlib.closing(sqlite3.connect(tmp_path / "full.sqlite")) as conn, \
            pytest.raises(sqlite3.OperationalError) as full:
        conn.execute("CREATE TABLE t (x BLOB)")
        conn.execute("PRAGMA max_page_count = 3")
        for _ in range(10):
            conn.execute("INSERT INTO t VALUES (zeroblob(4000))")
    store = Store(path)
    try:
        for exc, cause in ((read_only.value, "read-only"), (full.value, "the disk is full")):
            message = str(store.damaged(exc))
            assert cause in message and "Nothing stored was lost" in message, message
            assert not any(word in message for word in MISLEADING), message
    finally:
        store.close()


def test_out_on_a_full_disk_is_a_message(tmp_path, monkeypatch, capsys):
    """The writer's disk fills up mid-run (a monkeypatched write): one line, exit 2, and the
    same command resumes from the store once there is room."""
    from radscope.engine import commands as cli
    from radscope.engine.io import dataio

    pairs = pairs_file(tmp_path / "pairs.jsonl", 100)
    out, db = tmp_path / "out.jsonl", tmp_path / "db.sqlite"

    def full(self, rows):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    args = ["score", "--input", str(pairs), "--metrics", "bleu", "--out", str(out), "--db", str(db),
            "--no-progress", "--workers", "1"]
    with monkeypatch.context() as patch:
        patch.setattr(dataio.ResultsWriter, "write", full)
        assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert f"error: could not write the results: {out}: the disk is full" in err, err
    assert "run the same command again to resume" in err and not out.exists()
    assert cli.main(args) == 0
    assert "resuming" in capsys.readouterr().err and len(out.read_text().splitlines()) == 100


@pytest.fixture
def tiny_mount(tmp_path):
    """A 256 kB tmpfs of this test's own, or a skip where mounting is not allowed."""
    point = tmp_path / f"tiny-{uuid.uuid4().hex[:8]}"
    point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    yield point
    subprocess.run(["umount", "-l", str(point)], check=False)


def _no_traceback(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and not any(w in proc.stderr for w in MISLEADING), proc.stderr
    return proc.stderr


def test_a_real_full_disk_and_read_only_mount(tmp_path, tiny_mount):
    pairs = pairs_file(tmp_path / "pairs.jsonl", 3000)
    # --out on the full disk (the store is elsewhere): the run's rows fill 256 kB.
    out = tiny_mount / "out.jsonl"
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(out),
                   "--db", str(tmp_path / "db.sqlite"), "--no-progress", "--workers", "1")
    assert f"{out}: the disk is full" in _no_traceback(proc)
    again = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(tmp_path / "o.jsonl"),
                    "--db", str(tmp_path / "db.sqlite"), "--no-progress", "--workers", "1")
    assert again.returncode == 0 and "resuming" in again.stderr, again.stderr
    # The store itself on the full disk.
    for leftover in tiny_mount.iterdir():
        leftover.unlink()
    (tiny_mount / "filler").write_bytes(b"\0" * (200 << 10))
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(tmp_path / "o2.jsonl"),
                   "--db", str(tiny_mount / "db.sqlite"), "--no-progress", "--workers", "1")
    assert "the disk is full" in _no_traceback(proc)
    # A store on a mount that became read-only.
    (tiny_mount / "filler").unlink()
    (tiny_mount / "db.sqlite").unlink(missing_ok=True)
    Store(tiny_mount / "db.sqlite").close()
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_mount)], check=True)
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu", "--out", str(tmp_path / "o3.jsonl"),
                   "--db", str(tiny_mount / "db.sqlite"), "--no-progress", "--workers", "1")
    assert "read-only" in _no_traceback(proc)


def test_a_lone_surrogate_names_the_file_and_line(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"id": "ok", "reference": "R.", "candidate": "C."}\n'
                    '{"id": "bad\\ud800", "reference": "R.", "candidate": "C."}\n', encoding="utf-8")
    proc = run_cli("score", "--input", str(path), "--metrics", "bleu", "--out", str(tmp_path / "o.jsonl"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{path}: line 2: the field 'id' holds a lone surrogate" in proc.stderr, proc.stderr


def workers_of(pid: int) -> list[int]:
    """The worker processes (multiprocessing spawn children) of ``pid``, from /proc."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    found = []
    for child in children:
        with contextlib.suppress(OSError):
            if b"multiprocessing" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(int(child))
    return found


@pytest.mark.slow  # a worker pool: kept out of make test-fast
def test_ctrl_c_with_workers_prints_one_message(tmp_path):
    """Ctrl-C in a terminal reaches the whole process group: the parent and its workers."""
    pairs = pairs_file(tmp_path / "pairs.jsonl", 6000)
    db = tmp_path / "db.sqlite"
    as_in_a_terminal = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                        "sys.argv = ['radscope', *sys.argv[1:]]; runpy.run_module('radscope', run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-c", as_in_a_terminal, "score", "--input", str(pairs),
                             "--metrics", "bleu,rouge", "--out", str(tmp_path / "o.jsonl"), "--db", str(db),
                             "--no-progress", "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert proc.stderr.readline().startswith("run id: ")
    deadline = time.monotonic() + 180
    while not workers_of(proc.pid):  # Ctrl-C while the workers start up and wait for work
        assert time.monotonic() < deadline and proc.poll() is None, "no worker process started"
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.count("interrupted: run") == 1, err
