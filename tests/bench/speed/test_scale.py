"""The scaling and reward benchmarks run end to end on the example pairs (no data needed)."""
import json
import os

import pytest

from bench.speed.scale import _tree_rss_kb, synthetic_pairs
from tests.conftest import run_bench


def test_synthetic_pairs_cross_reports_without_repeating_early():
    reports = ["a", "b", "c"]
    pairs = synthetic_pairs(reports, 7)
    # t against t + 1 + t // 3: (a,b) (b,c) (c,a), then the shift grows: (a,c) (b,a) (c,b), (a,a)
    assert pairs == [("a", "b"), ("b", "c"), ("c", "a"), ("a", "c"), ("b", "a"), ("c", "b"),
                     ("a", "a")]


def test_tree_rss_counts_this_process():
    assert _tree_rss_kb(os.getpid()) > 10_000  # a Python with numpy loaded holds > 10 MB


@pytest.mark.slow  # several CLI processes or a worker pool: kept out of make test-fast
def test_scale_and_reward_commands_write_their_reports(tmp_path):
    out = tmp_path / "scale.json"
    proc = run_bench("scale", "--sizes", "30", "--metrics", "bleu", "--no-startup", "--out",
                     str(out))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    run = report["runs"][0]["current"]
    assert report["runs"][0]["n_pairs"] == 30 and run["rc"] == 0
    assert 0 <= run["means"]["bleu"] <= 1 and run["peak_rss_mb"] > 0 and run["cpu_s"] > 0

    out = tmp_path / "reward.json"
    proc = run_bench("reward", "--rows", "api:bleu,lib:rouge-score,api:radsem,one:radsem",
                     "--pairs", "8", "--batch", "4", "--repeats", "1", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = {r["row"]: r for r in json.loads(out.read_text())["rows"]}
    bleu = rows["api:bleu"]["after"]
    assert bleu["fresh_pairs_per_s"] > 0 and bleu["warm_pairs_per_s"] > 0 and bleu["errors"] == 0
    assert rows["lib:rouge-score"]["after"]["fresh_pairs_per_s"] > 0
    assert rows["one:radsem"]["after"]["errors"] == 0 and "before" not in rows["api:radsem"]
    assert "| RadScope radsem, one pair per call |" in proc.stdout
