"""The readable-text check: invisible, wordless and non-English reports are told apart."""
import pytest

from engine.readable import guess_language, pair_unreadable, reads_english_only, unreadable_reason
from engine.reports import ReportPair


@pytest.mark.parametrize("text, reason", [
    ("\u200b", "empty once spaces and invisible characters are removed"),
    (" \u200b\u2060\ufeff\u00ad\n\t", "empty once spaces and invisible characters are removed"),
    ("... !!! ---", "no words"),
    ("1. 2. 3/4", "no words"),
])
def test_empty_and_wordless_reports_cannot_be_read_by_any_metric(text, reason):
    assert reason in unreadable_reason(text, english_only=False)


@pytest.mark.parametrize("text", [
    "右肺下叶可见大片状高密度影，提示肺炎。",
    "Правое легкое без очаговых изменений.",
    "Absence d'épanchement pleural. Poumons clairs.",
    "Pas de pneumothorax.",
    "Le coeur est de taille normale.",
    "Sin derrame pleural. Pulmones limpios.",
    "Kein Pleuraerguss, keine Infiltrate.",
])
def test_other_languages_are_refused_for_english_only_readers(text):
    assert not guess_language(text).english
    assert "not English" in unreadable_reason(text, english_only=True)
    assert unreadable_reason(text, english_only=False) is None


@pytest.mark.parametrize("text", [
    "Heart size normal. Lungs clear.", "No pneumothorax.", "Normal.", "XXXX",
    "Stable right basilar opacity, likely atelectasis. No effusion.",
    "FINDINGS: The cardiomediastinal silhouette is within normal limits.",
])
def test_english_reports_pass(text):
    assert guess_language(text).english
    assert unreadable_reason(text, english_only=True) is None


def test_pair_reason_names_the_side():
    pair = ReportPair("p", "Lungs clear.", "\u200b")
    assert pair_unreadable(pair, False) == ("cannot read: candidate report is empty once spaces and "
                                            "invisible characters are removed")
    assert pair_unreadable(ReportPair("p", "双肺清晰。", "Lungs clear."), True).startswith(
        "cannot read: reference report: not English")


def test_which_readers_are_english_only():
    assert reads_english_only("clear|v:1|extractor:rules|rules:r1", is_encoder=False)
    assert reads_english_only("srr|v:1|model:srr-minilm-demo", is_encoder=True)
    assert not reads_english_only("clear|v:1|extractor:llm|judge:x", is_encoder=False)
    assert not reads_english_only("bleu|v:1|n:4", is_encoder=False)
