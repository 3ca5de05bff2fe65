"""SSREE's two fixed folds (issue 43): a split by report name that never moves between runs,
and the bench's figures for each fold beside all reports."""
from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys

import pytest
from scipy.stats import kendalltau

from bench.quality.ssree import FOLDS, SsreeReport, figures, fold_gap, fold_of, split_folds
from tests.conftest import ROOT, run_bench

NAMES = [f"report-{i:04d}" for i in range(1000)]


def _report(name: str) -> SsreeReport:
    return SsreeReport(name, "ref", ("l1", "l2", "l3", "l4", "l5"))


def test_the_split_is_disjoint_covers_every_report_and_is_about_half():
    folds = split_folds([_report(n) for n in NAMES])
    a, b = ({r.name for r in folds[f]} for f in FOLDS)
    assert not a & b
    assert a | b == set(NAMES)
    assert 450 <= len(a) <= 550, len(a)


def test_a_report_keeps_its_fold_whatever_else_is_in_the_file():
    alone = {n: fold_of(n) for n in NAMES[:50]}
    together = split_folds([_report(n) for n in reversed(NAMES)])
    assert all(_report(n) in together[fold] for n, fold in alone.items())


def test_the_split_does_not_depend_on_python_s_hash_seed():
    code = ("from bench.quality.ssree import fold_of; "
            f"print(''.join(fold_of(n) for n in {NAMES[:200]!r}))")
    runs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout.strip()
            for seed in ("1", "2")}
    assert runs == {"".join(fold_of(n) for n in NAMES[:200])}


def test_the_gap_is_flagged_past_a_hundredth_beside_what_chance_alone_makes():
    close = fold_gap({"kendall_tau_b": 0.90, "mean_by_level": {"L1": 0.80}},
                     {"kendall_tau_b": 0.905, "mean_by_level": {"L1": 0.795}})
    assert close == {"kendall_tau_b": 0.005, "L1_mean": 0.005, "over_limit": False,
                     "noise": {"kendall_tau_b": None, "L1_mean": None}}
    far = fold_gap({"kendall_tau_b": 0.90, "kendall_tau_b_se": 0.03, "mean_by_level": {"L1": 0.80}},
                   {"kendall_tau_b": 0.90, "kendall_tau_b_se": 0.04, "mean_by_level": {"L1": 0.78}})
    assert far["over_limit"] and far["L1_mean"] == pytest.approx(0.02)
    assert far["noise"]["kendall_tau_b"] == pytest.approx(0.05)  # independent: sqrt(0.03² + 0.04²)


def test_a_fold_s_standard_errors_are_those_of_its_reports():
    per_report = [[1.0, 0.8, 0.6, 0.4, 0.2], [0.9, 0.95, 0.5, 0.3, 0.1], [0.7, 0.6, 0.65, 0.2, 0.0]]
    f = figures(per_report, higher_is_better=True)
    taus = [kendalltau(s, [5, 4, 3, 2, 1]).statistic for s in per_report]
    assert f["kendall_tau_b_se"] == pytest.approx(statistics.stdev(taus) / math.sqrt(3), abs=1e-4)
    assert f["L1_mean_se"] == pytest.approx(statistics.stdev([1.0, 0.9, 0.7]) / math.sqrt(3), abs=1e-4)


REFERENCE = "The liver is normal. A 2 cm cyst is seen in the right kidney. No ascites."
FAITHFUL = "The liver is unremarkable. A 2 cm cyst is seen in the right kidney. No ascites."


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Eight reports whose L1 is either the reference itself or the same in other words, so the
    two folds' L1 means differ under BLEU-1."""
    rows = []
    for i in range(8):
        rows.append({"name": f"case-{i}", "reference": REFERENCE,
                     "L1": REFERENCE if i % 3 else FAITHFUL,
                     "L2": "The liver is normal. The right kidney is normal. No ascites.",
                     "L3": "The liver is normal. The kidneys are normal. No ascites.",
                     "L4": "The liver is normal.", "L5": "Ascites."})
    path = tmp_path_factory.mktemp("ssree") / "ssree.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, rows


def _bench(path, out, *extra):
    proc = run_bench("ssree", "--data", str(path), "--metrics", "bleu1", "--quiet", "--out", str(out), *extra)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, json.loads(out.read_text())


def test_the_bench_scores_each_fold_and_all(data, tmp_path):
    path, rows = data
    stdout, report = _bench(path, tmp_path / "all.json")
    figures = report["metrics"]["bleu1"]
    members = {fold: [r for r in rows if fold_of(r["name"]) == fold] for fold in FOLDS}
    assert all(members.values()), "the small file must put reports in both folds"
    assert report["fold_sizes"] == {fold: len(m) for fold, m in members.items()}
    for fold in FOLDS:
        assert figures["folds"][fold]["n_reports"] == len(members[fold])
        one, alone = _bench(path, tmp_path / f"{fold}.json", "--fold", fold)
        # A fold scored alone gives the figures the all-folds run reports for it.
        got = {k: v for k, v in alone["metrics"]["bleu1"].items() if k in figures["folds"][fold]}
        assert got == figures["folds"][fold]
        assert alone["n_reports"] == len(members[fold]) and f"bleu1 {fold}" in one
    l1 = {fold: figures["folds"][fold]["mean_by_level"]["L1"] for fold in FOLDS}
    assert figures["mean_by_level"]["L1"] == pytest.approx(
        sum(l1[f] * len(members[f]) for f in FOLDS) / len(rows), abs=1e-3)
    assert figures["fold_gap"]["L1_mean"] == pytest.approx(abs(l1["a"] - l1["b"]), abs=1e-4)
    for label in ("bleu1 a ", "bleu1 b ", "bleu1 all ", "bleu1 gap ", "chance alone"):
        assert label in stdout
