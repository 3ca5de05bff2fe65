"""The readable-text check: invisible, wordless and non-English reports are told apart."""
import pytest

from engine.eligibility.readable import guess_language, pair_unreadable, reader_scope, unreadable_reason
from engine.io.reports import ReportPair


@pytest.mark.parametrize("text, reason", [
    ("\u200b", "empty once spaces and invisible characters are removed"),
    (" \u200b\u2060\ufeff\u00ad\n\t", "empty once spaces and invisible characters are removed"),
    ("... !!! ---", "no words"),
    ("1. 2. 3/4", "no words"),
])
def test_empty_and_wordless_reports_cannot_be_read_by_any_metric(text, reason):
    assert reason in unreadable_reason(text, "any")


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
    assert "not English" in unreadable_reason(text, "english")
    assert unreadable_reason(text, "any") is None


@pytest.mark.parametrize("text", [
    "Heart size normal. Lungs clear.", "No pneumothorax.", "Normal.", "XXXX",
    "Stable right basilar opacity, likely atelectasis. No effusion.",
    "FINDINGS: The cardiomediastinal silhouette is within normal limits.",
])
def test_english_reports_pass(text):
    assert guess_language(text).english
    assert unreadable_reason(text, "english") is None


def test_pair_reason_names_the_side():
    pair = ReportPair("p", "Lungs clear.", "\u200b")
    assert pair_unreadable(pair, "any") == ("cannot read: candidate report is empty once spaces and "
                                            "invisible characters are removed")
    assert pair_unreadable(ReportPair("p", "双肺清晰。", "Lungs clear."), "english").startswith(
        "cannot read: reference report: not English")


def test_word_overlap_readers_need_the_latin_alphabet():
    assert "not in the Latin alphabet" in unreadable_reason("右侧大量气胸。", "latin")
    assert "not in the Latin alphabet" in unreadable_reason("Правое легкое чистое.", "latin")
    assert unreadable_reason("Absence d'épanchement pleural.", "latin") is None


def test_reader_scopes_come_from_the_signature():
    assert reader_scope("clear|v:1|extractor:rules|rules:r1", is_encoder=False) == "english"
    assert reader_scope("srr|v:1|model:srr-minilm-demo", is_encoder=True) == "english"
    assert reader_scope("rouge|v:1|variant:rougeL-F|tok:lower-nopunct", is_encoder=False) == "latin"
    assert reader_scope("clear|v:1|extractor:llm|judge:x", is_encoder=False) == "any"
