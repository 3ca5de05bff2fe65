"""Streamed runs (the CLI: input read row by row, rows written as their chunk is scored) give
byte for byte the output of a run held in memory, resume chunk by chunk, and summarise to the
same numbers as the whole list of scores."""
import json
import math

import pandas as pd
import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.dataio import Columns, PairFile
from radscope.engine.io.examples import example_pairs
from radscope.engine.io.export import write_results_csv
from radscope.engine.metrics.framework.registry import export_columns_of, production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runs.store import Store
from radscope.engine.statistics import mean_bca
from tests.conftest import run_cli

# Ids a spreadsheet would run as formulas (and one that looks like a negative number).
ODD_IDS = ["=1+1", "-3", "+cmd", "@sum"]


def _reports() -> list[str]:
    return list(dict.fromkeys(t for e in example_pairs() for t in (e.pair.reference, e.pair.candidate)))


def _pairs_file(path, n: int, fmt: str = "jsonl"):
    """n pairs crossing the example reports (pair t: report t against report t + 1 + t // m),
    with formula-like ids and an empty candidate (an error row) among them."""
    reports = _reports()
    m = len(reports)
    rows = []
    for t in range(n):
        pid = ODD_IDS[t // 7] if t % 7 == 3 and t // 7 < len(ODD_IDS) else f"p{t}"
        candidate = "" if t == 5 else reports[(t + 1 + t // m) % m]
        rows.append({"id": pid, "reference": reports[t % m], "candidate": candidate})
    if fmt == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    else:
        pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _whole_csv(rows, pairs, path):
    """The flat CSV as the app writes its download: every row held, one call."""
    with path.open("w", encoding="utf-8", newline="") as fh:
        write_results_csv(fh, lambda: rows, export_columns_of, pairs)
    return path.read_bytes()


@pytest.mark.slow  # several CLI processes or a worker pool: kept out of make test-fast
def test_streamed_outputs_are_byte_identical_to_the_in_memory_ones(tmp_path):
    pairs = _pairs_file(tmp_path / "pairs.csv", 2_500, fmt="csv")
    db = tmp_path / "r.sqlite"
    out, csv_out = tmp_path / "out.jsonl", tmp_path / "out.csv"
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu,rouge", "--out", str(out),
                   "--csv", str(csv_out), "--run-id", "s", "--db", str(db), "--workers", "1",
                   "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert "2500 pairs written" in proc.stdout
    assert not list(tmp_path.glob("*.partial"))

    # The same run held in memory: every result read back from the store (so that the timings
    # are the same ones), the rows written whole as before.
    with Store(db) as store:
        run = run_batch(dataio.read_pairs(pairs), ["bleu", "rouge"], RuntimeContext(),
                        store=store, run_id="s", registry=production())
    assert run.summary["resumed"]["reused"] == 2 * 2_500
    assert len(run.rows) == 2_500 and run.rows[5]["metrics"]["bleu"]["error"]
    assert [r["id"] for r in run.rows][3:28:7] == ODD_IDS
    expected_jsonl = dataio.write_jsonl(run.rows, tmp_path / "whole.jsonl").read_bytes()
    assert out.read_bytes() == expected_jsonl
    expected_csv = _whole_csv(run.rows, dataio.read_pairs(pairs), tmp_path / "whole.csv")
    assert csv_out.read_bytes() == expected_csv
    assert b"\n\"'=1+1\"," in expected_csv and b"\n\"'-3\"," in expected_csv  # neutralised in both


def test_a_stopped_stream_resumes_chunk_by_chunk_to_the_output_of_one_run(tmp_path):
    pairs = PairFile(_pairs_file(tmp_path / "pairs.jsonl", 300))
    store = Store(tmp_path / "r.sqlite")
    written: list[dict] = []

    def stop_in_chunk_five(rows):
        written.extend(rows)
        if len(written) >= 4 * 32:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(pairs, ["bleu", "rouge"], RuntimeContext(), store=store, run_id="r",
                  on_rows=stop_in_chunk_five, keep_rows=False, registry=production())
    assert store.get_run("r").n_pairs == 300  # registered before scoring
    assert store.get_run("r").n_results == 2 * 4 * 32

    lookups: list[int] = []
    real = store.results_for

    def counting(run_id, ids, **how):
        lookups.append(len(ids))
        return real(run_id, ids, **how)

    store.results_for = counting
    streamed: list[dict] = []
    resumed = run_batch(pairs, ["bleu", "rouge"], RuntimeContext(), store=store,
                        run_id="r", on_rows=streamed.extend, keep_rows=False, registry=production())
    assert resumed.rows == [] and resumed.summary["resumed"]["reused"] == 2 * 4 * 32
    assert max(lookups) <= 2_000  # read back per chunk (and per registration batch), never whole
    assert streamed[:4 * 32] == written  # the stored results, as first written
    whole = run_batch(dataio.read_pairs(pairs.path), ["bleu", "rouge"], RuntimeContext(), registry=production())

    def strip(rows):
        return [(r["id"], {m: {k: v for k, v in res.items() if k != "elapsed_ms"}
                           for m, res in r["metrics"].items()}) for r in rows]

    assert strip(streamed) == strip(whole.rows)
    store.close()


def test_the_streamed_summary_equals_the_one_from_all_scores_on_5000_pairs(tmp_path):
    pairs = PairFile(_pairs_file(tmp_path / "pairs.jsonl", 5_000))
    metrics = ["bleu", "radsem"]
    rows: list[dict] = []
    run = run_batch(pairs, metrics, RuntimeContext(), on_rows=rows.extend,
                    keep_rows=False, registry=production())
    assert run.rows == [] and len(rows) == 5_000
    for name in metrics:
        scores = [r["metrics"][name]["score"] for r in rows if r["metrics"][name]["error"] is None]
        whole = mean_bca.bootstrap_mean_ci(scores)
        got = run.summary["metrics"][name]
        assert got["n"] == whole.n == len([s for s in scores if s is not None])
        assert got["mean"] == pytest.approx(whole.mean, abs=1e-12)
        width = whole.ci_high - whole.ci_low
        assert width > 0
        # Resampling differs (seeded, but not necessarily the same draws): the bounds agree
        # to within a fifth of the interval's width.
        assert math.isclose(got["ci_low"], whole.ci_low, abs_tol=width / 5), name
        assert math.isclose(got["ci_high"], whole.ci_high, abs_tol=width / 5), name
        assert got["n_errors"] == 1  # the empty candidate


def test_pair_file_checks_once_then_reads_as_it_goes(tmp_path):
    path = _pairs_file(tmp_path / "p.jsonl", 40)
    source = PairFile(path)
    assert len(source) == 40
    assert list(source) == dataio.read_pairs(path) == list(source)  # read again per pass
    path.write_text(path.read_text() + json.dumps({"id": "late", "reference": "R",
                                                   "candidate": "C"}) + "\n")
    with pytest.raises(dataio.InputError, match="changed while it was being scored"):
        list(source)


def test_pair_file_refuses_what_read_pairs_refuses_before_any_pair_is_used(tmp_path):
    rows = ['{"id": "a", "reference": "R", "candidate": "C"}'] * 2
    path = tmp_path / "dupe.jsonl"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(dataio.InputError, match=r"line 2: id 'a' .* already used on line 1"):
        PairFile(path).check()
    # No record has the id column: that is named, not the first row's empty id.
    path = tmp_path / "noid.jsonl"
    path.write_text('{"reference": "R", "candidate": "C"}\n{"key": "k", "reference": "R"}\n')
    with pytest.raises(dataio.InputError, match=r"column 'id' \(the id column\) not found; the "
                                                r"file has columns: reference, candidate, key"):
        PairFile(path).check()
    assert [p.id for p in PairFile(path, Columns(id=None))] == ["1", "2"]


def test_results_writer_leaves_no_file_unless_finished(tmp_path):
    row = {"id": "=a", "metrics": {"bleu": {"score": 0.5, "error": None, "model": None,
                                            "signature": "bleu|v:1"}}}
    with dataio.ResultsWriter(tmp_path / "o.jsonl", tmp_path / "o.csv", columns_of=export_columns_of) as writer:
        writer.write([row])
        assert (tmp_path / "o.jsonl.partial").exists() and not (tmp_path / "o.jsonl").exists()
    assert not list(tmp_path.iterdir())  # closed unfinished: nothing left
    with dataio.ResultsWriter(tmp_path / "o.jsonl", tmp_path / "o.csv", columns_of=export_columns_of) as writer:
        writer.write([row])
        writer.finish()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv", "o.jsonl"]
    assert (tmp_path / "o.csv").read_bytes() == (b'"id","bleu_score","bleu_error","bleu_model","bleu_signature"'
                                                 b'\r\n"\'=a",0.5,"","","bleu|v:1"\r\n')
