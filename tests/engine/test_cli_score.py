"""``radscope score`` end to end on the lexical metrics, through a subprocess."""
import json

import pandas as pd
import pytest

from tests.conftest import run_cli


def _pairs_file(tmp_path):
    rows = [
        {"id": "same", "reference": "No pleural effusion. Heart size normal.",
         "candidate": "No pleural effusion. Heart size normal."},
        {"id": "other", "reference": "No pleural effusion. Heart size normal.",
         "candidate": "Large right pneumothorax with mediastinal shift."},
        {"id": "empty", "reference": "Lungs clear.", "candidate": ""},
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_score_writes_every_row_summary_and_csv(tmp_path):
    out, summary, csv = tmp_path / "r.jsonl", tmp_path / "s.json", tmp_path / "r.csv"
    proc = run_cli("score", "--input", str(_pairs_file(tmp_path)), "--metrics", "bleu,rouge",
                   "--out", str(out), "--summary", str(summary), "--csv", str(csv), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["same", "other", "empty"]
    same = rows[0]["metrics"]
    assert same["bleu"]["score"] == 1.0 and same["rouge"]["score"] == 1.0
    assert same["bleu"]["direction"] == "higher" and same["bleu"]["signature"].startswith("bleu|v:1")
    assert rows[1]["metrics"]["rouge"]["score"] < 0.2
    assert rows[2]["metrics"]["bleu"]["score"] is None
    assert rows[2]["metrics"]["bleu"]["error"] == "input: candidate report is empty"
    s = json.loads(summary.read_text())
    bleu = s["metrics"]["bleu"]
    assert bleu["n"] == 2 and bleu["n_errors"] == 1
    assert bleu["ci_low"] <= bleu["mean"] <= bleu["ci_high"]
    assert s["model_calls"] == 0 and s["cache_hits"] == 0
    assert len(pd.read_csv(csv)) == 3


def test_rerun_same_run_id_skips_finished_pairs(tmp_path):
    pairs = _pairs_file(tmp_path)
    args = ["score", "--input", str(pairs), "--metrics", "bleu", "--run-id", "r1", "--no-progress",
            "--db", str(tmp_path / "db.sqlite")]
    assert run_cli(*args, "--out", str(tmp_path / "a.jsonl")).returncode == 0
    # A run id stands for one set of metrics and options: asking it for another set is refused.
    proc = run_cli("score", "--input", str(pairs), "--metrics", "bleu,rouge", "--run-id", "r1",
                   "--no-progress", "--db", str(tmp_path / "db.sqlite"), "--out", str(tmp_path / "b.jsonl"))
    assert proc.returncode == 2 and "r1" in proc.stderr
    again = run_cli(*args, "--out", str(tmp_path / "c.jsonl"))
    assert again.returncode == 0
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "c.jsonl").read_text()


def test_bad_input_exits_non_zero_with_a_message(tmp_path):
    bad = tmp_path / "p.csv"
    bad.write_text("id,ref,candidate\n1,R,C\n")
    proc = run_cli("score", "--input", str(bad), "--metrics", "bleu", "--out", str(tmp_path / "o.jsonl"))
    assert proc.returncode == 2
    assert "column 'reference' (the reference column) not found" in proc.stderr
    proc = run_cli("score", "--input", str(bad), "--metrics", "blue", "--out", str(tmp_path / "o.jsonl"),
                   "--reference-col", "ref")
    assert proc.returncode == 2 and "unknown metric(s): blue" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_metrics_listing():
    proc = run_cli("metrics")
    assert proc.returncode == 0
    assert "rouge" in proc.stdout and "higher is better" in proc.stdout


def test_compare_two_systems_and_flag_different_setups(tmp_path):
    refs = ["No pleural effusion. Heart size normal.", "Small left pleural effusion.",
            "Mild cardiomegaly. Lungs clear.", "Right lower lobe pneumonia."]
    rows_a = [{"id": str(i), "reference": r, "candidate": "Normal chest."} for i, r in enumerate(refs)]
    rows_b = [{"id": str(i), "reference": r, "candidate": r} for i, r in enumerate(refs)]
    outs = {}
    for name, rows in (("a", rows_a), ("b", rows_b)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
        outs[name] = tmp_path / f"{name}_out.jsonl"
        assert run_cli("score", "--input", str(path), "--metrics", "rouge", "--no-progress",
                       "--out", str(outs[name])).returncode == 0
    proc = run_cli("compare", str(outs["a"]), str(outs["b"]), "--metric", "rouge", "--resamples", "500")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    # B copies every reference: ROUGE-L 1.0 on all four pairs, far above A.
    assert result["pairs_in_both"] == 4 and result["mean_b"] == 1.0 and result["mean_diff"] > 0.5
    assert result["same_setup"] is True and "warning" not in proc.stderr
    # Rewrite B's signature as if another tokeniser had been used: the comparison says so.
    lines = [json.loads(line) for line in outs["b"].read_text().splitlines()]
    for line in lines:
        line["metrics"]["rouge"]["signature"] = line["metrics"]["rouge"]["signature"].replace(
            "stem:yes", "stem:no")
    outs["b"].write_text("".join(json.dumps(line) + "\n" for line in lines))
    proc = run_cli("compare", str(outs["a"]), str(outs["b"]), "--metric", "rouge", "--resamples", "500")
    result = json.loads(proc.stdout)
    assert result["same_setup"] is False and "warning" in proc.stderr
    assert result["signature_differences"] == {"stem": ["yes", "no"]}
    # No "B better" across different set-ups: the verdict names the field that differs.
    assert result["verdict"] == "no verdict: set-ups differ (stem)"


def test_compare_gives_a_verdict_and_leaves_demo_grade_out_unless_asked(tmp_path):
    def write(name: str, scores: list[float], demo: bool) -> str:
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"id": str(i), "metrics": {"bleu": {
            "score": s, "error": None, "signature": "bleu|v:1", "demo_grade": demo}}}) + "\n"
            for i, s in enumerate(scores)))
        return str(path)

    base = [0.1, 0.2, 0.3, 0.4, 0.5, 0.2, 0.3, 0.1]
    a, b = write("a", base, False), write("b", [s + 0.2 for s in base], False)
    result = json.loads(run_cli("compare", a, b, "--metric", "bleu", "--resamples", "500").stdout)
    assert result["verdict"] == "B better (p < 0.05)" and result["same_setup"] is True
    assert result["mean_diff"] == pytest.approx(0.2) and result["p_value"] < 0.05
    # The mean is compared once, with one p-value: not again among the figures.
    assert "mean" not in result["figures"] and "p_permutation" not in result
    a, b = write("a", base, True), write("b", [s + 0.2 for s in base], True)
    result = json.loads(run_cli("compare", a, b, "--metric", "bleu", "--resamples", "500").stdout)
    assert result["verdict"] == "left out: demo-grade model" and result["mean_diff"] == pytest.approx(0.2)
    result = json.loads(run_cli("compare", a, b, "--metric", "bleu", "--resamples", "500",
                                "--include-demo").stdout)
    assert result["verdict"] == "B better (p < 0.05)"
