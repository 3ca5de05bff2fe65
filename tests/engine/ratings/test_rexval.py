"""radscope.engine.ratings.rexval: the ReXVal reader on small files written here, in the published
layout (same file names, same headers); the report texts are invented."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from radscope.engine.io.reports import ReportPair
from radscope.engine.ratings.rexval import load_rexval
from radscope.engine.ratings.table import RatingsFormatError

CANDIDATES = ("radgraph", "bertscore", "s_emb", "bleu")
INVENTED = ("Right basilar atelectasis", "Enlarged heart", "Hilar adenopathy", "Rib fracture")
STUDIES = [
    ("50000001", "No acute cardiopulmonary process."),
    ("50000002", "Small left pleural effusion.\nNo pneumothorax."),  # a quoted cell over two lines
    ("50000003", "Mild cardiomegaly. Lungs are clear."),
]
ERRORS = {
    # study 0, radgraph: rater 0 found 2 significant false findings (category 1 = A) and one
    # insignificant omission (2 = B); rater 1 one significant location error (3 = C).
    (0, "radgraph", 1, 0, True): 2,
    (0, "radgraph", 2, 0, False): 1,
    (0, "radgraph", 3, 1, True): 1,
    # study 2, bleu: both raters found one significant missed comparison (6 = F).
    (2, "bleu", 6, 0, True): 1,
    (2, "bleu", 6, 1, True): 1,
}


def write_samples(directory: Path, blank: tuple[int, str] | None = None) -> Path:
    path = directory / "50_samples_gt_and_candidates.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["study_id", "gt_report", *CANDIDATES])
        for row, (study_id, reference) in enumerate(STUDIES):
            cands = [f"{finding} on image {row + 1}." for finding in INVENTED]
            if blank and blank[0] == row:
                cands[CANDIDATES.index(blank[1])] = ""
            writer.writerow([study_id, reference, *cands])
    return path


def write_ratings(directory: Path, errors: dict[tuple, int], n_raters: int = 2, first: int = 0) -> Path:
    """The full grid, as published: one row per (study, candidate, category, rater, significance)."""
    path = directory / "6_valid_raters_per_rater_error_categories.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["study_number", "candidate_type", "error_category", "rater_index",
                         "clinically_significant", "num_errors"])
        for study in range(len(STUDIES)):
            for cand in CANDIDATES:
                for category in range(1, 7):
                    for rater in range(n_raters):
                        for significant in (True, False):
                            writer.writerow([study + first, cand, category, rater, significant,
                                             errors.get((study, cand, category, rater, significant), 0)])
    return path


def test_pairs_and_mean_errors(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    data = load_rexval(tmp_path)
    assert len(data.pairs) == 12
    assert [p.id for p in data.pairs[:4]] == [f"50000001:{c}" for c in CANDIDATES]
    second = data.pairs[4]
    assert isinstance(second, ReportPair) and second.id == "50000002:radgraph"
    assert second.reference == "Small left pleural effusion.\nNo pneumothorax."
    assert second.candidate == "Right basilar atelectasis on image 2."
    # Study 0 / radgraph, means over 2 raters: significant A 1.0, C 0.5; insignificant B 0.5.
    r = data.ratings["50000001:radgraph"]
    assert r.n_raters == 2
    assert r.significant == {"A": 1.0, "B": 0.0, "C": 0.5, "D": 0.0, "E": 0.0, "F": 0.0}
    assert r.insignificant == {"A": 0.0, "B": 0.5, "C": 0.0, "D": 0.0, "E": 0.0, "F": 0.0}
    assert r.total == 2.0 and r.counts("significant")["C"] == 0.5
    assert data.ratings["50000003:bleu"].significant["F"] == 1.0
    totals = data.human_scores()
    assert totals[0] == 2.0 and totals[11] == 1.0 and sum(totals) == 3.0
    assert data.human_scores("insignificant")[0] == 0.5
    assert data.human_scores("significant", category="C")[0] == 0.5


def test_rated_pairs_count_errors(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS)
    rated = load_rexval(tmp_path).rated("significant")
    assert rated.lower_is_better and rated.significant_only and rated.n_unrated == 0
    assert rated.ratings[0] == 1.5 and len(rated.pairs) == len(rated.category_counts) == 12
    assert rated.category_counts[0]["A"] == 1.0 and "significant" in rated.rating


def test_files_are_found_in_a_physionet_download_tree(tmp_path):
    nested = tmp_path / "physionet.org" / "files" / "rexval-dataset" / "1.0.0"
    nested.mkdir(parents=True)
    write_samples(nested)
    write_ratings(nested, ERRORS)
    assert len(load_rexval(tmp_path).ratings) == 12


def test_one_based_study_numbers(tmp_path):
    write_samples(tmp_path)
    write_ratings(tmp_path, ERRORS, first=1)
    with pytest.raises(RatingsFormatError, match="study_number 3 does not name a row"):
        load_rexval(tmp_path)
    assert load_rexval(tmp_path, study_number_base=1).ratings["50000001:radgraph"].total == 2.0


def test_an_error_names_file_line_and_column(tmp_path):
    write_samples(tmp_path)
    path = write_ratings(tmp_path, ERRORS)
    lines = path.read_text().splitlines()
    fields = lines[6].split(",")
    fields[2] = "7"  # error_category 7 on physical line 7
    lines[6] = ",".join(fields)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RatingsFormatError) as err:
        load_rexval(tmp_path)
    assert "6_valid_raters_per_rater_error_categories.csv, line 7, column 'error_category'" in str(err.value)
    assert err.value.line == 7 and err.value.column == "error_category"


def test_line_numbers_count_multiline_reports(tmp_path):
    # Header line 1, study 0 line 2, study 1 lines 3-4 (its reference spans two), study 2 line 5.
    write_samples(tmp_path, blank=(2, "s_emb"))
    write_ratings(tmp_path, ERRORS)
    with pytest.raises(RatingsFormatError, match=r"line 5, column 's_emb': the report text is empty"):
        load_rexval(tmp_path)


def test_missing_columns_and_unknown_candidates(tmp_path):
    (tmp_path / "50_samples_gt_and_candidates.csv").write_text("study_id,report\n1,x\n")
    write_ratings(tmp_path, {})
    with pytest.raises(RatingsFormatError, match=r"missing column\(s\) \['gt_report'\].*found "
                                                 r"columns \['study_id', 'report'\]"):
        load_rexval(tmp_path)
    (tmp_path / "50_samples_gt_and_candidates.csv").write_text(
        "study_id,gt_report,radgraph\n1,ref one,cand one\n2,ref two,cand two\n3,ref 3,cand 3\n")
    with pytest.raises(RatingsFormatError, match="unknown candidate_type 'bertscore'"):
        load_rexval(tmp_path)


def test_duplicate_rows_and_bad_values_are_refused(tmp_path):
    write_samples(tmp_path)
    path = write_ratings(tmp_path, ERRORS)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines + [lines[1]]) + "\n")
    with pytest.raises(RatingsFormatError, match=f"line {len(lines) + 1}.*already appeared"):
        load_rexval(tmp_path)
    fields = lines[2].split(",")
    path.write_text("\n".join(lines[:2] + [",".join([*fields[:5], "nan"])]) + "\n")
    with pytest.raises(RatingsFormatError, match="line 3, column 'num_errors': expected a number"):
        load_rexval(tmp_path)
    path.write_text("\n".join(lines[:2] + [lines[2].replace("True", "maybe").replace("False", "maybe")]) + "\n")
    with pytest.raises(RatingsFormatError, match="column 'clinically_significant': expected True or False"):
        load_rexval(tmp_path)


def test_a_missing_file_is_named(tmp_path):
    write_samples(tmp_path)
    with pytest.raises(FileNotFoundError, match="6_valid_raters_per_rater_error_categories.csv"):
        load_rexval(tmp_path)
