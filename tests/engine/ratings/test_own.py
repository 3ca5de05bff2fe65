"""radscope.engine.ratings: the reader of a user's own rated pairs and the agreement statistics."""
from __future__ import annotations

import json

import pytest

from radscope.engine.io.dataio import Columns, InputError
from radscope.engine.ratings.agreement import agreement, category_counts, detection, no_coefficient_reason
from radscope.engine.ratings.own import load_own
from radscope.engine.ratings.table import RatingsFormatError

HEADER = "id,reference,candidate,rating"
ROWS = ["a,No effusion.,No effusion.,5", "b,No effusion.,Large effusion.,1", "c,Clear lungs.,Clear lungs.,4"]


def write(tmp_path, lines, name="rated.csv"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_csv_and_jsonl_give_the_same_rated_pairs(tmp_path):
    rated = load_own(write(tmp_path, [HEADER, *ROWS]), lower_is_better=False)
    assert [p.id for p in rated.pairs] == ["a", "b", "c"] and rated.ratings == [5.0, 1.0, 4.0]
    assert rated.pairs[1].candidate == "Large effusion." and rated.category_counts is None
    records = [dict(zip(HEADER.split(","), r.split(","), strict=True)) for r in ROWS]
    records[0]["rating"] = 5  # a JSON number
    jsonl = write(tmp_path, [json.dumps(r) for r in records], "rated.jsonl")
    again = load_own(jsonl, lower_is_better=True)
    assert again.pairs == rated.pairs and again.ratings == rated.ratings and again.lower_is_better


def test_other_column_names_and_category_counts(tmp_path):
    header = "key,gt,pred,Errors,errors_A,errors_B,errors_C,errors_D,errors_E,errors_F"
    path = write(tmp_path, [header, "1,No effusion.,Large effusion.,2,0,0,0,1,0,1",
                            "2,Clear lungs.,Clear lungs.,0,0,0,0,0,0,0"])
    rated = load_own(path, lower_is_better=True, columns=Columns(id="key", reference="gt", candidate="pred"),
                     rating_column="errors")
    assert rated.ratings == [2.0, 0.0] and rated.category_counts[0] == {
        "A": 0.0, "B": 0.0, "C": 0.0, "D": 1.0, "E": 0.0, "F": 1.0}


@pytest.mark.parametrize("lines, message", [
    ([HEADER.replace(",rating", ",grade"), "a,x,y,1"], r"no rating column 'rating' .*--rating-col"),
    ([HEADER, "a,x,y,", "b,x,z,2"], r"line 2, column 'rating': the cell is empty"),
    ([HEADER, "a,x,y,1", "b,x,z,good"], r"line 3, column 'rating': expected a number, found 'good'"),
    ([HEADER, "a,x,y,1", "b,x,z,inf"], r"line 3, column 'rating': expected a number, found 'inf'"),
    ([HEADER, "a,x,y,1", "a,x,z,2"], r"line 3: id 'a' .* already used on line 2"),
    (["id,candidate,rating", "a,y,1"], r"column 'reference' \(the reference column\) not found"),
    ([HEADER + ",errors_A", "a,x,y,1,0"], r"all six columns .* missing \['errors_B'"),
])
def test_bad_input_is_an_error_naming_where(tmp_path, lines, message):
    with pytest.raises(InputError, match=message):
        load_own(write(tmp_path, lines), lower_is_better=False)


def test_a_folder_or_an_absent_file_is_an_error(tmp_path):
    with pytest.raises(InputError, match="is a folder"):
        load_own(tmp_path, lower_is_better=False)
    with pytest.raises(InputError, match="file not found"):
        load_own(tmp_path / "absent.csv", lower_is_better=False)
    assert issubclass(RatingsFormatError, InputError)


def test_alignment_sign_and_reasons():
    # Humans count errors (lower is better); a higher-is-better metric that falls as errors
    # rise agrees with them: the raw tau is negative, the aligned one positive.
    metric, errors = [0.9, 0.7, 0.5, 0.1], [0.0, 1.0, 2.0, 4.0]
    result = agreement(metric, errors, human_lower_is_better=True, metric_lower_is_better=False)
    assert result["kendall"]["coef"] == -1.0 and result["kendall"]["aligned"] == 1.0
    assert result["spearman"]["aligned"] == 1.0
    lo, hi = result["kendall"]["aligned_ci"]
    assert lo <= hi <= 1.0
    same = agreement([0.5] * 4, errors, True, False)
    assert same["kendall"]["coef"] is None and same["kendall"]["aligned"] is None
    assert no_coefficient_reason([0.5] * 4, errors) == "the metric gave every pair the same score"
    assert no_coefficient_reason(metric, [1.0] * 4) == "every pair has the same rating"
    assert "only 1 pair" in no_coefficient_reason([0.5, None], [1.0, 2.0])
    assert no_coefficient_reason(metric, errors) is None


def test_category_counts_and_detection():
    section = {k: {"count": 0, "errors": []} for k in "abcdef"}
    vert_like = {"error": None, "assessment": {
        "significant_errors": {**section, "a": {"count": 2, "errors": []}, "c": {"count": 1, "errors": []}},
        "insignificant_errors": {**section, "c": {"count": 1, "errors": []}}}}
    assert category_counts(vert_like) == {"A": 2.0, "B": 0.0, "C": 2.0, "D": 0.0, "E": 0.0, "F": 0.0}
    assert category_counts(vert_like, significant_only=True)["C"] == 1.0
    crepe_like = {"error": None, "counts": {"A": 1.0, "B": 0.0, "C": 0.0, "D": 0.0, "E": 0.0, "F": 0.0}}
    assert category_counts(crepe_like)["A"] == 1.0
    assert category_counts({"error": "judge: no answer"}) is None
    assert category_counts({"error": None, "score": 0.4}) is None
    human = [{"A": 1.0, "B": 0.0, "C": 0.0, "D": 0.0, "E": 0.0, "F": 0.0}]
    found = detection([crepe_like], human)
    assert found["overall"]["f1"] == 1.0 and found["n_pairs"] == 1
    assert detection([{"error": None, "score": 0.4}], human) is None
