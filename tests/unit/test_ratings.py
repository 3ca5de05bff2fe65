"""Tests for bench.quality.ratings: ReXVal and RaTE-Eval Task 2 readers on small files written here.

The files follow the published layouts exactly (same file names, same headers); the report
texts are invented for the tests.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bench.quality.ratings import (
    RaTEEvalData,
    RatingsFormatError,
    ReXValData,
    load_rate_eval,
    load_rexval,
)
from radscope.engine.io.reports import ReportPair

CANDIDATES = ("radgraph", "bertscore", "s_emb", "bleu")
INVENTED = ("Right basilar atelectasis", "Enlarged heart", "Hilar adenopathy", "Rib fracture")
STUDIES = [
    ("50000001", "No acute cardiopulmonary process."),
    # A reference that spans two physical lines inside its quoted CSV cell.
    ("50000002", "Small left pleural effusion.\nNo pneumothorax."),
    ("50000003", "Mild cardiomegaly. Lungs are clear."),
]


def write_samples(directory: Path, studies=STUDIES, blank: tuple[int, str] | None = None) -> Path:
    path = directory / "50_samples_gt_and_candidates.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["study_id", "gt_report", *CANDIDATES])
        for row, (study_id, reference) in enumerate(studies):
            # Reports (a text that states nothing about a patient cannot be read), sharing no
            # word with any reference; the study's number keeps every candidate distinct.
            cands = [f"{finding} on image {row + 1}." for finding in INVENTED]
            if blank and blank[0] == row:
                cands[CANDIDATES.index(blank[1])] = ""
            writer.writerow([study_id, reference, *cands])
    return path


def write_ratings(directory: Path, errors: dict[tuple, int], n_studies: int = 3, n_raters: int = 2,
                  first_study_number: int = 0) -> Path:
    """The full grid, as in the published file: one row per (study, candidate, category,
    rater, significance); ``errors`` maps (study, candidate, category, rater, significant) to a
    count, every other cell is 0."""
    path = directory / "6_valid_raters_per_rater_error_categories.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["study_number", "candidate_type", "error_category", "rater_index",
                         "clinically_significant", "num_errors"])
        for study in range(n_studies):
            for cand in CANDIDATES:
                for category in range(1, 7):
                    for rater in range(n_raters):
                        for significant in (True, False):
                            count = errors.get((study, cand, category, rater, significant), 0)
                            writer.writerow([study + first_study_number, cand, category, rater,
                                             significant, count])
    return path


ERRORS = {
    # study 0, radgraph: rater 0 found 2 significant false findings (category 1 = A) and one
    # insignificant omission (2 = B); rater 1 found one significant location error (3 = C).
    (0, "radgraph", 1, 0, True): 2,
    (0, "radgraph", 2, 0, False): 1,
    (0, "radgraph", 3, 1, True): 1,
    # study 2, bleu: both raters found one significant missed comparison (6 = F).
    (2, "bleu", 6, 0, True): 1,
    (2, "bleu", 6, 1, True): 1,
}


def test_load_rexval_pairs_and_mean_errors(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    data = load_rexval(tmp_path)

    # 3 studies x 4 candidate columns, studies in file order, candidates in column order.
    assert len(data.pairs) == 12
    assert [p.id for p in data.pairs[:4]] == [f"50000001:{c}" for c in CANDIDATES]
    second = data.pairs[4]
    assert isinstance(second, ReportPair)
    assert second.id == "50000002:radgraph"
    assert second.reference == "Small left pleural effusion.\nNo pneumothorax."
    assert second.candidate == "Right basilar atelectasis on image 2."
    assert second.extra["study_number"] == "1" and second.extra["candidate_type"] == "radgraph"

    # Study 0 / radgraph, means over the 2 raters:
    #   significant A = (2 + 0) / 2 = 1.0, significant C = (0 + 1) / 2 = 0.5,
    #   insignificant B = (1 + 0) / 2 = 0.5; totals 1.5 significant, 0.5 insignificant, 2.0.
    r = data.ratings["50000001:radgraph"]
    assert r.n_raters == 2
    assert r.significant == {"A": 1.0, "B": 0.0, "C": 0.5, "D": 0.0, "E": 0.0, "F": 0.0}
    assert r.insignificant == {"A": 0.0, "B": 0.5, "C": 0.0, "D": 0.0, "E": 0.0, "F": 0.0}
    assert (r.total_significant, r.total_insignificant, r.total) == (1.5, 0.5, 2.0)
    # Study 2 / bleu: F = (1 + 1) / 2 = 1.0.
    assert data.ratings["50000003:bleu"].significant["F"] == 1.0
    assert data.ratings["50000003:bleu"].total == 1.0
    # Everything else is error-free.
    assert data.ratings["50000002:s_emb"].total == 0.0

    totals = data.human_scores()
    assert totals[0] == 2.0 and totals[11] == 1.0 and sum(totals) == 3.0
    assert data.human_scores("insignificant")[0] == 0.5
    assert data.human_scores("significant", category="C")[0] == 0.5


def test_rexval_json_round_trip(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    data = load_rexval(tmp_path)
    payload = json.loads(json.dumps(data.to_json()))
    again = ReXValData.from_json(payload)
    assert again.pairs == data.pairs
    assert again.ratings == data.ratings
    assert payload["ratings"]["50000001:radgraph"]["total"] == 2.0


def test_rexval_files_are_found_in_a_physionet_download_tree(tmp_path):
    nested = tmp_path / "physionet.org" / "files" / "rexval-dataset" / "1.0.0"
    nested.mkdir(parents=True)
    write_samples(nested)
    write_ratings(nested, ERRORS)
    assert len(load_rexval(tmp_path).ratings) == 12


def test_rexval_one_based_study_numbers(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS, first_study_number=1)
    with pytest.raises(RatingsFormatError, match="study_number 3 does not name a row"):
        load_rexval(tmp_path)  # 1..3 read as 0-based: 3 is past the last of 3 rows
    data = load_rexval(tmp_path, study_number_base=1)
    assert data.ratings["50000001:radgraph"].total == 2.0


def test_rexval_error_names_file_line_and_column(tmp_path):
    write_samples(tmp_path)
    path = write_ratings(tmp_path, ERRORS)
    lines = path.read_text().splitlines()
    # Data row 5 is physical line 7 (header = line 1); its error_category becomes 7.
    fields = lines[6].split(",")
    fields[2] = "7"
    lines[6] = ",".join(fields)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RatingsFormatError) as err:
        load_rexval(tmp_path)
    message = str(err.value)
    assert "6_valid_raters_per_rater_error_categories.csv" in message
    assert "line 7" in message and "column 'error_category'" in message
    assert err.value.line == 7 and err.value.column == "error_category"


def test_rexval_line_numbers_count_multiline_reports(tmp_path):
    # Header line 1, study 0 on line 2, study 1 on lines 3-4 (its reference has a newline),
    # so study 2 starts on line 5.
    write_samples(tmp_path, blank=(2, "s_emb"))
    write_ratings(tmp_path, ERRORS)
    with pytest.raises(RatingsFormatError,
                       match=r"line 5, column 's_emb': the report text is empty"):
        load_rexval(tmp_path)


def test_rexval_missing_columns_and_unknown_candidates(tmp_path):
    (tmp_path / "50_samples_gt_and_candidates.csv").write_text("study_id,report\n1,x\n")
    write_ratings(tmp_path, {})
    with pytest.raises(RatingsFormatError, match=r"missing column\(s\) \['gt_report'\].*found "
                                                 r"columns \['study_id', 'report'\]"):
        load_rexval(tmp_path)
    (tmp_path / "50_samples_gt_and_candidates.csv").write_text(
        "study_id,gt_report,radgraph\n1,ref one,cand one\n2,ref two,cand two\n3,ref 3,cand 3\n")
    with pytest.raises(RatingsFormatError, match="unknown candidate_type 'bertscore'"):
        load_rexval(tmp_path)


def test_rexval_duplicate_rating_rows_are_refused(tmp_path):
    write_samples(tmp_path)
    path = write_ratings(tmp_path, ERRORS)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + [lines[1]]) + "\n")
    with pytest.raises(RatingsFormatError, match=f"line {len(lines) + 1}.*already appeared"):
        load_rexval(tmp_path)


def test_rexval_missing_file(tmp_path):
    write_samples(tmp_path)
    with pytest.raises(FileNotFoundError, match="6_valid_raters_per_rater_error_categories.csv"):
        load_rexval(tmp_path)


# --- RaTE-Eval Task 2 --------------------------------------------------------------------------

GT = ["Heart size is normal.", "Right lower lobe consolidation.", "No fracture."]
SIMILAR = ["Normal heart size.", "Left lower lobe consolidation.", "Acute rib fracture."]


def write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data))


def test_rate_eval_lists_and_score_column(tmp_path):
    task = tmp_path / "Task2_paragraph_rate"
    task.mkdir()
    (task / "rate_test.csv").write_text("Score\n4.5\n2.25\n0\n")
    write_json(task / "gt_report_test.json", GT)
    write_json(task / "similar_report_test.json", SIMILAR)
    data = load_rate_eval(tmp_path)  # the dataset root: the Task 2 folder is found
    assert [p.id for p in data.pairs] == ["0", "1", "2"]
    assert data.pairs[1].reference == GT[1] and data.pairs[1].candidate == SIMILAR[1]
    assert data.scores == {"0": 4.5, "1": 2.25, "2": 0.0}
    assert data.human_scores() == [4.5, 2.25, 0.0]
    assert data.text_source == "json" and data.split == "test"
    assert RaTEEvalData.from_json(json.loads(json.dumps(data.to_json()))) == data


def test_rate_eval_dicts_keyed_by_csv_id(tmp_path):
    # The CSV lists ids in another order than the JSON objects; texts follow the ids.
    (tmp_path / "rate_train.csv").write_text("id,score\nc,0.1\na,0.7\nb,0.4\n")
    write_json(tmp_path / "gt_report_train.json", dict(zip("abc", GT)))
    write_json(tmp_path / "similar_report_train.json",
               {k: {"report": v} for k, v in zip("abc", SIMILAR)})
    data = load_rate_eval(tmp_path, split="train")
    assert [p.id for p in data.pairs] == ["c", "a", "b"]
    assert data.pairs[0].reference == GT[2] and data.pairs[0].candidate == SIMILAR[2]
    assert data.scores == {"c": 0.1, "a": 0.7, "b": 0.4}


def test_rate_eval_dict_keys_become_ids_without_an_id_column(tmp_path):
    (tmp_path / "rate_test.csv").write_text("rating\n1\n2\n3\n")
    keys = ["r10", "r11", "r12"]
    write_json(tmp_path / "gt_report_test.json", dict(zip(keys, GT)))
    # A paragraph given as a list of sentences is joined with spaces.
    write_json(tmp_path / "similar_report_test.json",
               dict(zip(keys, [[s, "Otherwise unremarkable."] for s in SIMILAR])))
    data = load_rate_eval(tmp_path)
    assert [p.id for p in data.pairs] == keys
    assert data.pairs[2].candidate == "Acute rib fracture. Otherwise unremarkable."


def test_rate_eval_texts_from_csv_columns(tmp_path):
    rows = [["gt_report", "similar_report", "Score"]]
    rows += [[g, s, str(i)] for i, (g, s) in enumerate(zip(GT, SIMILAR))]
    with (tmp_path / "rate_test.csv").open("w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    data = load_rate_eval(tmp_path)
    assert data.text_source == "csv"
    assert [(p.reference, p.candidate) for p in data.pairs] == list(zip(GT, SIMILAR))
    assert data.human_scores() == [0.0, 1.0, 2.0]


def test_rate_eval_error_lists_expected_and_found_columns(tmp_path):
    (tmp_path / "rate_test.csv").write_text("id,grade\n1,2\n")
    with pytest.raises(RatingsFormatError) as err:
        load_rate_eval(tmp_path)
    message = str(err.value)
    assert "rate_test.csv" in message and "no human score column" in message
    assert "'score'" in message and "found columns ['id', 'grade']" in message


def test_rate_eval_bad_score_names_line_and_column(tmp_path):
    (tmp_path / "rate_test.csv").write_text("Score\n1.0\nn/a\n2.0\n")
    write_json(tmp_path / "gt_report_test.json", GT)
    write_json(tmp_path / "similar_report_test.json", SIMILAR)
    # 'n/a' is the second data row: line 3 of the file.
    with pytest.raises(RatingsFormatError, match=r"rate_test.csv, line 3, column 'Score': "
                                                 r"expected a number, found 'n/a'"):
        load_rate_eval(tmp_path)


def test_rate_eval_json_length_and_missing_texts(tmp_path):
    (tmp_path / "rate_test.csv").write_text("Score\n1\n2\n3\n")
    write_json(tmp_path / "gt_report_test.json", GT[:2])
    write_json(tmp_path / "similar_report_test.json", SIMILAR)
    with pytest.raises(RatingsFormatError, match="gt_report_test.json: holds 2 reports but "
                                                 "rate_test.csv has 3 rows"):
        load_rate_eval(tmp_path)
    (tmp_path / "gt_report_test.json").unlink()
    with pytest.raises(FileNotFoundError, match="no gt_report_test.json.*expected one of "
                                                r"\['gt_report'"):
        load_rate_eval(tmp_path)
    with pytest.raises(FileNotFoundError, match="rate_validation.csv"):
        load_rate_eval(tmp_path, split="validation")


def test_rate_eval_invalid_json_reports_its_position(tmp_path):
    (tmp_path / "rate_test.csv").write_text("Score\n1\n")
    (tmp_path / "gt_report_test.json").write_text('[\n  "ok",\n  oops\n]')
    write_json(tmp_path / "similar_report_test.json", ["x"])
    with pytest.raises(RatingsFormatError, match=r"gt_report_test.json, line 3"):
        load_rate_eval(tmp_path)
