"""``python -m bench agreement`` on a small ReXVal-format folder written by the test."""
import json

from bench.quality.agreement import agreement, category_counts
from tests.conftest import run_bench
from tests.unit.test_ratings import ERRORS, write_ratings, write_samples


def test_agreement_on_a_rexval_folder(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    out = tmp_path / "agreement.json"
    proc = run_bench("agreement", "--format", "rexval", "--data", str(tmp_path),
                     "--metrics", "crepe,bleu", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    assert report["n_pairs"] == 12  # 3 studies x 4 candidates
    for name in ("crepe", "bleu"):
        entry = report["metrics"][name]
        assert entry["kendall"]["n"] == 12 and entry["kendall"]["method"] == "kendall"
        assert entry["signature"].startswith(name)
    assert -1.0 <= report["metrics"]["crepe"]["kendall"]["coef"] <= 1.0
    # The invented candidates share no word with their references: BLEU is 0 for all twelve,
    # and a constant score has no rank correlation (reported as null, not as 0).
    assert report["metrics"]["bleu"]["kendall"]["coef"] is None
    # CREPE counts errors per category, so it gets detection F1 against the raters; BLEU does not.
    assert set(report["metrics"]["crepe"]["detection_f1"]["per_category"]) == set("abcdef")
    assert "detection_f1" not in report["metrics"]["bleu"]


def test_missing_rating_data_skips_cleanly(tmp_path):
    proc = run_bench("agreement", "--format", "rexval", "--data", str(tmp_path / "absent"),
                     "--metrics", "bleu")
    assert proc.returncode == 0 and "bring your own copy" in proc.stdout


def test_alignment_sign_and_category_counts():
    # Humans count errors (lower is better); a higher-is-better metric that falls as errors
    # rise agrees with them: raw tau is negative, the aligned one positive.
    metric = [0.9, 0.7, 0.5, 0.1]
    errors = [0.0, 1.0, 2.0, 4.0]
    result = agreement(metric, errors, human_lower_is_better=True, metric_lower_is_better=False)
    assert result["kendall"]["coef"] == -1.0 and result["kendall"]["aligned"] == 1.0
    lo, hi = result["kendall"]["aligned_ci"]
    assert lo <= hi
    vert_like = {"error": None, "assessment": {"significant": {"a": {"count": 2, "errors": []},
                                                               "c": {"count": 1, "errors": []}}}}
    assert category_counts(vert_like) == {"A": 2.0, "B": 0.0, "C": 1.0, "D": 0.0, "E": 0.0, "F": 0.0}
    assert category_counts({"error": "judge: no answer"}) is None
