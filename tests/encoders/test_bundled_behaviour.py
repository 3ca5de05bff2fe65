"""What the bundled demonstration models must get right (issue 4, "Behaviour of the bundled models").

CREPE: category counts must move in the direction of the injected change, measured against the
same reference paired with itself. SRR: three plain sentences must get the obvious labels.
"""
import pytest

from radscope.engine.metrics.crepe.score import CATEGORY_KEYS

BASES = [
    # (reference, the same with one false finding added, with one finding removed,
    #  with the laterality of one finding swapped)
    ("Small left pleural effusion. Mild cardiomegaly. No pneumothorax.",
     "Small left pleural effusion. Mild cardiomegaly. Right lower lobe pneumonia. No pneumothorax.",
     "Small left pleural effusion. No pneumothorax.",
     "Small right pleural effusion. Mild cardiomegaly. No pneumothorax."),
    ("Moderate right pleural effusion. Left upper lobe consolidation. Heart size is normal.",
     "Moderate right pleural effusion. Left upper lobe consolidation. Mild pulmonary edema. "
     "Heart size is normal.",
     "Left upper lobe consolidation. Heart size is normal.",
     "Moderate right pleural effusion. Right upper lobe consolidation. Heart size is normal."),
]


def _counts(encoder, reference, candidate):
    from radscope.engine.metrics.crepe.score import aggregate

    raw = encoder.raw_counts([(reference, candidate)])[0]
    return aggregate(raw, softplus=encoder.manifest.softplus)


@pytest.mark.parametrize("base", BASES, ids=["effusion-cardiomegaly", "effusion-consolidation"])
def test_crepe_identical_pair_scores_below_half(crepe_encoder, base):
    same = _counts(crepe_encoder, base[0], base[0])
    assert same.total < 0.5, same.counts


@pytest.mark.parametrize("base", BASES, ids=["effusion-cardiomegaly", "effusion-consolidation"])
def test_crepe_counts_follow_the_injected_error(crepe_encoder, base):
    reference, added, removed, swapped = base
    same = _counts(crepe_encoder, reference, reference)
    plus = _counts(crepe_encoder, reference, added)
    minus = _counts(crepe_encoder, reference, removed)
    moved = _counts(crepe_encoder, reference, swapped)
    # Each edit raises its own category by a clear margin (a quarter of an error).
    assert plus.counts["A"] > same.counts["A"] + 0.25, (same.counts, plus.counts)
    assert minus.counts["B"] > same.counts["B"] + 0.25, (same.counts, minus.counts)
    assert moved.counts["C"] > same.counts["C"] + 0.25, (same.counts, moved.counts)
    for changed in (plus, minus, moved):
        assert changed.total > same.total
    assert set(same.counts) == set(CATEGORY_KEYS)


def _labels(encoder, text):
    return encoder.utterance_labels([text])[0]


def test_srr_small_left_effusion_is_a_present_simple_effusion(srr_encoder):
    assert "Simple pleural effusion (Present)" in _labels(srr_encoder, "Small left pleural effusion.")


def test_srr_no_pneumothorax_is_an_absent_pneumothorax(srr_encoder):
    labels = _labels(srr_encoder, "No pneumothorax.")
    assert any(label.endswith("(Absent)") and "pneumothorax" in label.lower()
               for label in labels), labels
    assert not any(label.endswith("(Present)") for label in labels), labels


def test_srr_normal_heart_is_no_finding_or_absent_cardiac_label(srr_encoder):
    labels = _labels(srr_encoder, "Heart size is normal.")
    cardiac_absent = {"Cardiomegaly (Absent)", "Pericardial effusion (Absent)"}
    assert labels and set(labels) <= cardiac_absent | {"No Finding"}, labels
