"""Unreadable reports get "cannot read: <reason>" per metric, counted apart in the summary,
through the real rules readers, the bundled SRR-BERT encoder and BLEU."""
from radscope.engine.context import RuntimeContext
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.engine.runs.summary import format_summary

PAIRS = [
    ReportPair("english", "No pleural effusion. Heart size normal.", "Small left pleural effusion."),
    ReportPair("chinese", "右侧大量气胸，纵隔向左移位。", "双肺清晰，未见气胸。"),  # contradictory
    ReportPair("chinese-same", "右侧大量气胸。", "右侧大量气胸。"),
    ReportPair("punctuation", "... !!!", "--- ??"),
    ReportPair("zero-width", "Lungs clear.", "\u200b\u200b"),
    ReportPair("french", "Absence d'épanchement pleural. Le coeur est de taille normale.",
               "Épanchement pleural gauche de grande abondance."),
]


def test_unreadable_pairs_get_no_number(tmp_path):
    ctx = RuntimeContext(options={"extractor": "rules"})
    try:
        run = run_batch(PAIRS, ["clear", "radsem", "srr", "bleu"], ctx, registry=production())
    finally:
        ctx.close()
    by_id = {row["id"]: row["metrics"] for row in run.rows}
    assert all(by_id["english"][m]["error"] is None for m in ("clear", "radsem", "srr", "bleu"))
    # The English-only readers (rules, the demo encoder) refuse Chinese and French...
    for pid in ("chinese", "chinese-same", "french"):
        for name in ("clear", "radsem", "srr"):
            result = by_id[pid][name]
            assert result["score"] is None, (pid, name)
            assert result["error"].startswith("cannot read: reference report: not English"), (pid, name)
    # BLEU splits words on spaces: Chinese (no spaces) is refused, French is scored.
    assert by_id["chinese-same"]["bleu"]["error"].startswith(
        "cannot read: reference report: not in the Latin alphabet")
    assert by_id["french"]["bleu"]["score"] is not None
    # Nobody reads punctuation or an invisible report.
    for name in ("clear", "radsem", "srr", "bleu"):
        assert by_id["punctuation"][name]["error"] == ("cannot read: reference report: no words (only "
                                                       "punctuation, digits or symbols)")
        assert by_id["zero-width"][name]["error"] == ("cannot read: candidate report is empty once "
                                                      "spaces and invisible characters are removed")
    clear = run.summary["metrics"]["clear"]
    assert (clear["n"], clear["n_errors"], clear["n_cannot_read"]) == (1, 0, 5)
    bleu = run.summary["metrics"]["bleu"]
    assert (bleu["n"], bleu["n_errors"], bleu["n_cannot_read"]) == (2, 0, 4)
    assert "cannot read=5" in format_summary(run.summary)


def test_language_benchmark_counts_wrong_guesses(tmp_path):
    import csv
    import json

    from tests.conftest import run_bench

    parrot = tmp_path / "Fr_sample.csv"
    with parrot.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Language", "Report", "English translation"])
        writer.writerow(["Fr", "Pas d'épanchement pleural. Le coeur est normal.", "No pleural effusion. Normal heart."])
        writer.writerow(["Fr", "IRM CEREBRALE", "BRAIN MRI"])  # a heading alone carries no evidence
    out = tmp_path / "language.json"
    proc = run_bench("language", "--parrot", str(parrot), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    sets = json.loads(out.read_text())["sets"]
    assert (sets["parrot_french"]["n"], sets["parrot_french"]["wrong"]) == (2, 1)
    assert sets["parrot_french"]["examples"][0]["text"] == "IRM CEREBRALE"
    assert (sets["parrot_english_translation"]["n"], sets["parrot_english_translation"]["wrong"]) == (2, 0)
    assert "IU X-ray archive not found" in proc.stdout
