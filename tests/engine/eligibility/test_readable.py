"""The readable-text check: invisible, wordless and non-English reports are told apart."""
from typing import get_args

import pytest

from radscope.engine.context import RuntimeContext
from radscope.engine.eligibility.readable import (
    ReaderLanguages,
    guess_language,
    pair_unreadable,
    unreadable_reason,
)
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.extraction import READER_LANGUAGES, ExtractorKind
from radscope.engine.metrics.framework.registry import production


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


def test_each_extractor_kind_declares_the_languages_its_reader_knows():
    assert set(READER_LANGUAGES) == set(get_args(ExtractorKind))
    assert set(READER_LANGUAGES.values()) <= set(get_args(ReaderLanguages))


def test_metrics_declare_their_reader_languages_by_extractor():
    registry = production()
    rules = RuntimeContext(options={"extractor": "rules"})
    assert registry.get("clear").build(rules).reader_languages == "english"
    assert registry.get("srr").build(rules).reader_languages == "english"
    assert registry.get("rouge").build(rules).reader_languages == "latin"
    judged = RuntimeContext(options={"extractor": "llm"})
    assert registry.get("clear").build(judged).reader_languages == "any"
