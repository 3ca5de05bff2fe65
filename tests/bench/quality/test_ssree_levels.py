"""SSREE benchmark: mean score per level, beside the ordering figures."""
from __future__ import annotations

import json

import pytest

from bench.quality.ssree import level_means
from tests.conftest import run_bench


def test_level_means_skip_failed_levels():
    means = level_means([[1.0, 0.5, 0.5, 0.0, 0.0], [0.8, None, 0.3, 0.2, float("nan")]])
    assert means == {"L1": pytest.approx(0.9), "L2": 0.5, "L3": pytest.approx(0.4),
                     "L4": pytest.approx(0.1), "L5": 0.0}


def test_bench_prints_and_writes_the_mean_at_each_level(tmp_path):
    report = "The liver is normal. A 2 cm cyst is seen in the right kidney. No ascites."
    rows = [{"name": "r1", "examined_type": "CT", "examined_area": "ABDOMEN", "reference": report,
             "L1": report, "L2": "The liver is normal. The right kidney is normal. No ascites.",
             "L3": "The liver is normal. The kidneys are normal. No ascites.",
             "L4": "The liver is normal. The kidneys are normal.",
             "L5": "The liver is abnormal. No cyst in the right kidney. Ascites is present."}]
    data = tmp_path / "ssree.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "report.json"
    proc = run_bench("ssree", "--data", str(data), "--metrics", "bleu1", "--quiet",
                     "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(out.read_text())["metrics"]["bleu1"]
    assert figures["mean_by_level"]["L1"] == 1.0  # the reference against itself
    assert "mean score L1 1.000" in proc.stdout
