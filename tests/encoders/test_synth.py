"""The synthetic-data generator behind the bundled models: deterministic, exact counts, valid labels."""
import collections
import json
import os
import subprocess
import sys

from radscope.models.srr_labels import LabelLevel, check_labels
from training.synth import CATEGORY_KEYS, CrepePair, crepe_dataset, srr_dataset
from tests.conftest import ROOT


def test_same_seed_same_data_even_with_another_hash_seed():
    code = ("import json; from training.synth import crepe_dataset, srr_dataset; "
            "print(json.dumps([p.to_json() for p in crepe_dataset(40, 5)] + "
            "[u.to_json() for u in srr_dataset(40, 5)]))")
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])[0] == crepe_dataset(40, 5)[0].to_json()
    assert crepe_dataset(40, 5) != crepe_dataset(40, 6)


def test_every_count_is_one_recorded_edit():
    pairs = crepe_dataset(400, 11)
    for pair in pairs:
        per_category = collections.Counter(edit.split(":")[0] for edit in pair.edits)
        assert {k: per_category.get(k, 0) for k in CATEGORY_KEYS} == pair.counts
        assert CrepePair.from_json(json.loads(json.dumps(pair.to_json()))) == pair
    # Every category occurs, error-free pairs exist, and verbatim copies count zero errors.
    assert all(any(p.counts[k] for p in pairs) for k in CATEGORY_KEYS)
    copies = [p for p in pairs if p.reference == p.candidate]
    assert copies and all(sum(p.counts.values()) == 0 for p in copies)


def test_location_edits_really_move_the_finding():
    moves = [e for p in crepe_dataset(300, 12) for e in p.edits if e.startswith("C:")]
    assert moves
    for edit in moves:
        # "C: <finding> <side> [site] -> <side> [site]"
        before, after = edit[3:].split(" -> ")
        assert before.split(" ", 1)[1] != after


def test_srr_utterance_labels_belong_to_the_163_label_vocabulary():
    utterances = srr_dataset(500, 3)
    for u in utterances:
        assert check_labels(u.labels, LabelLevel.LEAVES_WITH_STATUSES) == sorted(u.labels)
    statuses = collections.Counter(label.rsplit("(", 1)[-1].rstrip(")") for u in utterances
                                   for label in u.labels if "(" in label)
    assert set(statuses) == {"Present", "Uncertain", "Absent"}
    assert any(u.labels == [] for u in utterances)  # sentences that state no finding
    assert any(u.labels == ["No Finding"] for u in utterances)
