"""Issue 43: the paraphrase corpus beyond the chest radiograph (CT, MRI, ultrasound, bone and
joint radiographs). Its shape: every report has the four faithful kinds of rewrite and the planted
errors it claims, each planted error changes the report; and every report is perfect against
itself with every rules metric. (The faithful-score thresholds are the reader work's to set.)"""
from __future__ import annotations

import pytest

from bench.quality.layouts import METRICS, rules_metrics
from bench.corpora.paraphrase_reports import END, FAITHFUL_KINDS, MODALITIES, SOURCES
from bench.corpora.paraphrase_levels import LEVELS
from bench.quality.paraphrases import ERRORS, _in_order, corpus, level_orders, markdown, plant, score_table


@pytest.fixture(scope="module")
def table():
    return score_table(corpus(), rules_metrics(METRICS))


def test_every_modality_has_at_least_four_reports_with_distinct_names():
    assert len(SOURCES) >= 16
    assert len({s.name for s in SOURCES}) == len(SOURCES)
    for modality in MODALITIES:
        assert sum(s.modality == modality for s in SOURCES) >= 4, modality
    assert {s.modality for s in SOURCES} == set(MODALITIES)


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_every_report_has_the_four_faithful_rewrites_each_differing_from_it(source):
    assert set(source.rewrites) == set(FAITHFUL_KINDS)
    for kind, text in source.rewrites.items():
        assert text.strip() != source.reference.strip(), kind
        assert "IMPRESSION" in text.upper(), kind


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_every_planted_error_applies_and_changes_the_report(source):
    assert set(source.errors) <= set(ERRORS)
    assert len(source.errors) >= 8, sorted(set(ERRORS) - set(source.errors))
    for kind, edits in source.errors.items():
        for old, new in edits:
            assert old == END or old in source.reference, (kind, old)
            assert old != new, (kind, old)
        assert plant(source.reference, edits) != source.reference, kind


def test_the_corpus_pairs_every_report_with_itself_its_rewrites_and_its_errors():
    pairs = corpus()
    expected = sum(1 + len(s.rewrites) + len(s.errors) for s in SOURCES)
    assert len(pairs) == expected
    assert len({p.pair.id for p in pairs}) == expected


def test_an_edit_the_report_does_not_hold_is_an_error_not_a_silent_no_op():
    with pytest.raises(ValueError, match="not in the report"):
        plant("FINDINGS:\nNo fracture.", (("left kidney", "right kidney"),))
    assert plant("A left cyst.", (("left", "right"), (END, "\n1. Cyst."))) == "A right cyst.\n1. Cyst."


def test_edits_are_made_at_once_so_one_does_not_rewrite_another():
    text = "A cyst in the left ovary. The right ovary is normal."
    planted = plant(text, (("left ovary", "right ovary"), ("The right ovary is normal", "The left ovary is normal")))
    assert planted == "A cyst in the right ovary. The left ovary is normal."


def test_every_report_is_perfect_against_itself_with_every_rules_metric(table):
    assert table["imperfect_identical"] == []
    # A metric may answer "not applicable" outside the studies it was built for; only the
    # chest-radiograph metrics do, and never RadSEM or VERT (meant for any study).
    assert not {"radsem", "vert"} & set(table["not_applicable"])


def test_the_table_has_every_metric_kind_and_modality(table):
    for metric in ("crepe", "vert", "radsem"):
        assert set(table["faithful"][metric]) == set(FAITHFUL_KINDS)
        for cells in table["faithful"][metric].values():
            assert set(cells) == {*MODALITIES, "all"}
        assert set(table["rates"][metric]) == set(ERRORS)
    text = markdown(table)
    assert "| radsem | certainty |" in text and "| radsem (higher) | synonyms |" in text
    # CLEAR's card does not claim to see a side: its rate is shown in parentheses.
    assert "| clear | side | (" in text


def test_the_levels_are_of_reports_of_the_corpus_with_a_synonyms_rewrite_and_differ_from_it():
    by_name = {s.name: s for s in SOURCES}
    assert len(LEVELS) == 23
    for name, (all_normal, turned) in LEVELS.items():
        assert "synonyms" in by_name[name].rewrites
        assert all_normal != turned and all_normal not in by_name[name].reference


def test_a_level_order_is_strict_and_in_the_metric_s_direction():
    assert _in_order([0.9, 0.1, 0.0], "higher")
    assert not _in_order([0.9, 0.1, 0.1], "higher")  # a tie is not an order
    assert _in_order([0.5, 10.0, 20.0], "lower")  # CREPE counts errors
    assert not _in_order([0.9, None, 0.0], "higher")  # an unscored level is not in order


def test_radsem_and_vert_order_every_report_s_levels():
    # measured on the reader of issue 43 (reader-v13 and reader-v14): every report, both metrics
    metrics = [m for m in rules_metrics(METRICS) if m.name in ("radsem", "vert")]
    orders = level_orders(metrics)
    assert {name: (o["ordered"], o["n"]) for name, o in orders.items()} == {"radsem": (23, 23), "vert": (23, 23)}
