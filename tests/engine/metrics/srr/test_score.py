"""F1-SRR-BERT label algebra and aggregation; every expected number is derived by hand below."""
from __future__ import annotations

import json
import random
import warnings

import pytest

from radscope.engine.metrics.srr.score import (
    SrrCorpusScore,
    SrrPairScore,
    compare_label_sets,
    corpus_scores,
    score_pair,
)
from radscope.models.srr_labels import (
    NO_FINDING,
    LabelLevel,
    StatusView,
    apply_view,
    check_labels,
    labels_for,
    labels_to_upper,
    split_status,
    to_upper,
    view_vocabulary,
    vocabulary,
    with_status_label,
)
from tests.reference.srr import corpus_from_pairs

EDEMA = "Edema (Present)"
CARDIO = "Cardiomegaly (Present)"
PNEUMONIA = "Pneumonia (Present)"
SIMPLE_EFF = "Simple pleural effusion (Present)"
LOCULATED_EFF = "Loculated pleural effusion (Present)"
WSL = LabelLevel.LEAVES_WITH_STATUSES


# ------------------------------------------------------------------ labels


def test_vocabulary_sizes_and_layout():
    vocab = vocabulary()
    assert (len(vocab.leaves), len(vocab.upper)) == (55, 25)
    assert (len(vocab.leaves_with_statuses), len(vocab.upper_with_statuses)) == (163, 73)
    # 54 findings x 3 statuses, then No Finding: index 0 / 54 / 108 are the first leaf finding.
    assert vocab.leaves_with_statuses[0] == "Lung Lesion (Present)"
    assert vocab.leaves_with_statuses[54] == "Lung Lesion (Uncertain)"
    assert vocab.leaves_with_statuses[108] == "Lung Lesion (Absent)"
    assert vocab.leaves_with_statuses[-1] == NO_FINDING
    assert labels_for(LabelLevel.UPPER_WITH_STATUSES)[-1] == NO_FINDING


def test_split_and_join_status():
    assert split_status("Edema (Present)") == ("Edema", "Present")
    multifocal = "Air space opacity–multifocal"  # en dash, as in the label file
    assert split_status(f"{multifocal} (Uncertain)") == (multifocal, "Uncertain")
    assert split_status("Mass/Solitary lung mass (Absent)") == ("Mass/Solitary lung mass", "Absent")
    assert split_status(NO_FINDING) == (NO_FINDING, None)
    assert split_status("Cardiomegaly") == ("Cardiomegaly", None)
    assert with_status_label("Edema", "Absent") == "Edema (Absent)"
    assert with_status_label(NO_FINDING, "Present") == NO_FINDING
    # Every with-status label survives the round trip.
    for label in labels_for(WSL):
        assert with_status_label(*split_status(label)) == label


def test_to_upper_keeps_status():
    assert to_upper("Simple pleural effusion (Absent)") == "Pleural Effusion (Absent)"
    assert to_upper("Cardiomegaly (Uncertain)") == "Widened cardiac silhouette (Uncertain)"
    assert to_upper("Cardiomegaly") == "Widened cardiac silhouette"
    assert to_upper(NO_FINDING) == NO_FINDING
    # Every leaf-with-status label lands in the upper-with-status vocabulary.
    upper = set(labels_for(LabelLevel.UPPER_WITH_STATUSES))
    assert {to_upper(label) for label in labels_for(WSL)} <= upper
    with pytest.raises(ValueError, match="Pleural Effusion"):
        to_upper("Pleural Effusion (Present)")  # an upper label, not a leaf


def test_conflicting_statuses_under_one_upper_label_are_both_kept():
    labels = ["Simple pleural effusion (Present)", "Loculated pleural effusion (Absent)",
              "Simple pneumothorax (Present)", "Tension pneumothorax (Present)"]
    # The two pneumothorax leaves collapse into one upper label; the effusions keep two statuses.
    assert labels_to_upper(labels) == ["Pleural Effusion (Absent)", "Pleural Effusion (Present)",
                                       "Pneumothorax (Present)"]


def test_check_labels_names_unknown_labels():
    assert check_labels([EDEMA, CARDIO, EDEMA], WSL) == [CARDIO, EDEMA]
    with pytest.raises(ValueError, match="Edema \\(present\\)"):
        check_labels(["Edema (present)"], WSL)
    with pytest.raises(ValueError, match="Edema"):
        check_labels(["Edema"], WSL)  # a bare leaf is not a with-statuses label


def test_status_views():
    labels = ["Edema (Present)", "Pneumonia (Uncertain)", "Simple pneumothorax (Absent)",
              NO_FINDING]
    assert apply_view(labels, WSL, StatusView.ALL) == sorted(labels)
    assert apply_view(labels, WSL, StatusView.PRESENT) == ["Edema"]
    assert apply_view(labels, WSL, StatusView.PRESENT_OR_UNCERTAIN) == ["Edema", "Pneumonia"]
    # The present views live in the bare finding names (No Finding excluded): 54 leaves, 24 upper.
    assert len(view_vocabulary(WSL, StatusView.PRESENT)) == 54
    assert len(view_vocabulary(LabelLevel.UPPER_WITH_STATUSES, StatusView.PRESENT)) == 24
    with pytest.raises(ValueError, match="with-statuses"):
        apply_view(["Edema"], LabelLevel.LEAVES, StatusView.PRESENT)


# ------------------------------------------------------------------ per pair


def test_pair_f1_is_true_f1_and_jaccard_is_separate():
    # {A,B} vs {A,C}: one shared label; P = R = 1/2, F1 = 2*1/(2+2) = 0.5, Jaccard = 1/3.
    result = compare_label_sets([EDEMA, CARDIO], [EDEMA, PNEUMONIA], WSL)
    assert result.both == [EDEMA]
    assert result.only_reference == [CARDIO]
    assert result.only_candidate == [PNEUMONIA]
    assert (result.precision, result.recall, result.f1) == (0.5, 0.5, 0.5)
    assert result.jaccard == pytest.approx(1 / 3)


def test_pair_empty_set_conventions():
    both_empty = compare_label_sets([], [], WSL)
    assert (both_empty.precision, both_empty.recall, both_empty.f1,
            both_empty.jaccard) == (1.0, 1.0, 1.0, 1.0)
    missed = compare_label_sets([EDEMA], [], WSL)
    assert (missed.precision, missed.recall, missed.f1, missed.jaccard) == (0.0, 0.0, 0.0, 0.0)
    invented = compare_label_sets([], [EDEMA], WSL)
    assert (invented.precision, invented.recall, invented.f1) == (0.0, 0.0, 0.0)


def test_score_pair_reports_leaf_and_derived_upper_level():
    # Simple vs loculated effusion: different leaves (F1 0) but the same upper label (F1 1).
    result = score_pair([SIMPLE_EFF], [LOCULATED_EFF])
    assert result.leaf.f1 == 0.0
    assert result.upper.reference == result.upper.candidate == ["Pleural Effusion (Present)"]
    assert result.upper.f1 == 1.0
    assert result.upper.level == "upper_with_statuses"
    assert result.score == 0.0  # headline = finest level


def test_score_pair_from_an_upper_head_has_no_leaf_level():
    result = score_pair(["Pleural Effusion (Present)"],
                        ["Pleural Effusion (Present)", "Fracture (Absent)"],
                        level=LabelLevel.UPPER_WITH_STATUSES)
    assert result.leaf is None
    # 1 shared of 1 + 2 labels: F1 = 2/3.
    assert result.score == pytest.approx(2 / 3)


def test_present_view_per_pair():
    ref = [EDEMA, "Simple pneumothorax (Absent)"]
    cand = [EDEMA]
    # All labels: 1 shared, sizes 2 and 1 -> F1 2/3. Present only: {Edema} vs {Edema} -> 1.
    assert score_pair(ref, cand).score == pytest.approx(2 / 3)
    assert score_pair(ref, cand, view=StatusView.PRESENT).score == 1.0
    # Two normal reports: No Finding vs nothing asserted are both empty in the present view.
    normal = score_pair([NO_FINDING], ["Simple pneumothorax (Absent)"], view=StatusView.PRESENT)
    assert normal.score == 1.0


def test_pair_score_round_trips_through_json():
    result = score_pair([SIMPLE_EFF, EDEMA], [LOCULATED_EFF], view=StatusView.PRESENT)
    again = SrrPairScore.from_json(json.loads(json.dumps(result.to_json())))
    assert again == result


# ------------------------------------------------------------------ corpus


def test_weighted_f1_ignores_labels_absent_from_all_references():
    """Required check: refs {A},{A}; candidates {A,C},{A,C}."""
    result = corpus_scores([[EDEMA], [EDEMA]], [[EDEMA, CARDIO], [EDEMA, CARDIO]]).leaf
    # weighted: A has support 2 and F1 1; C has support 0, hence weight 0 -> 1.0.
    assert result.weighted.f1 == 1.0
    # micro: TP 2, FP 2, FN 0 -> P 1/2, R 1, F1 = 2*2/(2*2+2) = 2/3.
    assert round(result.micro.f1, 3) == 0.667
    assert result.micro.precision == 0.5 and result.micro.recall == 1.0
    # samples: each report 2*1/(1+2) = 2/3; Jaccard 1/2 each.
    assert round(result.samples.f1, 3) == 0.667
    assert result.samples_jaccard == pytest.approx(0.5)
    # macro over labels seen anywhere: (F1_A 1 + F1_C 0)/2; over all 163 labels: 1/163.
    assert result.macro.f1 == pytest.approx(0.5)
    assert result.macro_all.f1 == pytest.approx(1 / 163)
    assert result.n_active_labels == 2
    assert [(row.label, row.support, row.predicted) for row in result.per_label] == [
        (EDEMA, 2, 2), (CARDIO, 0, 2)]


def test_samples_average_counts_empty_pairs_as_agreement():
    # Pair 1 {A} vs {} -> P 0, R 0, F1 0; pair 2 {} vs {} -> 1, 1, 1. Means 0.5 each.
    result = corpus_scores([[EDEMA], []], [[], []]).leaf
    assert (result.samples.precision, result.samples.recall, result.samples.f1) == (0.5, 0.5, 0.5)
    assert result.samples_jaccard == 0.5
    # micro: TP 0, FP 0, FN 1 -> P 0/0 -> 0 (zero_division), R 0, F1 0; weighted: A's F1 0.
    assert (result.micro.precision, result.micro.recall, result.micro.f1) == (0.0, 0.0, 0.0)
    assert result.weighted.f1 == 0.0


def test_undefined_averages_are_none():
    # Nothing on either side anywhere (present view of two normal pairs).
    result = corpus_scores([[NO_FINDING], []], [[NO_FINDING], ["Edema (Absent)"]],
                           view=StatusView.PRESENT).leaf
    assert result.weighted.f1 is None and result.micro.f1 is None and result.macro.f1 is None
    assert result.samples.f1 == 1.0
    assert result.macro_all.f1 == 0.0  # scikit-learn's 0/0 -> 0 over all 54 labels
    # Only hallucinations: no reference support -> weighted undefined, micro defined (0).
    only_fp = corpus_scores([[]], [[EDEMA]]).leaf
    assert only_fp.weighted.f1 is None and only_fp.micro.f1 == 0.0
    empty = corpus_scores([], []).leaf
    assert empty.n_reports == 0 and empty.samples.f1 is None and empty.samples_jaccard is None


def test_corpus_upper_level_is_derived_from_leaves():
    result = corpus_scores([[SIMPLE_EFF]], [[LOCULATED_EFF]])
    assert result.leaf.micro.f1 == 0.0
    assert result.upper.micro.f1 == 1.0
    assert result.upper.level == "upper_with_statuses"
    assert result.upper.n_labels == 73


def test_corpus_averages_match_hand_counts_on_random_sets():
    rng = random.Random(7)
    pool = list(labels_for(WSL))[:12]
    refs = [rng.sample(pool, rng.randint(0, 4)) for _ in range(40)]
    cands = [rng.sample(pool, rng.randint(0, 4)) for _ in range(40)]
    result = corpus_scores(refs, cands).leaf
    # samples = mean of the per-pair values.
    pairs = [score_pair(r, c).leaf for r, c in zip(refs, cands)]
    assert result.samples.f1 == pytest.approx(sum(p.f1 for p in pairs) / 40)
    assert result.samples.precision == pytest.approx(sum(p.precision for p in pairs) / 40)
    assert result.samples.recall == pytest.approx(sum(p.recall for p in pairs) / 40)
    assert result.samples_jaccard == pytest.approx(sum(p.jaccard for p in pairs) / 40)
    # micro = pooled counts.
    tp = sum(len(set(r) & set(c)) for r, c in zip(refs, cands))
    fp = sum(len(set(c) - set(r)) for r, c in zip(refs, cands))
    fn = sum(len(set(r) - set(c)) for r, c in zip(refs, cands))
    assert result.micro.f1 == pytest.approx(2 * tp / (2 * tp + fp + fn))
    # weighted = support-weighted mean of the per-label F1s; macro = their plain mean.
    rows = result.per_label
    total = sum(row.support for row in rows)
    assert result.weighted.f1 == pytest.approx(sum(row.f1 * row.support for row in rows) / total)
    assert result.macro.f1 == pytest.approx(sum(row.f1 for row in rows) / len(rows))
    for row in rows:
        tp_l = sum(row.label in r and row.label in c for r, c in zip(refs, cands))
        assert row.f1 == pytest.approx(2 * tp_l / (row.support + row.predicted))


def test_corpus_from_stored_pairs_and_view_switch():
    refs = [[EDEMA, "Simple pneumothorax (Absent)"], [CARDIO]]
    cands = [[EDEMA], [CARDIO, "Pneumonia (Uncertain)"]]
    stored = [SrrPairScore.from_json(json.loads(json.dumps(score_pair(r, c).to_json())))
              for r, c in zip(refs, cands)]
    assert corpus_from_pairs(stored) == corpus_scores(refs, cands)
    present = corpus_from_pairs(stored, view=StatusView.PRESENT)
    # Present view: {Edema} vs {Edema}, {Cardiomegaly} vs {Cardiomegaly} -> everything 1.
    assert present.leaf.micro.f1 == 1.0 and present.leaf.samples.f1 == 1.0
    assert present.view == "present"
    upper_pair = score_pair(["Fracture (Present)"], [], level=LabelLevel.UPPER_WITH_STATUSES)
    with pytest.raises(ValueError, match="mix"):
        corpus_from_pairs(stored + [upper_pair])


def test_corpus_result_round_trips_through_json():
    result = corpus_scores([[EDEMA], [SIMPLE_EFF, CARDIO]], [[EDEMA, CARDIO], [LOCULATED_EFF]])
    assert SrrCorpusScore.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_input_errors():
    with pytest.raises(ValueError, match="2 reference"):
        corpus_scores([[EDEMA], [EDEMA]], [[EDEMA]])
    with pytest.raises(ValueError, match="not in the SRR-BERT"):
        corpus_scores([["Made-up finding (Present)"]], [[]])


def test_no_scikit_learn_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        corpus_scores([[EDEMA], [], [CARDIO]], [[], [], [PNEUMONIA]])
        corpus_scores([[]], [[]], view=StatusView.PRESENT)
