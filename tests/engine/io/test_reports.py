"""Section and utterance splitting, and per-pair input problems."""
from radscope.engine.io.reports import (
    ReportPair,
    findings_and_impression,
    findings_text,
    split_sections,
    split_utterances,
)


def test_sections_inline_headers_case_insensitive():
    text = "Findings: Normal heart. No effusion. impression: No acute disease."
    assert split_sections(text) == {"findings": "Normal heart. No effusion.",
                                    "impression": "No acute disease."}


def test_sections_block_headers_and_aliases():
    text = ("EXAMINATION: Chest PA and lateral\nINDICATION: cough\nCOMPARISON: None.\n"
            "FINDINGS:\nSmall left effusion.\n\nCONCLUSION:\nLeft effusion.")
    sections = split_sections(text)
    assert sections["technique"] == "Chest PA and lateral"
    assert sections["indication"] == "cough"
    assert sections["comparison"] == "None."
    assert sections["findings"] == "Small left effusion."
    assert sections["impression"] == "Left effusion."


def test_bare_capital_header_on_its_own_line():
    sections = split_sections("FINDINGS\nLungs clear.\nIMPRESSION\nNormal.")
    assert sections == {"findings": "Lungs clear.", "impression": "Normal."}


def test_a_header_alone_on_its_line_with_what_it_was_read_on_in_brackets():
    """"Findings (comparison: CT of 15 January 2024)." heads the findings; it had been read as one."""
    assert split_sections("Findings (comparison: CT of 15 January 2024).\nThe bone flap is in place.\n"
                          "IMPRESSION (multiplanar reformats)\nNo fracture.") == {
        "findings": "The bone flap is in place.", "impression": "No fracture."}


def test_ordinary_word_is_not_a_header():
    # "Study" as a sentence word and "history" without a colon are not headers.
    text = "Study compared with prior. No history of surgery is visible."
    assert split_sections(text) == {"preamble": text}


def test_no_headers_fallbacks():
    assert findings_text("Heart normal. Lungs clear.") == "Heart normal. Lungs clear."
    assert findings_text("IMPRESSION: Pneumonia.") == "Pneumonia."
    both = findings_and_impression("INDICATION: fever. FINDINGS: Opacity. IMPRESSION: Pneumonia.")
    assert both == "Opacity.\nPneumonia."
    # Without findings/impression headers, non-finding sections are dropped.
    assert findings_and_impression("Right effusion.\nCOMPARISON: 2020.") == "Right effusion."


def test_utterances_lists_bullets_and_vertebrae():
    text = ("FINDINGS:\n1. Compression deformity of T12. No pneumothorax.\n"
            "2) Small left effusion, approx. 3 cm, stable vs. prior.\n- Heart size normal\n"
            "\u2022 Lungs and Airways: No consolidation.\n"
            "IMPRESSION: 1. No acute disease. 2. 2.5 cm nodule. 3. Fracture of rib 5. Normal.")
    assert split_utterances(text) == [
        "Compression deformity of T12.", "No pneumothorax.",
        "Small left effusion, approx. 3 cm, stable vs. prior.", "Heart size normal",
        "No consolidation.", "No acute disease.", "2.5 cm nodule.", "Fracture of rib 5.", "Normal."]


def test_utterances_lowercase_and_empty():
    assert split_utterances("the lungs are clear. no effusion.") == ["the lungs are clear.", "no effusion."]
    assert split_utterances("  \n - \n") == []


def test_pair_problems():
    assert ReportPair("a", "x", "y").problems() == []
    assert ReportPair("a", " ", "y").problems() == ["reference report is empty"]
    big = ReportPair("a", "x", "y" * 30).problems(max_chars=20)
    assert big == ["candidate report has 30 characters; the limit is 20"]
    assert "binary" in ReportPair("a", "x\x00y", "y").problems()[0]


# --- issue 24: sections as radiologists write them ---------------------------------------------

from radscope.engine.io.reports import (  # noqa: E402 - grouped with their tests
    PARTS,
    impression_read_with_findings,
    pair_views,
    read_layout,
    section_view,
)


def test_european_layout_reads_result_and_conclusion():
    text = ("THORACIC CT ANGIOGRAPHY\n\nINDICATION:\nDyspnea.\n\nPROTOCOL:\nContrast-enhanced "
            "acquisition.\n\nRESULT:\nNo pulmonary embolism.\nEnlarged mediastinal nodes.\n\n"
            "CONCLUSION:\nNo embolism.")
    layout = read_layout(text)
    assert layout.findings == "No pulmonary embolism.\nEnlarged mediastinal nodes."
    assert layout.impression == "No embolism."
    assert "title not read as a finding: 'THORACIC CT ANGIOGRAPHY'" in layout.notices
    assert any("PROTOCOL" in n for n in layout.notices)


def test_headings_without_colons_in_lower_case_numbered_and_in_any_order():
    text = "1. Opinion\nSmall left effusion.\n\n2. results\nThere is a small left effusion."
    layout = read_layout(text)
    assert layout.findings == "There is a small left effusion."
    assert layout.impression == "Small left effusion."
    assert read_layout("findings\nLungs clear.\ncomment\nNormal.").impression == "Normal."


def test_sub_headings_belong_to_their_section_and_keep_their_side():
    text = ("FINDINGS:\nMediastinal window: No enlarged node.\nRight kidney: 2 cm simple cyst.\n"
            "IMPRESSION:\nRight renal cyst.")
    layout = read_layout(text)
    assert "Mediastinal window" in layout.findings and "Right kidney" in layout.findings
    assert [s.name for s in layout.sections] == ["findings", "impression"]
    assert split_utterances(layout.findings) == ["No enlarged node.", "Right kidney: 2 cm simple cyst."]


def test_unknown_headings_never_swallow_text_silently():
    # After a technique section, an unknown heading opens a section of its own: left out when
    # there are findings, with a notice naming it.
    text = ("TECHNIQUE: CT.\nBreast composition: Type C.\nFINDINGS: No mass.\nIMPRESSION: Normal.")
    layout = read_layout(text)
    assert layout.findings == "No mass."
    assert any("Breast composition" in n and "not read" in n for n in layout.notices)
    # Without a findings section, it is read as the findings, also with a notice.
    alone = read_layout("HISTORY: Pain.\nAbdomen: Free fluid in the pelvis.")
    assert "Free fluid" in alone.findings and any("read as findings" in n for n in alone.notices)


def test_a_report_with_nothing_to_tell_apart_is_read_whole_with_a_notice():
    layout = read_layout("Clinical history: fall, right wrist fracture")
    assert layout.whole and "right wrist fracture" in layout.findings
    assert any("read whole" in n for n in layout.notices)


def test_a_report_that_is_one_reason_section_is_read_after_its_first_sentence_or_line():
    # reader-v57: "Clinical indication: transient weakness of the right limbs. Plain CT: ..." had been
    # read whole, the indication as a finding (a normal study scored against itself in other words
    # as 0.10); the reason is its first sentence or line, what was seen follows it
    inline = read_layout("Clinical indication: weakness of the right limbs. Plain CT: no abnormal density. "
                         "The ventricles are normal.")
    assert not inline.whole and inline.findings == "Plain CT: no abnormal density. The ventricles are normal."
    assert any("first sentence or line under 'Clinical indication'" in n for n in inline.notices)
    by_line = read_layout("Clinical history: fall\nRight wrist fracture.")
    assert by_line.findings == "Right wrist fracture."
    # a report that is only its reason is still read whole
    assert read_layout("History: cough.").whole


def test_a_reason_beside_a_title_or_an_impression_is_read_after_its_first_line_too():
    # layout-4: "LEFT BREAST ULTRASOUND / Indication: ... / At 2 o'clock ... / IMPRESSION: ..." had read
    # only what came under an unknown sub-heading ("Left axilla:"), the findings inside the
    # indication left out, and "Contrast-enhanced lumbar MR. History: ... / The conus ..." only its
    # title line: a faithful rewrite scored 0.1 and 0.0
    titled = read_layout("LEFT BREAST ULTRASOUND\nIndication: palpable lump.\nAt 2 o'clock there is an oval "
                         "mass.\nLeft axilla: no abnormal nodes.\nIMPRESSION: Fibroadenoma.")
    assert titled.findings == "At 2 o'clock there is an oval mass.\nLeft axilla: no abnormal nodes."
    assert titled.impression == "Fibroadenoma."
    after_title = read_layout("Lumbar MR. History: microdiscectomy 14 months ago.\nThe conus is normal.\n"
                              "Opinion: recurrent extrusion.")
    assert after_title.findings == "Lumbar MR.\nThe conus is normal."
    assert any("first sentence or line under 'History'" in n for n in after_title.notices)
    # with a findings heading the reason stays out, whatever follows it
    headed = read_layout("History: cough.\nPrior lobectomy.\nFindings: Clear lungs.")
    assert headed.findings == "Clear lungs."
    # a technique line is a reason too ("Technique: three-phase liver CT." then the lesions)
    technique = read_layout("Technique: three-phase liver CT.\n\nLesion 1, segment 6: hemangioma.\n"
                            "Conclusion: hemangioma.")
    assert technique.findings == "Lesion 1, segment 6: hemangioma."
    # beside other sections a reason is its whole first line: a history of several sentences on
    # one line is all history, and the impression is read as the findings, as before
    one_line = read_layout("INDICATION: Chest pain. History of hypertension.\nIMPRESSION: No acute disease.")
    assert one_line.findings == "" and one_line.impression == "No acute disease."


def test_clinical_alone_heads_the_history():
    # layout-5: "Clinical:" had been a heading the table lacked, and its complaint ("assault,
    # swelling around the right eye") a finding against a rewrite that put it in the title line
    layout = read_layout("CT orbits, non-contrast. Clinical: assault, swelling around the right eye.\n"
                         "Findings: Right orbital floor fracture.")
    assert [s.name for s in layout.sections if s.name != "preamble"] == ["history", "findings"]
    assert layout.findings == "Right orbital floor fracture."


def test_combined_heading_is_read_as_findings_with_a_notice():
    layout = read_layout("FINDINGS AND IMPRESSION: Small left effusion. No pneumothorax.")
    assert layout.combined and layout.findings.startswith("Small left effusion") and not layout.impression


def test_section_view_gives_each_metric_its_sections():
    text = "INDICATION: cough.\nRESULTS: Left effusion.\nCONCLUSION: Effusion."
    assert section_view(text, ("findings",)) == "FINDINGS:\nLeft effusion."
    assert section_view(text, ("impression",)) == "IMPRESSION:\nEffusion."
    assert section_view(text, ("findings", "impression")) == (
        "FINDINGS:\nLeft effusion.\n\nIMPRESSION:\nEffusion.")
    unheaded = "Heart normal. Lungs clear."
    assert section_view(unheaded, ("findings", "impression")) == unheaded  # nothing to leave out


def test_a_pair_is_read_alike_when_the_reference_has_no_heading():
    """A reference without headings is read whole (its conclusion with its findings); for a metric
    that reads the findings alone, the candidate's impression is read with its findings. Not the
    other way round: a candidate without headings may be findings alone."""
    whole = "Left effusion. Effusion, likely reactive."
    headed = "RESULTS: Left effusion.\nCONCLUSION: effusion, likely reactive."
    assert pair_views(whole, headed, ("findings",)) == (
        whole, "FINDINGS:\nLeft effusion.\n\nEffusion, likely reactive.")
    assert impression_read_with_findings(whole, headed, ("findings",)) == "candidate"
    assert impression_read_with_findings(headed, whole, ("findings",)) is None
    assert pair_views(headed, whole, ("findings",)) == (section_view(headed, ("findings",)), whole)
    # a metric that reads the impression, or a candidate without one: each as section_view gives it
    assert pair_views(whole, headed, PARTS) == (whole, section_view(headed, PARTS))
    assert impression_read_with_findings(whole, "RESULTS: Left effusion.", ("findings",)) is None


def test_a_template_s_nested_items_are_said_of_their_heading():
    """A bare side under a heading alone on its line is that side's structure; a bulleted item
    under a side heading stays in its block with the heading before its own label; a bulleted
    line ending in a colon heads the items under it."""
    text = ("Internal carotid arteries:\n- Right: patent\n- Left: patent\n"
            "Arteries:\n- Vertebral arteries:\n  - Right: hypoplastic\n\n"
            "Right breast:\n- Cysts: two simple cysts\n\nRight hemisphere:\n- MCA: patent")
    assert split_utterances(text) == [
        "Right internal carotid arteries: patent", "Left internal carotid arteries: patent",
        "Right vertebral arteries: hypoplastic",
        "Right breast cysts: two simple cysts", "Right hemisphere MCA: patent"]  # "MCA" keeps its capitals


def test_a_side_sub_heading_on_its_own_line_names_the_side_of_its_block():
    text = ("RESULTS:\nRight Ear:\nGood aeration of the middle ear.\n6 mm dehiscence of the superior "
            "canal.\n\nLeft Ear:\nNo dehiscence.\n\nCONCLUSION:\nRight superior canal dehiscence.")
    assert split_utterances(read_layout(text).findings) == [
        "Right Ear: Good aeration of the middle ear.",
        "Right Ear: 6 mm dehiscence of the superior canal.", "Left Ear: No dehiscence."]
