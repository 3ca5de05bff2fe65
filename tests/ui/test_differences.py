"""The Differences view and the overview on the real clinical reader, no browser: every error
the overview names is highlighted in Differences, with the same name, in each text that states
it (every example pair, an IU CXR304-shaped pair, a European RESULT / CONCLUSION pair); the
radiologist's sentences are quoted, never a garbled rewrite around "XXXX"; a section the
reader does not read is a "not read" band, never marked; missing and invented findings differ
in more than colour; a finding written over two sentences is marked on both; the overview
opens with the clinical error and the labels say what ran."""
from __future__ import annotations

import html as html_lib
import re

from radscope.engine.context import RuntimeContext
from radscope.engine.io.examples import example_pairs
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.framework.registry import production
from radscope.engine.reader.error_words import REXVAL_NAMES
from radscope.engine.runs.runner import run_batch
from radscope.ui.tabs.compare.handlers import clinical_summary, fingerprint, is_stale
from radscope.ui.differences import CAND_ONLY, REF_ONLY, SYMBOLS, differences_html, findings, place
from radscope.ui.panels import clinical_html, overview_html
from radscope.ui.views import render
from radscope.ui.views.common import ran_title
from radscope.ui.widgets import card_html

FINDINGS = "FINDINGS: Heart size is normal. Patchy right lower lobe opacity. No pneumothorax."
# Identical findings; the impression turned normal (as in IU CXR3707's planted error).
IMPRESSION_ONLY = ReportPair(id="impression-only",
                             reference=f"{FINDINGS}\nIMPRESSION: Right lower lobe pneumonia.",
                             candidate=f"{FINDINGS}\nIMPRESSION: No acute cardiopulmonary process.")
EXAMPLES = {e.pair.id: e.pair for e in example_pairs()}


# A pair shaped like IU CXR304 (text written here): one side swapped among sentences with
# de-identification runs, and an INDICATION the reader does not read.
CXR304_LIKE = ReportPair(
    id="cxr304-like",
    reference=("INDICATION: Cough and fever for two days.\n"
               "FINDINGS: The XXXX examination consists of frontal and lateral radiographs of the "
               "chest. The cardiac silhouette is within normal limits allowing for low lung "
               "volumes. There is XXXX XXXX atelectasis. No consolidation, pleural effusion or "
               "pneumothorax. Calcified right infrahilar lymph XXXX again seen. Healed XXXX rib "
               "fracture.\nIMPRESSION: No acute cardiopulmonary process."),
    candidate=("INDICATION: Cough and fever for two days.\n"
               "FINDINGS: The XXXX examination consists of frontal and lateral radiographs of the "
               "chest. The cardiac silhouette is within normal limits allowing for low lung "
               "volumes. There is XXXX XXXX atelectasis. No consolidation, pleural effusion or "
               "pneumothorax. Calcified left infrahilar lymph XXXX again seen. Healed XXXX rib "
               "fracture.\nIMPRESSION: No acute cardiopulmonary process."))
# European layout: the side swapped in the CONCLUSION too, under an INDICATION.
EUROPEAN = ReportPair(
    id="european",
    reference=("INDICATION: Dyspnoea.\nRESULT: Small left pleural effusion. No pneumothorax.\n"
               "CONCLUSION: Left pleural effusion."),
    candidate=("INDICATION: Dyspnoea.\nRESULT: Small right pleural effusion. No pneumothorax.\n"
               "CONCLUSION: Right pleural effusion."))


def _marks(html: str, side: str) -> list[tuple[str, str]]:
    """(status, text) of every mark in one report's column."""
    column = html.split(f"id='diff-{side}'>", 1)[1].split("</div>", 1)[0]
    return [(status, re.sub(r"<[^>]+>", "", body)) for status, body in
            re.findall(r"<mark class='rs-st-([a-z-]+)'.*?>(.*?)</mark>", column)]


def _named_marks(html: str, side: str) -> list[tuple[set[str], set[str], str]]:
    """(keys, names, text) of every mark in one report's column."""
    column = html.split(f"id='diff-{side}'>", 1)[1].split("</div>", 1)[0]
    return [(set(keys.split()), set(names.split("|")), re.sub(r"<[^>]+>", "", body)) for keys, names, body in
            re.findall(r"<mark [^>]*data-rs-keys='([^']*)'[^>]*data-rs-names='([^']*)'[^>]*>(.*?)</mark>", column)]


def _overview_errors(html: str) -> list[tuple[str, str]]:
    """(name, text) of each error the overview lists."""
    items = html.split("<ul", 1)[1].split("</ul>", 1)[0] if "<ul" in html else ""
    return [(html_lib.unescape(name), html_lib.unescape(text)) for name, text in
            re.findall(r"<b class='rs-error-name'>([^<]*)</b>: ([^<]*)</li>", items)]


def _assert_overview_errors_are_highlighted(pair: ReportPair) -> int:
    """Every error the overview names is a mark in Differences with the same name, in each text
    that states it (both for a contradiction, the reference for a missed finding, ...), on the
    sentence that says it. Returns how many errors were checked."""
    summary = clinical_summary(pair.reference, pair.candidate)
    listed = _overview_errors(overview_html(production(), {}, 0, None, "r", summary))
    assert len(listed) == len(summary["errors"]), (pair.id, listed)
    html = differences_html(pair.reference, pair.candidate)
    rows = {f.key: f for f in findings(pair.reference, pair.candidate)}
    marks = {side: _named_marks(html, side) for side in ("reference", "candidate")}
    for error, (name, _) in zip(summary["errors"], listed, strict=True):
        matching = [f for f in rows.values() if f.name == name and f.significant
                    and f.reason and error["text"].startswith(f.reason.split(";")[0].split(" (not")[0])]
        assert matching, (pair.id, name, error)
        for side in ("reference", "candidate"):
            stated = [f for f in matching if getattr(f, side)]
            if not stated:
                continue
            hits = [(names, text) for keys, names, text in marks[side]
                    if keys & {f.key for f in stated}]
            assert hits and all(name in names for names, _ in hits), (pair.id, side, name, hits)
            # on the sentence that says it: the reader's statement shares its words
            words = set(re.findall(r"[a-z]{4,}", stated[0].__getattribute__(side).lower())) - {"xxxx"}
            assert any(words & set(re.findall(r"[a-z]{4,}", text.lower())) for _, text in hits), \
                (pair.id, side, hits)
    return len(listed)


def test_every_overview_error_of_every_example_is_highlighted_with_its_name():
    checked = {pair.id: _assert_overview_errors_are_highlighted(pair) for pair in EXAMPLES.values()}
    assert checked.pop("normal-chest") == 0  # a faithful paraphrase: nothing to find
    assert all(checked.values()), checked  # every other example has at least one error


def test_a_side_swap_among_deidentified_sentences_is_highlighted_where_it_is():
    pair = CXR304_LIKE
    assert _assert_overview_errors_are_highlighted(pair) == 1
    html = differences_html(pair.reference, pair.candidate)
    for side, word in (("reference", "right"), ("candidate", "left")):
        flagged = [(s, t) for s, t in _marks(html, side) if s != "matched"]
        assert flagged == [("conflict", f"≠\u2009Calcified {word} infrahilar lymph XXXX again seen.")], flagged
    table = html.split("<table", 1)[1]
    # The radiologist's sentences, never the reader's atomic rewrite around "XXXX".
    assert "The XXXX examination consists of frontal and lateral radiographs of the chest." in table
    assert "consists of the frontal." not in html and "radiographs chest." not in html
    # The INDICATION is not read: drawn in a band, never marked.
    band = "</span>".join(html.split("data-section='indication' data-compared='no'>", 1)[1]
                          .split("</span>", 2)[:2])  # its label, then its text
    assert "not read" in band and "Cough and fever" in band and "<mark" not in band


def test_a_side_swap_in_the_conclusion_is_highlighted_and_the_indication_is_not():
    pair = EUROPEAN
    assert _assert_overview_errors_are_highlighted(pair) >= 1
    html = differences_html(pair.reference, pair.candidate)
    for side, word in (("reference", "Left"), ("candidate", "Right")):
        conclusion = [t for s, t in _marks(html, side) if s == "conflict" and t.endswith(f"{word} pleural effusion.")]
        assert conclusion and conclusion[0].startswith("≠"), _marks(html, side)
        column = html.split(f"id='diff-{side}'>", 1)[1].split("</div>", 1)[0]
        assert "Dyspnoea" not in "".join(t for _, t in _marks(html, side))
        assert "data-section='indication' data-compared='no'" in column


def test_an_impression_only_error_is_shown_in_the_impression():
    pair = IMPRESSION_ONLY
    html = differences_html(pair.reference, pair.candidate)
    assert html.count("data-section='impression' data-compared='yes'") == 2  # both reports
    ref = [(s, t) for s, t in _marks(html, "reference") if "pneumonia" in t.lower()]
    assert ref and all(s in ("ref-only", "conflict") for s, _ in ref), ref
    # The findings, identical, are matched; nothing of the findings is flagged.
    findings_marks = [s for s, t in _marks(html, "reference") if "opacity" in t or "Heart" in t]
    assert findings_marks and set(findings_marks) == {"matched"}
    assert _assert_overview_errors_are_highlighted(pair) >= 1


def test_missing_and_invented_differ_in_colour_symbol_and_legend():
    pair = EXAMPLES["missed-pneumothorax"]
    html = differences_html(pair.reference, pair.candidate)
    assert SYMBOLS[REF_ONLY] != SYMBOLS[CAND_ONLY] and SYMBOLS[REF_ONLY] and SYMBOLS[CAND_ONLY]
    legend = html.split("class='rs-legend'", 1)[1].split("</div>", 1)[0]
    for status, label in ((REF_ONLY, "only in the reference"), (CAND_ONLY, "only in the candidate")):
        assert f"rs-st-{status}'>{SYMBOLS[status]}\u2009{label}" in legend
    assert "not read" in legend
    statuses = {s for side in ("reference", "candidate") for s, _ in _marks(html, side)}
    assert {REF_ONLY, CAND_ONLY} <= statuses


def test_a_finding_written_over_two_sentences_is_marked_on_both():
    text = "FINDINGS: There is an opacity. It lies in the right lower lobe. Heart normal."
    segs = place(text, [("f0", "Right lower lobe opacity.")])
    marked = [text[s.start:s.end] for s in segs if s.keys]
    assert marked == ["There is an opacity.", "It lies in the right lower lobe."]


def test_every_statement_of_the_examples_is_marked_in_its_text():
    """Each statement the reader read appears as a mark in each report it comes from."""
    for pair in EXAMPLES.values():
        html = differences_html(pair.reference, pair.candidate)
        for side in ("reference", "candidate"):
            column = html.split(f"id='diff-{side}'>", 1)[1].split("</div>", 1)[0]
            marked = {k for group in re.findall(r"data-rs-keys='([^']*)'", column) for k in group.split()}
            for f in findings(pair.reference, pair.candidate):
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
    # one finding on the wrong side: "effusion with atelectasis" is one statement, and "the right
    # lung is clear" / "the left lung is clear" are two denials, not a misplaced finding
    assert "1 finding on the wrong side" in clinical_html(summary)
    # CLEAR and SRR-BERT give the side swap 1.000: marked as blind to it, VERT is not.
    results = {name: {"score": 1.0, "direction": "higher", "error": None} for name in ("clear", "srr", "vert")}
    rows = overview_html(production(), results, 3, None, "r2", summary).split("<tr>")[1:]
    marked = {row.split("<b>")[1].split(" ")[0]: "Cannot see findings on the wrong side (by design)" in row
              for row in rows}
    # The value first, the badge on its own line: never one phrase.
    assert all(row.index("rs-value") < row.index("rs-blind") for row in rows if "rs-blind" in row)
    assert marked == {"CLEAR": True, "F1-SRR-BERT": True, "VERT": False}


def test_an_impression_only_error_is_named_and_radsem_marked_blind_to_it():
    pair = IMPRESSION_ONLY
    summary = clinical_summary(pair.reference, pair.candidate)
    assert summary["clinical_errors"]["impression"] >= 1, summary
    assert "in the impression alone" in clinical_html(summary)
    results = {"radsem": {"score": 1.0, "direction": "higher"}, "srr": {"score": 0.857, "direction": "higher"}}
    rows = overview_html(production(), results, 2, None, "r3", summary).split("<tr>")[1:]
    assert "Cannot see errors in the impression alone (by design)" in rows[0]  # reads findings only
    assert "Cannot see" not in rows[1]  # reads the impression: sees the missed finding there


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


def test_the_progress_line_names_what_will_run_as_the_row_names_what_ran():
    registry = production()
    rules = {"model": "rules reader (v3)", "reader": {"name": "rules", "label": "x"}}
    for name, title in (("vert", "VERT (rules judge)"), ("crepe", "CREPE (rules estimate)")):
        running = overview_html(registry, {}, 1, name, options={"extractor": "rules"})
        assert f"Scoring 1/1: {title}…" in running, running
        assert ran_title(registry.get(name).card.title, name, rules) == title
    assert "Scoring 1/1: VERT (LLM judge)…" in overview_html(registry, {}, 1, "vert",
                                                             options={"extractor": "llm"})
    # Options not known yet: no claim about what runs it.
    assert "Scoring 1/1: VERT…" in overview_html(registry, {}, 1, "vert")
    assert "About VERT</b>" in card_html(registry.get("vert").card)


def _with_an_invented_nodule(pair: ReportPair) -> ReportPair:
    """The example with a finding the reference does not have, added to the candidate's findings
    (the example itself has none: its "chest tube in place" is the reference's chest tube)."""
    findings, impression = pair.candidate.split("\nIMPRESSION:")
    return ReportPair(f"{pair.id}+nodule", pair.reference,
                      f"{findings} A 6 mm nodule in the left upper lobe.\nIMPRESSION:{impression}")


def test_one_error_has_one_name_in_every_view():
    """An invented finding: the overview, Differences, CREPE's bars and legend and VERT's table
    all call it "invented finding"."""
    pair = _with_an_invented_nodule(EXAMPLES["missed-pneumothorax"])
    summary = clinical_summary(pair.reference, pair.candidate)
    names = {name for name, _ in _overview_errors(overview_html(production(), {}, 0, None, "r", summary))}
    assert {"invented finding", "missed finding"} <= names
    diff = differences_html(pair.reference, pair.candidate)
    assert "data-rs-names='invented finding'" in diff and "data-rs-names='missed finding'" in diff
    run = run_batch([pair], ["crepe", "vert"], RuntimeContext(options={"extractor": "rules"}),
                    registry=production())
    crepe = render("crepe", run.rows[0]["metrics"]["crepe"])
    assert crepe.figure.data[0].x[0] == "A<br>invented finding"
    assert "A invented finding:" in crepe.summary_html
    vert = render("vert", run.rows[0]["metrics"]["vert"])
    assert "A invented finding</span>" in vert.body_html and "B missed finding</span>" in vert.body_html
    rexval_a = REXVAL_NAMES["A"]  # ReXVal's longer definition: in hover text only, never as the name
    assert rexval_a not in crepe.summary_html + vert.body_html.replace(f"ReXVal: {rexval_a}", "")


MRI_SIDE = ("MRI BRAIN WITHOUT CONTRAST\nFINDINGS: There is an acute infarct in the left frontal lobe, hyperintense on DWI. The "
            "ventricles are normal in size.\nIMPRESSION: Acute left frontal lobe infarct.")


def _differences_count(reference: str, candidate: str, name: str) -> int:
    summary = differences_html(reference, candidate).split("</div>", 1)[0]
    found = re.search(rf"(\d+) × {re.escape(name)}", html_lib.unescape(summary))
    return int(found.group(1)) if found else 0


def _overview_count(reference: str, candidate: str, name: str) -> int:
    head = clinical_html(clinical_summary(reference, candidate))
    found = re.search(rf"(\d+) {re.escape(name)}", html_lib.unescape(head))
    return int(found.group(1)) if found else 0


def test_one_error_stated_in_both_sections_is_one_error_in_every_view():
    both = MRI_SIDE.replace("left", "right")
    findings_only = MRI_SIDE.replace("in the left", "in the right")
    for candidate, expected in ((both, 1), (findings_only, 1)):
        summary = clinical_summary(MRI_SIDE, candidate)
        assert summary["clinical_errors"]["side"] == expected, summary
        assert _overview_count(MRI_SIDE, candidate, "finding on the wrong side") == expected
        assert _differences_count(MRI_SIDE, candidate, "finding on the wrong side") == expected
    # Stated in both sections, the error is still marked in both (shown twice, counted once).
    rows = [f for f in findings(MRI_SIDE, both) if f.kind == "side"]
    assert {f.section for f in rows} == {"findings", "impression"}
    assert [f.counted for f in rows].count(True) == 1


def test_not_applicable_shows_only_that_with_its_reason():
    summary = clinical_summary(MRI_SIDE, MRI_SIDE.replace("left", "right"))
    reason = "not applicable: designed for chest radiographs; this study is modality MR"
    results = {"clear": {"score": None, "direction": "higher", "error": None, "not_applicable": reason},
               "vert": {"score": 0.5, "direction": "higher", "error": None}}
    rows = overview_html(production(), results, 2, None, "r4", summary).split("<tr>")[1:]
    assert "not applicable" in rows[0] and html_lib.escape(reason) in rows[0]
    assert "Cannot see" not in rows[0]
