"""radscope.engine.ratings.rate_eval: the RaTE-Eval Task 2 reader on small files written here."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from radscope.engine.ratings.rate_eval import load_rate_eval
from radscope.engine.ratings.table import RatingsFormatError

GT = ["Heart size is normal.", "Right lower lobe consolidation.", "No fracture."]
SIMILAR = ["Normal heart size.", "Left lower lobe consolidation.", "Acute rib fracture."]


def write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data))


def test_lists_and_a_single_score_column(tmp_path):
    task = tmp_path / "Task2_paragraph_rate"
    task.mkdir()
    (task / "rate_test.csv").write_text("Score\n4.5\n2.25\n0\n")
    write_json(task / "gt_report_test.json", GT)
    write_json(task / "similar_report_test.json", SIMILAR)
    data = load_rate_eval(tmp_path)  # the dataset root: the Task 2 folder is found
    assert [p.id for p in data.pairs] == ["0", "1", "2"]
    assert data.pairs[1].reference == GT[1] and data.pairs[1].candidate == SIMILAR[1]
    assert data.human_scores() == [4.5, 2.25, 0.0] and data.text_source == "json"
    rated = data.rated()
    assert rated.ratings == [4.5, 2.25, 0.0] and not rated.lower_is_better
    assert rated.category_counts is None


def test_objects_keyed_by_the_csv_ids(tmp_path):
    (tmp_path / "rate_train.csv").write_text("id,score\nc,0.1\na,0.7\nb,0.4\n")
    write_json(tmp_path / "gt_report_train.json", dict(zip("abc", GT)))
    write_json(tmp_path / "similar_report_train.json", {k: {"report": v} for k, v in zip("abc", SIMILAR)})
    data = load_rate_eval(tmp_path, split="train")
    assert [p.id for p in data.pairs] == ["c", "a", "b"]
    assert data.pairs[0].reference == GT[2] and data.scores == {"c": 0.1, "a": 0.7, "b": 0.4}


def test_object_keys_become_ids_and_sentence_lists_are_joined(tmp_path):
    (tmp_path / "rate_test.csv").write_text("rating\n1\n2\n3\n")
    keys = ["r10", "r11", "r12"]
    write_json(tmp_path / "gt_report_test.json", dict(zip(keys, GT)))
    write_json(tmp_path / "similar_report_test.json",
               dict(zip(keys, [[s, "Otherwise unremarkable."] for s in SIMILAR])))
    data = load_rate_eval(tmp_path)
    assert [p.id for p in data.pairs] == keys
    assert data.pairs[2].candidate == "Acute rib fracture. Otherwise unremarkable."


def test_texts_from_csv_columns(tmp_path):
    with (tmp_path / "rate_test.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows([["gt_report", "similar_report", "Score"],
                                      *([g, s, str(i)] for i, (g, s) in enumerate(zip(GT, SIMILAR)))])
    data = load_rate_eval(tmp_path)
    assert data.text_source == "csv" and data.human_scores() == [0.0, 1.0, 2.0]


def test_errors_name_the_file_line_and_column(tmp_path):
    (tmp_path / "rate_test.csv").write_text("id,grade\n1,2\n")
    with pytest.raises(RatingsFormatError, match=r"rate_test.csv: no human score column.*'score'.*"
                                                 r"found columns \['id', 'grade'\]"):
        load_rate_eval(tmp_path)
    (tmp_path / "rate_test.csv").write_text("Score\n1.0\nn/a\n2.0\n")
    write_json(tmp_path / "gt_report_test.json", GT)
    write_json(tmp_path / "similar_report_test.json", SIMILAR)
    with pytest.raises(RatingsFormatError, match=r"rate_test.csv, line 3, column 'Score': expected a "
                                                 r"number, found 'n/a'"):
        load_rate_eval(tmp_path)


def test_json_length_missing_texts_and_bad_json(tmp_path):
    (tmp_path / "rate_test.csv").write_text("Score\n1\n2\n3\n")
    write_json(tmp_path / "gt_report_test.json", GT[:2])
    write_json(tmp_path / "similar_report_test.json", SIMILAR)
    with pytest.raises(RatingsFormatError, match="gt_report_test.json: holds 2 reports but rate_test.csv has 3"):
        load_rate_eval(tmp_path)
    (tmp_path / "gt_report_test.json").unlink()
    with pytest.raises(FileNotFoundError, match=r"no gt_report_test.json.*expected one of \['gt_report'"):
        load_rate_eval(tmp_path)
    with pytest.raises(FileNotFoundError, match="rate_validation.csv"):
        load_rate_eval(tmp_path, split="validation")
    (tmp_path / "gt_report_test.json").write_text('[\n  "ok",\n  oops\n]')
    with pytest.raises(RatingsFormatError, match=r"gt_report_test.json, line 3"):
        load_rate_eval(tmp_path)
