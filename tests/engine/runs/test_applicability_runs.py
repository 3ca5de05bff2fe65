"""Out-of-scope pairs through the runner and the CLI: CLEAR (chest radiographs) on the MRI and
CT examples is "not applicable", scores when forced, and summaries count such pairs apart."""
from __future__ import annotations

import json

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runs.summary import format_summary
from tests.conftest import run_cli


def _examples(*ids: str):
    return [e.pair for e in example_pairs() if e.pair.id in ids]


def test_clear_on_the_mri_and_ct_examples_is_not_applicable_unless_forced():
    pairs = _examples("mri-brain", "ct-chest-nodule", "normal-chest")
    run = run_batch(pairs, ["clear", "radsem"], RuntimeContext(options={}), registry=production())
    by_id = {row["id"]: row["metrics"] for row in run.rows}
    for pid, reason in (("mri-brain", "modality MR and body area head"),
                        ("ct-chest-nodule", "modality CT")):
        clear = by_id[pid]["clear"]
        assert clear["score"] is None and clear["error"] is None
        assert clear["not_applicable"] == ("not applicable: designed for chest radiographs; "
                                           f"this study is {reason} (as given)")
        assert by_id[pid]["radsem"]["score"] is not None  # RadSEM is for any modality
    assert by_id["normal-chest"]["clear"]["score"] is not None
    summary = run.summary["metrics"]["clear"]
    assert (summary["n"], summary["n_errors"], summary["n_not_applicable"]) == (1, 0, 2)
    assert "not applicable=2" in format_summary(run.summary)

    forced = run_batch(pairs, ["clear"],
                       RuntimeContext(options={"force_applicability": True}), registry=production())
    for row in forced.rows:
        assert row["metrics"]["clear"]["score"] is not None
        assert "not_applicable" not in row["metrics"]["clear"]


def test_mri_text_without_a_modality_column_is_detected():
    (mri,) = _examples("mri-brain")
    mri.modality = mri.area = None
    run = run_batch([mri], ["clear"], RuntimeContext(options={}), registry=production())
    assert run.rows[0]["metrics"]["clear"]["not_applicable"].endswith(
        "modality MR and body area head (detected from the report text)")


def test_cli_default_metrics_have_no_demo_grade_model_and_force_flag_works(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": p.id, "reference": p.reference,
                                         "candidate": p.candidate, "modality": p.modality,
                                         "area": p.area}) + "\n"
                             for p in _examples("mri-brain", "normal-chest")))
    out, summary = tmp_path / "r.jsonl", tmp_path / "s.json"
    proc = run_cli("score", "--input", str(pairs), "--modality-col", "modality", "--area-col",
                   "area", "--out", str(out), "--summary", str(summary), "--no-progress")
    assert proc.returncode == 0, proc.stderr
    rows = {row["id"]: row["metrics"] for row in map(json.loads, out.read_text().splitlines())}
    assert sorted(rows["mri-brain"]) == ["bleu", "bleu1", "clear", "crepe", "radsem", "rouge", "srr",
                                         "vert"]
    assert not any(r["demo_grade"] for metrics in rows.values() for r in metrics.values())
    assert json.loads(summary.read_text())["demo_grade_metrics"] == {}
    assert rows["mri-brain"]["clear"]["not_applicable"].startswith("not applicable:")

    forced = run_cli("score", "--input", str(pairs), "--modality-col", "modality", "--area-col",
                     "area", "--metrics", "clear,crepe", "--crepe-model", "crepe-minilm-demo",
                     "--force-applicability", "--out",
                     str(out), "--no-progress")
    assert forced.returncode == 0, forced.stderr
    rows = {row["id"]: row["metrics"] for row in map(json.loads, out.read_text().splitlines())}
    assert rows["mri-brain"]["clear"]["score"] is not None
    assert "demo-grade numbers, not measurements: crepe (crepe-minilm-demo)" in forced.stdout
