"""The Differences view and the overview on real readers (RadSEM's rules alignment and the
unscored alignment of the section it leaves out, the clinical reader), no browser: the whole
report is shown (the impression aligned, or a "not compared" band), missing and invented findings differ in more than colour, a finding written
over two sentences is marked on both, the overview opens with the clinical error and the
labels say what ran."""
from __future__ import annotations

import re

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.registry import production
from radscope.engine.runs.runner import run_batch
from radscope.ui.compare_handlers import clinical_summary, fingerprint, is_stale
from radscope.ui.differences import CAND_ONLY, REF_ONLY, SYMBOLS, differences_html, findings, place
from radscope.ui.panels import clinical_html, overview_html
from radscope.ui.views.common import ran_title

FINDINGS = "FINDINGS: Heart size is normal. Patchy right lower lobe opacity. No pneumothorax."
# Identical findings; the impression turned normal (as in IU CXR3707's planted error).
IMPRESSION_ONLY = ReportPair(id="impression-only",
                             reference=f"{FINDINGS}\nIMPRESSION: Right lower lobe pneumonia.",
                             candidate=f"{FINDINGS}\nIMPRESSION: No acute cardiopulmonary process.")
EXAMPLES = {e.pair.id: e.pair for e in example_pairs()}


def _radsem(pair: ReportPair) -> dict:
    run = run_batch([pair], ["radsem"], RuntimeContext(options={"extractor": "rules"}),
                    registry=production())
    return run.rows[0]["metrics"]["radsem"]


def _marks(html: str, side: str) -> list[tuple[str, str]]:
    """(status, text) of every mark in one report's column."""
    column = html.split(f"id='diff-{side}'>", 1)[1].split("</div>", 1)[0]
    return [(status, re.sub(r"<[^>]+>", "", body)) for status, body in
            re.findall(r"<mark class='rs-st-([a-z-]+)'.*?>(.*?)</mark>", column)]


def test_an_impression_only_error_is_shown_in_the_impression():
    pair = IMPRESSION_ONLY
    html = differences_html(pair.reference, pair.candidate, _radsem(pair), "radsem")
    assert html.count("data-section='impression' data-compared='yes'") == 2  # both reports
    assert "impression: aligned for reading, not scored (RadSEM reads findings only)" in html
    ref = [(s, t) for s, t in _marks(html, "reference") if "pneumonia" in t.lower()]
    assert ref and all(s in ("ref-only", "conflict") for s, _ in ref), ref
    # The findings, identical, are matched; nothing of the findings is flagged.
    findings_marks = [s for s, t in _marks(html, "reference") if "opacity" in t or "Heart" in t]
    assert findings_marks and set(findings_marks) == {"matched"}


def test_an_impression_that_cannot_be_compared_is_a_visible_band():
    pair = ReportPair(id="no-impression", reference=IMPRESSION_ONLY.reference, candidate=FINDINGS)
    html = differences_html(pair.reference, pair.candidate, _radsem(pair), "radsem")
    band = html.split("data-section='impression' data-compared='no'>", 1)[1].split("</span>", 1)[0]
    assert "impression not compared: RadSEM reads findings only" in band
    assert "data-section='impression'" not in html.split("id='diff-candidate'", 1)[1]


def test_missing_and_invented_differ_in_colour_symbol_and_legend():
    pair = EXAMPLES["ct-chest-nodule"]
    html = differences_html(pair.reference, pair.candidate, _radsem(pair), "radsem")
    assert SYMBOLS[REF_ONLY] != SYMBOLS[CAND_ONLY] and SYMBOLS[REF_ONLY] and SYMBOLS[CAND_ONLY]
    legend = html.split("class='rs-legend'", 1)[1].split("</div>", 1)[0]
    for status, label in ((REF_ONLY, "only in the reference"), (CAND_ONLY, "only in the candidate")):
        assert f"rs-st-{status}'>{SYMBOLS[status]}\u2009{label}" in legend
    assert "not compared" in legend


def test_a_finding_written_over_two_sentences_is_marked_on_both():
    text = "FINDINGS: There is an opacity. It lies in the right lower lobe. Heart normal."
    segs = place(text, [("f0", "Right lower lobe opacity.")])
    marked = [text[s.start:s.end] for s in segs if s.keys]
    assert marked == ["There is an opacity.", "It lies in the right lower lobe."]


def test_every_aligned_sentence_of_the_examples_is_marked_in_both_texts():
    """Each finding RadSEM aligned appears as a mark in each report it comes from (before, a
    clear lung split into left and right, or a finding over two sentences, was in the table only)."""
    for pair in EXAMPLES.values():
        result = _radsem(pair)
        html = differences_html(pair.reference, pair.candidate, result, "radsem")
        for side in ("reference", "candidate"):
            column = html.split(f"id='diff-{side}'>", 1)[1].split("</div>", 1)[0]
            marked = {k for group in re.findall(r"data-rs-keys='([^']*)'", column) for k in group.split()}
            for f in findings(result):
                assert not getattr(f, side) or f.key in marked, (pair.id, side, f)


def test_the_overview_opens_with_the_clinical_error():
    pair = EXAMPLES["missed-pneumothorax"]
    summary = clinical_summary(pair.reference, pair.candidate)
    html = overview_html(production(), {}, 0, None, "r1", summary)
    assert html.index("Clinical reader found") < html.index("Scored 0 metric")
    head = html.split("<ul", 1)[0]
    assert "1 missed finding" in head, head  # the presence error, named first
    assert "pneumothorax" in html.split("<ul", 1)[1].split("</ul>", 1)[0].lower()
    swap = EXAMPLES["effusion-laterality"]
    summary = clinical_summary(swap.reference, swap.candidate)
    assert "side conflict" in clinical_html(summary)
    # CLEAR and SRR-BERT give the side swap 1.000: marked as blind to it, VERT is not.
    results = {name: {"score": 1.0, "direction": "higher", "error": None} for name in ("clear", "srr", "vert")}
    rows = overview_html(production(), results, 3, None, "r2", summary).split("<tr>")[1:]
    marked = {row.split("<b>")[1].split(" ")[0]: "cannot see side conflicts by design" in row for row in rows}
    assert marked == {"CLEAR": True, "F1-SRR-BERT": True, "VERT": False}


def test_an_impression_only_error_is_named_and_radsem_marked_blind_to_it():
    pair = IMPRESSION_ONLY
    summary = clinical_summary(pair.reference, pair.candidate)
    assert summary["clinical_errors"]["impression"] >= 1, summary
    assert "in the impression alone" in clinical_html(summary)
    results = {"radsem": {"score": 1.0, "direction": "higher"}, "srr": {"score": 0.857, "direction": "higher"}}
    rows = overview_html(production(), results, 2, None, "r3", summary).split("<tr>")[1:]
    assert "cannot see errors in the impression alone by design" in rows[0]  # reads findings only
    assert "cannot see" not in rows[1]  # reads the impression: sees the missed finding there


def test_labels_say_what_ran():
    rules = {"model": "rules reader (v3)", "reader": {"name": "rules", "label": "x"}}
    assert ran_title("VERT (LLM judge)", "vert", rules) == "VERT (rules judge)"
    assert ran_title("CREPE", "crepe", rules) == "CREPE (rules estimate)"
    assert ran_title("CLEAR", "clear", {"model": "rules-v3", "signature": "clear|v:1|extractor:rules|x:y"}) \
        == "CLEAR (rules reader)"
    judge = {"model": "qwen2.5-7b", "reader": {"name": "llm", "judge": "qwen2.5-7b"}}
    assert ran_title("VERT (LLM judge)", "vert", judge) == "VERT (LLM judge: qwen2.5-7b)"
    encoder = {"model": "crepe-minilm-demo", "reader": {"name": "encoder", "model": "crepe-minilm-demo"}}
    assert ran_title("CREPE", "crepe", encoder) == "CREPE (encoder: crepe-minilm-demo)"
    assert ran_title("BLEU-4", "bleu", {"model": None}) == "BLEU-4"


def test_an_edit_makes_the_shown_results_stale_and_undoing_it_does_not():
    shown = fingerprint("a", "b", "", "", ["radsem"], ("rules",))
    assert not is_stale(shown, fingerprint("a", "b", "", "", ["radsem"], ("rules",)))
    assert is_stale(shown, fingerprint("a", "b edited", "", "", ["radsem"], ("rules",)))
    assert is_stale(shown, fingerprint("a", "b", "", "", ["radsem"], ("llm",)))
    assert is_stale(shown, fingerprint("a", "b", "", "", ["radsem", "clear"], ("rules",)))
    stored = fingerprint("a", "b", "", "")  # opened from a link: options unknown
    assert not is_stale(stored, fingerprint("a", "b", "", "", ["clear"], ("llm",)))
    assert is_stale(stored, fingerprint("a", "c", "", "", ["clear"], ("llm",)))
    assert not is_stale(None, fingerprint("a", "c", "", ""))
