"""What a user takes away without the app: the batch CSV (texts plus flat per-metric details),
the Differences findings of a side swap, and one comparison as a self-contained HTML report and
JSON. Real metrics (rules readers, bundled encoders), no browser."""
from __future__ import annotations

import json
import re

import pandas as pd

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.metrics.framework.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.ui.tabs.batch import logic as batch
from radscope.ui.differences import CONFLICT, MATCHED, differences_html, findings
from radscope.ui.report import comparison_record, report_html, write_report

SWAP = next(e.pair for e in example_pairs() if e.pair.id == "effusion-laterality")
RULES = {"extractor": "rules"}


def _run(names, pairs=(SWAP,), **options):
    return run_batch(list(pairs), names, RuntimeContext(options={**RULES, **options}), registry=production())


def test_batch_csv_has_texts_and_flat_details(tmp_path):
    names = ["clear", "crepe", "srr", "radsem", "bleu"]
    pairs = [e.pair for e in example_pairs()][:3]
    # The bundled encoders by name (the default CREPE and SRR readers are the rules views).
    run_a = _run(names, pairs, crepe_model="crepe-minilm-demo", srr_model="srr-minilm-demo")
    run_b = _run(["bleu"], pairs)
    _, csv_path, summary = batch.write_downloads(run_a, run_b, {}, tmp_path, pairs=pairs, pairs_b=pairs)
    table = pd.read_csv(csv_path)
    assert list(table["reference"]) == [p.reference for p in pairs]
    assert list(table["candidate"]) == [p.candidate for p in pairs] == list(table["candidate_b"])
    swap = table[table["id"] == SWAP.id].iloc[0]
    assert swap["clear_ref_pleural_effusion"] == "positive" and swap["clear_pos_f1"] == 1.0
    assert {f"crepe_count_{c}" for c in "ABCDEF"} <= set(table.columns)
    assert "srr_reference_labels" in table.columns and "srr_leaf_f1" in table.columns
    # The side swap leaves the abnormal statements unmatched on both sides.
    assert swap["radsem_abnormal_unmatched_ref"] >= 1 and swap["radsem_abnormal_unmatched_gen"] >= 1
    assert "bleu_score_b" in table.columns
    # Encoder batches are counted apart from judge calls (no judge ran).
    data = json.loads(summary.read_text(encoding="utf-8"))
    assert data["model_calls"] == 0 and data["encoder_batches"] >= 2


def test_differences_mark_a_side_swap_in_both_texts():
    found = findings(SWAP.reference, SWAP.candidate)
    swapped = [f for f in found if f.status == CONFLICT]
    assert any(f.name == "finding on the wrong side" and "left pleural effusion" in f.reference.lower()
               and "right pleural effusion" in f.candidate.lower() for f in swapped)
    assert any(f.status == MATCHED and f.reference == "No pneumothorax." for f in found)
    html = differences_html(SWAP.reference, SWAP.candidate)
    ref_html = html.split("id='diff-reference'>", 1)[1].split("</div>", 1)[0]
    cand_html = html.split("id='diff-candidate'>", 1)[1].split("</div>", 1)[0]
    conflict_ref = re.findall(r"<mark class='rs-st-conflict'[^>]*>([^<]*)</mark>", ref_html)
    conflict_cand = re.findall(r"<mark class='rs-st-conflict'[^>]*>([^<]*)</mark>", cand_html)
    assert any("Small left pleural effusion" in t for t in conflict_ref)
    assert any("Small right pleural effusion" in t for t in conflict_cand)
    assert "FINDINGS:" not in "".join(conflict_ref)  # section headers stay unmarked


def test_report_is_self_contained_and_has_every_panel(tmp_path):
    names = ["clear", "crepe", "srr", "radsem", "bleu"]
    results = _run(names).rows[0]["metrics"]
    record = comparison_record(SWAP.reference, SWAP.candidate, results, "CR", "Chest")
    html_path, json_path = write_report(record, production(), tmp_path)
    page = html_path.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=['\"]?(https?:|//)", page) and "<script" not in page
    for name in names:
        assert f"id='panel-{name}'" in page and results[name]["signature"] in page
    assert "rs-st-conflict" in page and "Small right pleural effusion with right basilar" in page
    back = json.loads(json_path.read_text(encoding="utf-8"))
    assert back["pair"]["reference"] == SWAP.reference and set(back["metrics"]) == set(names)
    assert report_html(back, production()) == page  # the JSON holds everything the report shows


def test_differences_need_a_run_not_radsem():
    from radscope.ui.tabs.compare.tab import NO_DIFFERENCES, compare_differences

    assert compare_differences(SWAP.reference, SWAP.candidate, {}) == NO_DIFFERENCES
    # Whichever metrics ran (here none that aligns sentences), the reader's reading is drawn.
    drawn = compare_differences(SWAP.reference, SWAP.candidate, {"bleu": {"score": 0.5}})
    assert "rs-st-conflict" in drawn and "finding on the wrong side" in drawn
