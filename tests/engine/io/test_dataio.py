"""Reading pairs from CSV/TSV/JSONL/JSON and writing results; errors name file, line, column."""
import json

import pandas as pd
import pytest

from radscope.engine.io.dataio import Columns, InputError, PairFile, ResultsWriter, read_pairs, write_jsonl
from radscope.engine.metrics.framework.registry import export_columns_of


def _write(tmp_path, name, text, mode="w"):
    path = tmp_path / name
    if mode == "wb":
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_csv_with_multiline_quoted_field(tmp_path):
    path = _write(tmp_path, "p.csv", 'id,reference,candidate\n1,"Line one.\nLine two.",Cand one.\n2,Ref two.,Cand two.\n')
    pairs = read_pairs(path)
    assert [p.id for p in pairs] == ["1", "2"]
    assert pairs[0].reference == "Line one.\nLine two."
    assert pairs[1].candidate == "Cand two."


def test_tsv_jsonl_and_json_forms(tmp_path):
    tsv = _write(tmp_path, "p.tsv", "id\treference\tcandidate\na\tR\tC\n")
    assert read_pairs(tsv)[0].reference == "R"
    jsonl = _write(tmp_path, "p.jsonl", '{"id": 1, "reference": "R", "candidate": "C"}\n\n{"id": 2, "reference": "R2", "candidate": "C2"}\n')
    assert [p.id for p in read_pairs(jsonl)] == ["1", "2"]
    as_list = _write(tmp_path, "l.json", json.dumps([{"id": "x", "reference": "R", "candidate": "C"}]))
    assert read_pairs(as_list)[0].id == "x"
    keyed = _write(tmp_path, "k.json", json.dumps({"s1": {"reference": "R", "candidate": "C"}}))
    assert read_pairs(keyed)[0].id == "s1"


def test_custom_columns_and_numbered_rows(tmp_path):
    path = _write(tmp_path, "p.csv", "gt,gen,mod\nR1,C1,CT\nR2,C2,\n")
    pairs = read_pairs(path, Columns(id=None, reference="gt", candidate="gen", modality="mod"))
    assert [(p.id, p.reference, p.candidate, p.modality) for p in pairs] == [
        ("1", "R1", "C1", "CT"), ("2", "R2", "C2", None)]


def test_missing_column_is_named(tmp_path):
    path = _write(tmp_path, "p.csv", "id,reference,cand\n1,R,C\n")
    with pytest.raises(InputError) as err:
        read_pairs(path)
    msg = str(err.value)
    assert str(path) in msg and "'candidate' (the candidate column)" in msg and "cand" in msg


def test_duplicate_and_empty_ids_name_the_line(tmp_path):
    path = _write(tmp_path, "p.csv", "id,reference,candidate\n1,R,C\n2,R,C\n1,R,C\n")
    with pytest.raises(InputError, match=r"line 4: id '1' in column 'id' was already used on line 2"):
        read_pairs(path)
    path = _write(tmp_path, "q.jsonl", '{"id": "a", "reference": "R", "candidate": "C"}\n{"id": "", "reference": "R", "candidate": "C"}\n')
    with pytest.raises(InputError, match=r"line 2: column 'id' is empty"):
        read_pairs(path)


def test_bad_json_line_and_ragged_csv(tmp_path):
    path = _write(tmp_path, "p.jsonl", '{"id": "a", "reference": "R", "candidate": "C"}\n{"id": "b", oops}\n')
    with pytest.raises(InputError, match=r"p.jsonl: line 2: not valid JSON"):
        read_pairs(path)
    path = _write(tmp_path, "p.csv", "id,reference,candidate\n1,R,C\n2,R,C,extra\n")
    with pytest.raises(InputError, match=r"line 3, column 4: expected 3 fields"):
        read_pairs(path)


def test_binary_empty_and_unknown_files(tmp_path):
    with pytest.raises(InputError, match="binary file"):
        read_pairs(_write(tmp_path, "b.csv", b"\x89PNG\x00\x00\x01", mode="wb"))
    with pytest.raises(InputError, match="line 2, column 3: not UTF-8 or UTF-16 text"):
        read_pairs(_write(tmp_path, "u.csv", b"id,reference,candidate\n1,\xff\xfe,C\n", mode="wb"))
    with pytest.raises(InputError, match="empty"):
        read_pairs(_write(tmp_path, "e.csv", "\n"))
    with pytest.raises(InputError, match="cannot tell the format"):
        read_pairs(_write(tmp_path, "x.xlsx", "id"))
    with pytest.raises(InputError, match="file not found"):
        read_pairs(tmp_path / "nope.csv")


def test_empty_report_cell_is_not_a_file_error(tmp_path):
    # An empty report is reported per pair by the runner, not by the reader.
    pairs = read_pairs(_write(tmp_path, "p.csv", "id,reference,candidate\n1,R,\n"))
    assert pairs[0].candidate == "" and pairs[0].problems() == ["candidate report is empty"]


def test_writers_round_trip(tmp_path):
    rows = [{"id": "1", "metrics": {"bleu": {"score": 0.5, "error": None, "signature": "bleu|v:1",
                                              "model": None, "direction": "higher"}}},
            {"id": "2", "metrics": {"bleu": {"score": None, "error": "input: candidate report is empty",
                                              "signature": "bleu|v:1", "model": None, "direction": "higher"}}}]
    out = write_jsonl(rows, tmp_path / "r.jsonl")
    assert [json.loads(line) for line in out.read_text().splitlines()] == rows
    with ResultsWriter(None, tmp_path / "r.csv", columns_of=export_columns_of) as writer:
        writer.write(rows)
        writer.finish()
    frame = pd.read_csv(tmp_path / "r.csv")
    assert list(frame.columns) == ["id", "bleu_score", "bleu_error", "bleu_model", "bleu_signature"]
    assert frame["bleu_score"].iloc[0] == 0.5 and frame["bleu_error"].iloc[1].startswith("input:")


# --- strict reading (issue 12): a guess that could corrupt data is an error ------------------


def test_unclosed_quote_names_the_line_and_column(tmp_path):
    path = _write(tmp_path, "open.csv", 'id,reference,candidate\np1,R1,"C1 unclosed\np2,R2,C2\np3,R3,C3\n')
    with pytest.raises(InputError, match=r"open.csv: line 2, column 3 \('candidate'\): the quote .* "
                                         r"never closed"):
        read_pairs(path)


def test_quote_that_swallows_rows_is_refused(tmp_path):
    # The quote opened on line 2 closes at the end of line 4: a lenient reader returns two pairs,
    # p1's candidate holding rows p2 and p3.
    path = _write(tmp_path, "swallow.csv", 'id,reference,candidate\np1,R1,"C1\np2,R2,C2\np3,R3,C3"\np4,R4,C4\n')
    with pytest.raises(InputError, match=r"line 2, column 3 .* looks like a row of its own at line 3"):
        read_pairs(path)


def test_swallowed_rows_are_found_when_the_id_column_is_last(tmp_path):
    path = _write(tmp_path, "last.csv", 'reference,candidate,study_id\nR1,"C1,s1\nR2,C2,s2\nR3,C3",s3\n')
    with pytest.raises(InputError, match=r"line 2, column 2 \('candidate'\): .* row of its own at line 3"):
        read_pairs(path, Columns(id="study_id"))


def test_text_after_a_closing_quote_is_refused(tmp_path):
    path = _write(tmp_path, "q.csv", 'id,reference,candidate\np1,R1,"a 5 "cm" nodule"\n')
    with pytest.raises(InputError, match=r"q.csv: line 2, column 3 .* text follows it"):
        read_pairs(path)


def test_multiline_report_with_commas_is_still_read(tmp_path):
    path = _write(tmp_path, "ok.csv", 'id,reference,candidate\np1,"Heart normal, lungs clear, no effusion.\n'
                                      'Impression: normal, stable, unchanged.",C\n')
    assert read_pairs(path)[0].reference.count("\n") == 1


def test_short_row_names_the_missing_column(tmp_path):
    path = _write(tmp_path, "r.csv", "id,reference,candidate\n1,R,C\n2,R\n")
    with pytest.raises(InputError, match=r"line 3, column 3 \('candidate'\): expected 3 fields"):
        read_pairs(path)


def test_header_only_and_single_column_files_are_errors(tmp_path):
    with pytest.raises(InputError, match="header line but no rows"):
        read_pairs(_write(tmp_path, "h.csv", "id,reference,candidate\n"))
    with pytest.raises(InputError, match="single column .* not a table of pairs; accepted: CSV or TSV"):
        read_pairs(_write(tmp_path, "prose.txt", "The lungs are clear. No effusion.\nHeart normal.\n"))


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"])
def test_utf8_bom_and_utf16_are_decoded(tmp_path, codec):
    text = "id,reference,candidate\n1,Épanchement pleural,C\n"
    pairs = read_pairs(_write(tmp_path, "p.csv", text.encode(codec), mode="wb"))
    assert pairs[0].id == "1" and pairs[0].reference == "Épanchement pleural"


@pytest.mark.parametrize("name, first, second", [
    ("p.csv", "id,reference,candidate\np1,No effusion.,No effusion.\n", "p2,Heart normal.,Heart normal.\n"),
    ("p.tsv", "id\treference\tcandidate\np1\tNo effusion.\tNo effusion.\n", "p2\tHeart normal.\tHeart normal.\n"),
    ("p.jsonl", '{"id": "p1", "reference": "No effusion.", "candidate": "No effusion."}\n',
     '{"id": "p2", "reference": "Heart normal.", "candidate": "Heart normal."}\n'),
])
def test_a_byte_order_mark_inside_the_file_stays_out_of_the_next_id(tmp_path, name, first, second):
    # Two files joined with `cat`, the second saved with a UTF-8 byte-order mark; CRLF too.
    for newline in ("\n", "\r\n"):
        raw = (first + "\ufeff" + second).replace("\n", newline).encode("utf-8")
        path = _write(tmp_path, name, raw, mode="wb")
        for pairs in (read_pairs(path), list(PairFile(path, Columns()))):
            assert [p.id for p in pairs] == ["p1", "p2"]
            assert all("\ufeff" not in p.reference + p.candidate for p in pairs)


def test_legacy_encoding_is_refused_by_name(tmp_path):
    path = _write(tmp_path, "l.csv", "id,reference,candidate\n1,Épanchement,C\n".encode("cp1252"), mode="wb")
    with pytest.raises(InputError, match=r"line 2, column 3: not UTF-8 or UTF-16 .*Windows-1252"):
        read_pairs(path)


def test_ids_stay_the_text_the_file_holds(tmp_path):
    rows = '{"id": 2, "reference": "R", "candidate": "C"}\n{"id": 2.50, "reference": "R", "candidate": "C"}\n'
    assert [p.id for p in read_pairs(_write(tmp_path, "p.jsonl", rows))] == ["2", "2.50"]
    listed = json.dumps([{"id": 7, "reference": "R", "candidate": "C"}, {"id": 1e3, "reference": "R",
                                                                         "candidate": "C"}])
    assert [p.id for p in read_pairs(_write(tmp_path, "p.json", listed))] == ["7", "1000.0"]


def test_non_finite_json_cells_are_refused(tmp_path):
    path = _write(tmp_path, "p.jsonl", '{"id": "a", "reference": "R", "candidate": "C"}\n'
                                       '{"id": "b", "reference": "R", "candidate": Infinity}\n')
    with pytest.raises(InputError, match=r"p.jsonl: line 2, column 44: Infinity is not a JSON value"):
        read_pairs(path)
    with pytest.raises(InputError, match=r"line 1, .*NaN is not a JSON value"):
        read_pairs(_write(tmp_path, "p.json", '[{"id": "a", "reference": NaN, "candidate": "C"}]'))


def test_other_separator_is_named_and_jsonl_keeps_line_separators_in_strings(tmp_path):
    with pytest.raises(InputError, match=r"holds ';': is the file separated by ';' instead"):
        read_pairs(_write(tmp_path, "semi.csv", "id;reference;candidate\n1;R;C\n"))
    row = json.dumps({"id": "a", "reference": "Line\u2028two", "candidate": "C"}, ensure_ascii=False)
    assert read_pairs(_write(tmp_path, "p.jsonl", row + "\r\n"))[0].reference == "Line\u2028two"


def test_json_object_where_a_report_is_expected_is_refused(tmp_path):
    path = _write(tmp_path, "n.json", json.dumps([{"id": "a", "reference": {"text": "R"}, "candidate": "C"}]))
    with pytest.raises(InputError, match=r"n.json: row 1: column 'reference' \(the reference column\) "
                                         r"holds a JSON object, not text"):
        read_pairs(path)
    extra = json.dumps([{"id": "a", "reference": "R", "candidate": "C", "labels": ["x", "y"]}])
    assert read_pairs(_write(tmp_path, "ok.json", extra))[0].reference == "R"  # unmapped: fine


def test_a_label_cell_past_its_cap_is_refused_with_its_row(tmp_path):
    """An id, modality or body area is a short label: a batch file (an upload in public mode)
    cannot store megabytes beside a pair in one of them (issue 23)."""
    big = "x" * 1_001
    rows = [{"id": "a", "reference": "R", "candidate": "C", "modality": "CR", "area": "chest"},
            {"id": "b", "reference": "R", "candidate": "C", "modality": big, "area": "chest"}]
    path = _write(tmp_path, "p.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    with pytest.raises(InputError, match=r"line 2: column 'modality'.*1,001 characters; a modality is at most 1,000"):
        read_pairs(path, Columns(modality="modality", area="area"))
    rows[1] = {**rows[1], "modality": "CR", "area": big}
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="a body area is at most"):
        read_pairs(path, Columns(modality="modality", area="area"))
    rows[1] = {**rows[1], "area": "chest", "id": big}
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="an id is at most"):
        read_pairs(path)
    rows[1] = {**rows[1], "id": "b", "modality": "y" * 1_000}
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert read_pairs(path, Columns(modality="modality"))[1].modality == "y" * 1_000
