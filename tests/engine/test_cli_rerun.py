"""An identical ``radscope score`` whose output files are still the ones it wrote leaves them be:
the store answers, nothing is stored or written; a file changed since, another path, or --fresh
writes again."""
import json
import os

from tests.conftest import run_cli

ROWS = [
    {"id": "a", "reference": "No pleural effusion. Heart size normal.",
     "candidate": "No pleural effusion. Heart size normal."},
    {"id": "b", "reference": "Small left pleural effusion.", "candidate": "Large right pneumothorax."},
]


def _score(tmp_path, out, *extra):
    pairs = tmp_path / "pairs.jsonl"
    if not pairs.exists():
        pairs.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu,rouge", "--out", str(out),
                   "--csv", str(out.with_suffix(".csv")), "--db", str(tmp_path / "store.sqlite"),
                   "--no-progress", *extra)
    assert proc.returncode == 0, proc.stderr
    return proc


def _stamp(path):
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # an mtime a rewrite would change
    return path.stat().st_mtime_ns


def test_an_identical_rerun_leaves_unchanged_outputs_as_they_are(tmp_path):
    out = tmp_path / "r.jsonl"
    _score(tmp_path, out)
    first = out.read_bytes(), out.with_suffix(".csv").read_bytes()
    stamps = _stamp(out), _stamp(out.with_suffix(".csv"))
    size = (tmp_path / "store.sqlite").stat().st_size
    proc = _score(tmp_path, out)
    assert "outputs unchanged" in proc.stderr
    assert (out.stat().st_mtime_ns, out.with_suffix(".csv").stat().st_mtime_ns) == stamps
    assert (out.read_bytes(), out.with_suffix(".csv").read_bytes()) == first
    assert (tmp_path / "store.sqlite").stat().st_size == size


def test_an_output_changed_since_is_written_again(tmp_path):
    out = tmp_path / "r.jsonl"
    _score(tmp_path, out)
    first = out.read_bytes()
    out.write_bytes(first.replace(b'"a"', b'"z"'))  # same size, other content
    proc = _score(tmp_path, out)
    assert "outputs unchanged" not in proc.stderr
    assert out.read_bytes() == first


def test_another_output_path_or_fresh_writes(tmp_path):
    out = tmp_path / "r.jsonl"
    _score(tmp_path, out)
    other = tmp_path / "other.jsonl"
    proc = _score(tmp_path, other)
    assert "outputs unchanged" not in proc.stderr and other.read_bytes() == out.read_bytes()
    stamp = _stamp(out)
    proc = _score(tmp_path, out, "--fresh")
    assert "outputs unchanged" not in proc.stderr and out.stat().st_mtime_ns != stamp
