"""One call for a corpus: ``Scorer.score_corpus`` gives the summary the CLI writes with
``--summary`` for the same pairs, and every NaN has a per-pair reason."""
import json

import pytest

from radscope.engine.api import Scorer
from radscope.engine.commands import main

REFS = ["No acute cardiopulmonary process. Heart size is normal.",
        "Small left pleural effusion. Mild cardiomegaly.",
        "MRI brain: no acute infarct.",
        "Heart size is normal. Lungs are clear.",
        "Right lower lobe consolidation."]
CANDS = ["Heart size is normal. No pleural effusion.",
         "Moderate left pleural effusion. Heart size is normal.",
         "MRI brain: small acute infarct in the left frontal lobe.",
         "",  # an empty candidate: an input error for that pair only
         "Right lower lobe pneumonia. No effusion."]
METRICS = "radsem,clear,crepe,bleu"


def test_score_corpus_summary_equals_the_clis(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": str(i), "reference": r, "candidate": c}) + "\n"
                             for i, (r, c) in enumerate(zip(REFS, CANDS, strict=True))))
    summary_path = tmp_path / "summary.json"
    assert main(["score", "--input", str(pairs), "--out", str(tmp_path / "out.jsonl"),
                 "--summary", str(summary_path), "--db", str(tmp_path / "db.sqlite"),
                 "--metrics", METRICS, "--no-progress", "--workers", "1"]) == 0
    cli = json.loads(summary_path.read_text())
    with Scorer(METRICS) as scorer:
        result = scorer.score_corpus(REFS, CANDS)
    assert set(result.summary["metrics"]) == set(METRICS.split(","))
    for name, entry in result.summary["metrics"].items():
        assert entry == cli["metrics"][name], name
    clear = result.summary["metrics"]["clear"]
    assert (clear["n"], clear["n_errors"], clear["n_not_applicable"]) == (3, 1, 1)
    assert clear["corpus_figures"] and clear["signature"].startswith("clear|")
    assert result.summary["model_calls"] == 0
    assert "clear" in result.table() and "not applicable=1" in result.table()


def test_every_nan_has_a_reason():
    with Scorer("clear,bleu") as scorer:
        scores = scorer.score(REFS, CANDS)
    for metric in ("clear", "bleu"):
        values, reasons = scores.array(metric), scores.reasons(metric)
        for value, reason in zip(values, reasons, strict=True):
            assert (reason is None) == (value == value), (metric, value, reason)  # NaN != NaN
    assert scores.errors("clear")[2] is None  # not an error...
    assert scores.reasons("clear")[2].startswith("not applicable: designed for chest radiographs")
    assert scores.statuses("clear") == ["scored", "scored", "not_applicable", "error", "scored"]
    assert "empty" in scores.reasons("bleu")[3]
    with pytest.raises(KeyError, match="was not scored"):
        scores.reasons("radsem")
