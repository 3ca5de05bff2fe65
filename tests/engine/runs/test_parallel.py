"""``--workers``: the CPU-bound metrics scored in worker processes give exactly the results of
one process, and a resumed run reads them back instead of scoring again."""
import json

import pytest

from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs import parallel
from tests.conftest import run_cli

METRICS = "bleu,rouge,clear,radsem,crepe,vert,srr"  # the rules readers by default


def _pairs_file(tmp_path, n: int):
    # The project's example pairs, crossed (reference i against candidate j), plus a pair with
    # an empty candidate so that error rows are compared too.
    examples = [e.pair for e in example_pairs()]
    rows = []
    for i in range(n - 1):
        ref, cand = examples[i % len(examples)], examples[(i // len(examples)) % len(examples)]
        rows.append({"id": f"p{i}", "reference": ref.reference, "candidate": cand.candidate})
    rows.append({"id": "empty", "reference": examples[0].reference, "candidate": ""})
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _scores(path):
    """Every result without its timing (elapsed_ms is wall time, the only thing that varies)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        for result in row["metrics"].values():
            result.pop("elapsed_ms")
    return rows


@pytest.mark.slow  # several CLI processes or a worker pool: kept out of make test-fast
def test_two_workers_give_the_results_of_one_and_resume(tmp_path):
    pairs = _pairs_file(tmp_path, parallel.MIN_PAIRS + 16)  # enough pairs to start the pool
    outputs = {}
    for workers in ("1", "2"):
        out, summary = tmp_path / f"w{workers}.jsonl", tmp_path / f"s{workers}.json"
        proc = run_cli("score", "--input", str(pairs), "--metrics", METRICS, "--out", str(out),
                       "--summary", str(summary), "--workers", workers, "--run-id",
                       f"w{workers}", "--db", str(tmp_path / "r.sqlite"), "--no-progress")
        assert proc.returncode == 0, proc.stderr
        outputs[workers] = (_scores(out), json.loads(summary.read_text()))
    (rows1, sum1), (rows2, sum2) = outputs["1"], outputs["2"]
    assert len(rows1) == parallel.MIN_PAIRS + 16
    assert rows2 == rows1
    assert rows1[-1]["metrics"]["clear"]["error"] == "input: candidate report is empty"
    assert all(row["metrics"][name]["error"] is None for row in rows1[:-1] for name in ("crepe", "vert", "srr"))
    for name in METRICS.split(","):
        for key in ("mean", "ci_low", "ci_high", "n", "n_errors", "signature", "corpus"):
            assert sum2["metrics"][name][key] == sum1["metrics"][name][key], (name, key)

    # Resuming the two-worker run scores nothing again and writes the same rows.
    again = tmp_path / "again.jsonl"
    proc = run_cli("score", "--input", str(pairs), "--metrics", METRICS, "--out", str(again),
                   "--workers", "2", "--run-id", "w2", "--db", str(tmp_path / "r.sqlite"),
                   "--no-progress")
    assert proc.returncode == 0, proc.stderr
    assert again.read_text() == (tmp_path / "w2.jsonl").read_text()


def test_every_rules_reader_may_enter_the_pool():
    from radscope.engine.context import RuntimeContext

    built = production().build(["radsem", "clear", "crepe", "vert", "srr"],
                               RuntimeContext(options={"extractor": "rules"}))
    assert [m.name for m in built if not m.cpu_bound] == []


def test_the_pool_scores_only_the_cpu_bound_metrics(tmp_path, monkeypatch):
    from radscope.engine.context import RuntimeContext
    from radscope.engine.io.dataio import read_pairs
    from radscope.engine.runs.runner import run_batch

    scored: list[str] = []
    real_score = parallel.ProcessScorer.score

    def spy(self, metric, pairs):
        scored.append(metric.name)
        return real_score(self, metric, pairs)

    monkeypatch.setattr(parallel.ProcessScorer, "score", spy)
    pairs = read_pairs(_pairs_file(tmp_path, parallel.MIN_PAIRS))
    ctx = RuntimeContext(options={"encoder_threads": 1, "crepe_model": "crepe-minilm-demo"})
    run = run_batch(pairs, ["bleu", "crepe"], ctx, workers=2, registry=production())
    ctx.close()
    assert set(scored) == {"bleu"}  # the encoder metric keeps its one in-process session
    assert all(row["metrics"]["crepe"]["error"] is None for row in run.rows[:-1])
    assert all(row["metrics"]["bleu"]["error"] is None for row in run.rows[:-1])
