"""``radscope agree`` on rating files the tests write: a user's own CSV and a ReXVal folder,
scored with the rules reader (no model), and every bad input as one ``error:`` line."""
from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.engine.ratings.test_rexval import ERRORS, write_ratings, write_samples

CATEGORIES = [f"errors_{c}" for c in "ABCDEF"]
# (reference, candidate, radiologists' error count, per-category counts A-F)
OWN = [
    ("Small left pleural effusion. No pneumothorax.", "Small left pleural effusion. No pneumothorax.", 0,
     [0, 0, 0, 0, 0, 0]),
    ("Small left pleural effusion. No pneumothorax.", "Large right pleural effusion. Pneumothorax.", 3,
     [1, 0, 1, 1, 0, 0]),
    ("Mild cardiomegaly. Lungs are clear.", "Mild cardiomegaly. Lungs are clear.", 0, [0, 0, 0, 0, 0, 0]),
    ("Mild cardiomegaly. Lungs are clear.", "Severe cardiomegaly. Right lower lobe consolidation.", 2,
     [1, 0, 0, 1, 0, 0]),
    ("No acute cardiopulmonary process.", "Right basilar atelectasis.", 1, [1, 0, 0, 0, 0, 0]),
    ("Right lower lobe pneumonia. Small effusion.", "Right lower lobe pneumonia.", 1, [0, 1, 0, 0, 0, 0]),
]


def write_own(tmp_path, categories=True):
    import csv

    path = tmp_path / "rated.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "reference", "candidate", "errors", *(CATEGORIES if categories else [])])
        for i, (ref, cand, errors, counts) in enumerate(OWN):
            writer.writerow([f"p{i}", ref, cand, errors, *(counts if categories else [])])
    return path


def test_own_ratings_with_the_rules_reader(tmp_path):
    out = tmp_path / "report.json"
    proc = run_cli("agree", "--ratings", str(write_own(tmp_path)), "--rating-col", "errors",
                   "--better", "lower", "--metrics", "crepe,radsem,bleu", "--extractor", "rules",
                   "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Kendall tau-b" in proc.stdout and "Spearman rho" in proc.stdout
    report = json.loads(out.read_text())
    assert report["n_pairs"] == 6 and report["rating_direction"] == "lower" and report["format"] == "own"
    for name in ("crepe", "radsem", "bleu"):
        entry = report["metrics"][name]
        assert entry["kendall"]["n"] == entry["spearman"]["n"] == entry["n_scored"] == 6
        assert entry["signature"].startswith(name) and not entry["demo_grade"]
        assert entry["kendall"]["aligned"] is not None and -1.0 <= entry["kendall"]["aligned"] <= 1.0
        lo, hi = entry["kendall"]["aligned_ci"]
        assert lo <= entry["kendall"]["aligned"] <= hi
    # CREPE counts errors like the raters (lower is better): raw and aligned agree; RadSEM is
    # higher-is-better, so its aligned coefficient is its raw one negated.
    crepe, radsem = report["metrics"]["crepe"], report["metrics"]["radsem"]
    assert crepe["kendall"]["aligned"] == crepe["kendall"]["coef"] > 0
    assert radsem["kendall"]["aligned"] == -radsem["kendall"]["coef"] > 0
    # Detection F1 for the metric that counts errors per category, none for the others.
    assert set(crepe["detection_f1"]["per_category"]) == set("abcdef")
    assert "detection_f1" not in radsem and "detection_f1" not in report["metrics"]["bleu"]
    line = next(x for x in proc.stdout.splitlines() if x.startswith("crepe"))
    assert f"{crepe['kendall']['aligned']:+.3f}" in line and f"{crepe['detection_f1']['overall']['f1']:.3f}" in line


def test_a_rexval_folder(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    out = tmp_path / "report.json"
    proc = run_cli("agree", "--ratings", str(tmp_path), "--format", "rexval", "--metrics", "crepe,bleu",
                   "--extractor", "rules", "--errors", "significant", "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert report["n_pairs"] == 12 and "significant" in report["rating"]
    assert set(report["metrics"]["crepe"]["detection_f1"]["per_category"]) == set("abcdef")
    # The invented candidates share no word with their references: BLEU is 0 for all twelve,
    # and a constant score has no rank correlation (null with its reason, never 0).
    bleu = report["metrics"]["bleu"]
    assert bleu["kendall"]["coef"] is None and bleu["no_coefficient"] == "the metric gave every pair the same score"
    assert "n/a" in next(x for x in proc.stdout.splitlines() if x.startswith("bleu"))


def _error(proc) -> str:
    assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in proc.stderr
    return lines[0]


@pytest.mark.parametrize("edit, extra, message", [
    ("rating", ["--better", "lower"], "no rating column 'rating'"),  # the file's column is 'errors'
    ("none", ["--rating-col", "errors"], "--better higher|lower is required"),
    ("empty", ["--rating-col", "errors", "--better", "lower"], "line 3, column 'errors': the cell is empty"),
    ("text", ["--rating-col", "errors", "--better", "lower"], "expected a number, found 'several'"),
    ("absent", ["--better", "lower"], "no such file or folder"),
    ("none", ["--format", "ratings-xl", "--better", "lower"], "invalid choice: 'ratings-xl'"),
    ("none", ["--format", "rexval"], "reads a folder"),
    ("none", ["--rating-col", "errors", "--better", "lower", "--metrics", "nosuch"], "nosuch"),
])
def test_bad_input_is_one_error_line(tmp_path, edit, extra, message):
    path = write_own(tmp_path, categories=False)
    lines = path.read_text().splitlines()
    if edit == "empty":
        lines[2] = lines[2].rsplit(",", 1)[0] + ","
    elif edit == "text":
        lines[2] = lines[2].rsplit(",", 1)[0] + ",several"
    elif edit == "absent":
        path = tmp_path / "absent.csv"
    if edit != "absent":
        path.write_text("\n".join(lines) + "\n")
    metrics = [] if "--metrics" in extra else ["--metrics", "bleu"]
    assert message in _error(run_cli("agree", "--ratings", str(path), *metrics, *extra))


def test_a_folder_as_own_ratings_and_a_contradicting_direction(tmp_path):
    assert "--format rexval or rate-eval" in _error(run_cli("agree", "--ratings", str(tmp_path),
                                                            "--better", "lower", "--metrics", "bleu"))
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    assert "contradicts ReXVal" in _error(run_cli("agree", "--ratings", str(tmp_path), "--format", "rexval",
                                                  "--better", "higher", "--metrics", "bleu"))
