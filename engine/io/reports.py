"""Report pairs, section splitting and utterance splitting.

Every metric sees reports through this module, so that "what is the Findings section" and
"what is one sentence" are decided once, the same way for all five metrics.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

# How a report's text is cut into what each metric reads: in every signature of a metric that
# reads sections, so that a stored result read under an older cut is scored again. 2: a report
# that is one indication or history section is read after its first sentence or line. 3: a pair
# is read alike (``pair_views``): a candidate's impression is read with its findings when the
# reference has no heading and is read whole. 4: in a report without a findings heading, any
# indication, history or technique section is read after its first line, beside the other
# sections (a title, an impression), as it was after its first sentence or line when it was
# the whole report. 5: "Clinical:" alone heads the history ("CT orbits. Clinical: assault, swelling
# around the right eye." had read the complaint as a finding).
LAYOUT_VERSION = "layout-5"

# Canonical section names, and the heading spellings that map to them (matched case-insensitively,
# with or without a colon). English headings, and the English translations radiologists' headings
# in other languages get (a French "RESULTAT" is translated "RESULT", "CONCLUSION" stays).
SECTION_ALIASES: dict[str, tuple[str, ...]] = {
    "findings": ("findings", "finding", "report", "body", "description", "observations", "result",
                 "results", "findings in detail", "detailed findings", "imaging findings"),
    # One heading over both: read as the findings, and the impression is not told apart.
    "findings and impression": ("findings and impression", "findings and impressions",
                                "findings/impression", "findings & impression",
                                "findings and conclusion", "results and conclusion"),
    "impression": ("impression", "impressions", "conclusion", "conclusions", "summary", "opinion",
                   "diagnosis", "assessment", "comment", "comments", "interpretation",
                   "overall impression", "final impression", "in conclusion", "synthesis"),
    "comparison": ("comparison", "comparisons", "prior", "priors", "prior studies",
                   "previous examination", "previous studies"),
    "indication": ("indication", "indications", "reason for exam", "reason for examination",
                   "reason for study", "reason for referral", "clinical indication",
                   "clinical question", "clinical request", "request"),
    "history": ("history", "clinical", "clinical history", "clinical information", "clinical data",
                "clinical details", "clinical context", "medical history", "patient history"),
    "technique": ("technique", "procedure", "protocol", "exam", "examination", "study",
                  "exam type", "examination type", "technique and protocol", "method",
                  "methods", "acquisition", "sequences", "views", "contrast", "dose",
                  "radiation dose"),
    "recommendation": ("recommendation", "recommendations", "follow-up", "follow up", "advice",
                       "suggestion", "suggestions"),
    "notification": ("notification", "communication", "critical result", "critical results"),
}
_ALIAS_TO_SECTION = {alias: name for name, aliases in SECTION_ALIASES.items() for alias in aliases}
# Sections that never describe the current study's findings.
NON_FINDING_SECTIONS = ("comparison", "indication", "history", "technique", "recommendation",
                        "notification")
CLINICAL_SECTIONS = ("findings", "findings and impression", "impression")
# Sections that, written inside a clinical one, take one line ("Comparison: CT of 2024-05-12.")
_LINE_SECTIONS = ("comparison",)
_ALIASES_PATTERN = "|".join(re.escape(a).replace(r"\ ", r"\s+")
                            for a in sorted(_ALIAS_TO_SECTION, key=len, reverse=True))
# A list number or letter before a heading ("1. FINDINGS", "II - CONCLUSION", "A) Results").
_NUMBERING = r"(?:(?:\d{1,2}|[IVX]{1,4}|[A-H])\s*[.)\-]\s*)?"
# A known heading followed by a colon: at the start of the text or of a line, or after a
# sentence end ("... normal. Impression: ...").
# The look-ahead says what every match holds, words then a colon: it fails at once where no colon
# follows, before the hundred aliases are tried (a third of the search's time on IU X-ray texts).
# Spaces after the line break or sentence end are the heading's, as a space or tab is: one
# look-behind of one character per place (a second one, for "[.!?]\s", had cost 45 % of the search).
_HEADER_RE = re.compile(
    rf"(?:^|(?<=[\n.!?]))(?=[^\S\n]*{_NUMBERING}[A-Za-z][A-Za-z\s/&-]*:)"
    rf"[^\S\n]*{_NUMBERING}({_ALIASES_PATTERN})[ \t]*:",
    re.IGNORECASE)
# The same with what it was read on in brackets before the colon ("Findings (compared with the
# MRI of 14 March 2023): ..."), looked for only in a text holding "):" (a bracket in the look-ahead
# above had cost every sentence start of every report)
_BRACKETED_HEADER_RE = re.compile(
    rf"(?:^|(?<=[\n.!?]))[^\S\n]*{_NUMBERING}({_ALIASES_PATTERN})[ \t]*\([^()\n]*\)[ \t]*:",
    re.IGNORECASE)
# A known heading alone on its line, without a colon ("FINDINGS", "Conclusion", "results -"), with
# what it was read on in brackets ("Findings (comparison: CT of 15 January 2024).")
_BARE_HEADER_RE = re.compile(
    rf"^[ \t]*{_NUMBERING}({_ALIASES_PATTERN})(?:[ \t]*\([^()\n]*\))?[ \t]*[-:.]?[ \t]*$",
    re.IGNORECASE | re.MULTILINE)
# A heading the table does not know: a short phrase ending in a colon at the start of a line
# ("Mediastinal window:", "Right kidney:", "LIVER:"), or a short line in capitals alone.
_UNKNOWN_HEADER_RE = re.compile(
    r"^[ \t]*([A-Za-z][A-Za-z0-9 /&(),'\-]{1,50}?)[ \t]*:(?!\d)", re.MULTILINE)
_CAPS_LINE_RE = re.compile(r"^[ \t]*([A-Z][A-Z0-9 /&(),'\-]{2,60})[ \t]*$", re.MULTILINE)
_MAX_HEADING_WORDS = 6


@dataclass(frozen=True)
class Section:
    """One section as written: its canonical name, its heading as written ("" for the text
    before the first heading) and its text with the character span of that text."""

    name: str  # a SECTION_ALIASES key, "preamble" or "other" (a heading the table lacks)
    heading: str
    text: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "heading": self.heading, "start": self.start, "end": self.end}


@dataclass(frozen=True)
class ReportLayout:
    """How a report is laid out and what the reader takes from it.

    ``findings`` is what the findings sections say (RESULT(S), FINDINGS, a combined FINDINGS AND
    IMPRESSION, with their sub-headings by organ or window); ``impression`` what the
    IMPRESSION / CONCLUSION / OPINION / COMMENT sections say. ``notices`` say in words every
    choice that is not plain: text read whole, a heading not recognised, a title left out.
    """

    sections: tuple[Section, ...]
    findings: str
    impression: str
    notices: tuple[str, ...]
    combined: bool  # findings and impression under one heading: not told apart
    whole: bool  # no findings could be told apart: the report was read whole

    def text(self, parts: tuple[str, ...]) -> str:
        """The text of ``parts`` ("findings", "impression"), joined."""
        chosen = [self.findings if part == "findings" else self.impression for part in parts]
        return "\n".join(t for t in chosen if t)

    def to_json(self) -> dict[str, Any]:
        return {"sections": [s.to_json() for s in self.sections],
                "has_findings": bool(self.findings), "has_impression": bool(self.impression),
                "combined": self.combined, "read_whole": self.whole,
                "notices": list(self.notices)}


def _headings(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, section name or "other", heading as written), in text order."""
    marks: list[tuple[int, int, str, str]] = []
    colon = ":" in text  # the heading patterns that end in a colon have nothing to find without one
    patterns = (_HEADER_RE, _BARE_HEADER_RE, *((_BRACKETED_HEADER_RE,) if "):" in text else ())) if colon \
        else (_BARE_HEADER_RE,)
    for pattern in patterns:  # from the list number on
        for m in pattern.finditer(text):
            marks.append((m.start(), m.end(), _ALIAS_TO_SECTION[_norm(m.group(1))], m.group(1)))
    for pattern in ((_UNKNOWN_HEADER_RE, _CAPS_LINE_RE) if colon else (_CAPS_LINE_RE,)):
        for m in pattern.finditer(text):
            words = m.group(1).split()
            if len(words) <= _MAX_HEADING_WORDS and _norm(m.group(1)) not in _ALIAS_TO_SECTION:
                end = m.end() if pattern is _UNKNOWN_HEADER_RE else m.end(1)
                marks.append((m.start(1), end, "other", m.group(1).strip()))
    marks.sort(key=lambda mark: (mark[0], mark[2] == "other"))
    out: list[tuple[int, int, str, str]] = []
    for mark in marks:
        if out and mark[0] < out[-1][1]:  # two patterns on one heading: the known one wins
            continue
        out.append(mark)
    return out


@lru_cache(maxsize=4096)  # headings repeat across reports ("FINDINGS", "IMPRESSION")
def _norm(heading: str) -> str:
    return _WHITESPACE_RE.sub(" ", heading.strip().lower())


_WHITESPACE_RE = re.compile(r"\s+")


def _split(text: str) -> list[Section]:
    """Sections in text order. A heading the table lacks inside a findings or impression
    section is a sub-heading of it ("Mediastinal window:", "Right kidney:"); elsewhere it opens
    a section of its own ("other"), which is never dropped without a notice."""
    sections: list[Section] = []
    current, heading, pos = "preamble", "", 0

    def close(stop: int) -> None:
        chunk = text[pos:stop]
        stripped = chunk.strip()
        if stripped or heading:
            offset = pos + (len(chunk) - len(chunk.lstrip()))
            sections.append(Section(current, heading, stripped, offset, offset + len(stripped)))

    resume: tuple[int, str] | None = None  # where a comparison line inside a section ends
    for start, end, name, written in _headings(text):
        if resume and start >= resume[0]:
            close(resume[0])
            current, heading, pos = resume[1], "", resume[0]
            resume = None
        if name == "other" and (current in CLINICAL_SECTIONS or current == "other"):
            continue  # a sub-heading: its text belongs to the section it is in
        close(start)
        if name in _LINE_SECTIONS:
            # "Findings:\n...Comparison: CT of 2024-05-12.\nLungs: ...": the comparison is its
            # line; the findings go on after it. At the top of a report, a comparison written on
            # its heading's line ("Comparison: MRI of 3 months ago.\n- Resection cavity ...") is
            # that line too: the lines after it are under no heading, not the comparison's
            line_end = text.find("\n", end)
            more_after = line_end != -1 and bool(text[line_end:].strip())
            if current in CLINICAL_SECTIONS:
                resume = (line_end, current) if more_after else None
            elif more_after and text[end:line_end].strip():
                resume = (line_end, "preamble")
        # A heading the table lacks stays in its section's text: it may name the organ or the
        # side its findings are about ("Right kidney: simple cyst").
        current, heading, pos = name, written, start if name == "other" else end
    if resume:
        close(resume[0])
        current, heading, pos = resume[1], "", resume[0]
    close(len(text))
    return sections


def _is_title(section: Section) -> bool:
    """A first line in capitals that names the study ("THORACIC CT ANGIOGRAPHY")."""
    return section.name in ("preamble", "other") and "\n" not in section.text and \
        section.text.isupper() and len(section.text.split()) <= 8 and not section.text.endswith(".")


@lru_cache(maxsize=8192)
def read_layout(text: str) -> ReportLayout:
    """The report's sections and what is read as its findings and impression (cached by text).

    Findings: the findings sections. Without one, the text under no heading and under
    headings the table does not know (each named in a notice). A report with an impression and
    nothing else has no findings (``findings_text`` then reads the impression, as RadSEM reads
    an impression-only report); one with neither (only, say, a history section) is read whole,
    with a notice.
    """
    sections = _split(text)
    notices: list[str] = []
    body = _without_title([s for s in sections if s.text], notices)
    found = [s for s in body if s.name in ("findings", "findings and impression")]
    impression = "\n".join(s.text for s in body if s.name == "impression")
    if impression and found and all(_states_nothing(s.text) for s in found):
        body, found = _without_placeholders(body, found, notices)
    combined = any(s.name == "findings and impression" for s in found)
    if combined:
        notices.append("findings and impression are written under one heading: read together "
                       "as the findings")
    found, whole = _findings_sections(text, body, found, bool(impression), notices)
    if not whole:
        notices.extend(f"not read as findings: {s.heading or s.name} ({s.name} section)"
                       for s in body if s.name in NON_FINDING_SECTIONS)
    findings = "\n".join(s.text for s in found)
    return ReportLayout(tuple(sections), findings, impression, tuple(notices), combined, whole)


def _without_title(body: list[Section], notices: list[str]) -> list[Section]:
    """The sections with text, a title line first taken off (with a notice): a study's title
    ("THORACIC CT ANGIOGRAPHY") is not a finding. A report that is only a title keeps it."""
    if len(body) > 1 and _is_title(body[0]):
        notices.append(f"title not read as a finding: {body[0].text!r}")
        return body[1:]
    return body


def _without_placeholders(body: list[Section], found: list[Section],
                          notices: list[str]) -> tuple[list[Section], list[Section]]:
    """Findings sections that only hold a placeholder ("FINDINGS: Please" above a full
    impression) are not findings: the report is read as the impression-only report it is
    (each placeholder named in a notice)."""
    notices.extend(f"findings section states nothing: {_clip(s.text)!r}" for s in found)
    return [s for s in body if s not in found], []


def _findings_sections(text: str, body: list[Section], found: list[Section], impression: bool,
                       notices: list[str]) -> tuple[list[Section], bool]:
    """The sections read as the findings, and whether that is the whole report: the findings
    sections; without one, the text under no heading or an unknown one; without that and
    without an impression, the whole text. What is left out or read instead goes to ``notices``."""
    loose = [s for s in body if s.name in ("preamble", "other")]
    if found:
        for s in loose:
            where = f"under {s.heading!r} (heading not recognised)" if s.heading else \
                "before the first heading"
            notices.append(f"not read: text {where}: {_clip(s.text)!r}")
        return found, False
    # "Indication: palpable lump.\nAt 2 o'clock ... mass." with no findings heading: an indication,
    # history or technique says why or how the study was made in its first sentence or line, and
    # what was seen after it is the findings, read in text order with any text under no heading
    alone = len(body) == 1
    reasons = [(s, rest) for s in body if (rest := _after_inline_reason(s, alone)) is not None]
    if loose or reasons:
        notices.extend(f"read as findings: text under {s.heading!r} (heading not recognised)"
                       for s in loose if s.heading)
        notices.extend(f"read as findings: the text after the first sentence or line under {s.heading!r} "
                       f"({s.name} section with no findings heading)" for s, _ in reasons)
        return sorted([*loose, *(rest for _, rest in reasons)], key=lambda s: s.start), False
    if impression:
        return found, False
    whole = bool(text.strip())
    if whole:
        notices.append("no findings or impression section could be told apart: the report "
                       "is read whole")
    return [Section("whole", "", text.strip(), 0, len(text))], whole


# Sections that say why or how a study was made in their first line, which a report without a
# findings heading may follow with what was seen ("Technique: three-phase liver CT.\nLesion 1 ...")
_REASON_SECTIONS = ("indication", "history", "technique")


def _after_inline_reason(section: Section, alone: bool) -> Section | None:
    """"Clinical indication: weakness of the right limbs. Plain CT: no abnormal density ...": an
    indication, history or technique section in a report without a findings heading says why (or
    how) the study was made in its first sentence or line (its end found as ``_split_sentences`` finds one) and
    what was seen after it. Beside other sections (``alone`` False: a title, an impression) only
    its first line is the reason: a history of several sentences on one line ("Chest pain. History
    of hypertension.") is all history. None for any other section, or when nothing follows."""
    if section.name not in _REASON_SECTIONS:
        return None
    m = _SENTENCE_END_RE.search(section.text) if alone else None
    line_end = section.text.find("\n")
    end = m.end() if m is not None and (line_end == -1 or m.start() < line_end) else line_end + 1
    rest = section.text[end:].lstrip() if end > 0 else ""
    if not rest:
        return None
    return Section("preamble", "", rest, section.end - len(rest), section.end)


# A placeholder where the findings would be ("Please", "See impression.", "N/A", "---").
_PLACEHOLDER_RE = re.compile(
    r"^\W*(?:please\b[^.]*|see (?:below|above|impression|conclusion)\b[^.]*|as above|n/?a|-+)\W*$",
    re.IGNORECASE)


def _states_nothing(text: str) -> bool:
    return bool(_PLACEHOLDER_RE.match(text.strip()))


def _clip(text: str, size: int = 60) -> str:
    return text if len(text) <= size else text[:size - 1] + "\u2026"


def split_sections(text: str) -> dict[str, str]:
    """Canonical section name -> its text (repeated sections joined); text before the first
    heading is ``"preamble"``, text under a heading the table lacks ``"other"``."""
    out: dict[str, str] = {}
    for s in _split(text):
        if s.text:
            out[s.name] = f"{out[s.name]}\n{s.text}" if s.name in out else s.text
    return out


def findings_text(text: str) -> str:
    """What the reader takes as the report's findings (``read_layout``); the impression when
    the report has nothing else, as RadSEM reads an impression-only report."""
    layout = read_layout(text)
    return layout.findings or layout.impression


def findings_and_impression(text: str) -> str:
    """The findings and the impression together (what CLEAR, CREPE, VERT and SRR-BERT read)."""
    return read_layout(text).text(("findings", "impression"))


# --- utterances -------------------------------------------------------------------------------

_BULLET_RE = re.compile(
    r"^\s*(?:[-*\u2022\u2023\u25e6\u2043\u2219]+|\(?\d{1,2}[.)](?!\d)|\(?[a-hA-H][.)])\s+")
_INLINE_HEADER_RE = re.compile(r"^\s*[A-Z][A-Za-z /,&-]{1,60}:\s*")
_SIDE_RE = re.compile(r"\b(?:left|right|bilateral)\b", re.IGNORECASE)
_LEVEL = r"[CTLS]\d{1,2}(?:\s*[-/]\s*[CTLS]?\d{1,2})?"
_LEVEL_RE = re.compile(rf"\b{_LEVEL}\b(?!\s*-?(?:wi?\b|weighted|signal|flair|hyper|hypo|iso))", re.IGNORECASE)  # not "T2 signal"
_LEVEL_LABEL_RE = re.compile(rf"^(?:[-*\u2022]\s*)?(?P<level>{_LEVEL}(?:\s+(?:level|disc|segment))?):\s*\S")
# What follows a label in a telegraphic list ("Hardware: good position", "Alignment: anatomic"):
# words in lower case, no sentence of its own.
_TELEGRAPHIC_RE = re.compile(r"[a-z0-9]")
_LOWER_RE = re.compile(r"[a-z]")
# In capitals, what follows a label is a sentence of its own when it opens like one.
_CAPS_SENTENCE_RE = re.compile(r"(?:THE|THERE|THIS|THESE|A|AN)\b")
# A sub-heading alone on its line that names a side ("Right Ear:", "LEFT BREAST:").
_SIDE_HEADING_RE = re.compile(
    r"^(?=[^:]*\b(?:left|right)\b)([A-Z][A-Za-z /,&-]{1,40}?)\s*:$", re.IGNORECASE)
# A side heading that names the examination ("Right ankle joint MRI plain scan:", "MRI of the
# left knee without contrast:") is a title: only its side goes before each sentence, not its
# technique ("without contrast" would deny what the sentence finds).
_EXAM_WORD_RE = re.compile(
    r"\b(?:dr|cr|ct|mri|mr|x-rays?|radiographs?|ultrasound|sonography|views?|positions?|projections?|scans?)\b",
    re.IGNORECASE)
# An examination's title naming one side before the findings on its line ("Left knee MRI - ...")
_MAX_TITLE_CHARS = 60
_INLINE_TITLE_RE = re.compile(
    r"^(?P<title>(?=[^:]*\b(?:left|right)\b)[A-Z][A-Za-z /,&-]{1,50}?)\s*(?::|\s[-\u2013\u2014]\s)\s*(?=\S)",
    re.IGNORECASE)
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")
_LIST_MARKER_RE = re.compile(r"^\(?(?:\d{1,2}|[a-hA-H])[.)]$")
# Abbreviations after which a period does not end a sentence. A person's title is written with
# small letters after its capital ("Dr.", "Mr."): "MR." and "DR." in capitals are the modality
# ending a title ("Left calf MR. Acute calf pain.")
_ABBREVIATION_END_RE = re.compile(r"\b(?:(?-i:[DdMm]rs?|[Mm]s)|vs|approx|e\.g|i\.e|cf|fig|st|resp|incl|ca)\.$",
                                  re.IGNORECASE)


def split_utterances(text: str) -> list[str]:
    """Split report text into utterances: one sentence or one list item each.

    Numbered items ("1.", "2)"), bullets ("- ", "*", "\u2022") and section headers are removed;
    newlines and sentence ends split. Numbers that are part of the text stay: "T12." is kept
    whole, "2.5 cm" is not split, "approx. 3 cm" is one sentence. A sub-heading alone on its
    line that names a side ("Right Ear:") is written before each sentence of its block (up to
    the next blank line or sub-heading), which would otherwise lose its side.
    """
    return [sentence for _, sentence, _, _ in _utterances(text)]


def utterances_by_line(text: str) -> list[tuple[int, str]]:
    """``split_utterances`` with the number of the line each utterance is on: the sentences of
    one line (a paragraph) go on from one another, the items of a list each stand alone."""
    return [(number, sentence) for number, sentence, _, _ in _utterances(text)]


def labelled_utterances_by_line(text: str) -> list[tuple[int, str, str, str]]:
    """``utterances_by_line`` with the label taken off the start of each utterance's line ("" for
    none): "Liver: Reduced volume. Smooth surface." gives "Reduced volume." and "Smooth surface.",
    each with "Liver", since a label before a sentence of its own is taken off like a heading
    ("Lungs and airways: The lungs are clear."); and the heading written without its colon over
    the utterance's block ("Deep veins" over "Compressible."; ``_bare_heading``), or "". Which
    sentences say nothing without them, and whether such a heading is one or a finding written
    without its stop ("Mild cardiomegaly" over "No effusion."), is for the reader to tell, which
    knows the sites and the findings."""
    return list(_utterances(text))


@lru_cache(maxsize=8192)
def _utterances(text: str) -> tuple[tuple[int, str, str, str], ...]:
    """``labelled_utterances_by_line``, once per text: the reader asks it of the same findings and
    impression text about four times a report (the report whole and each metric's section
    view hold the same sections)."""
    out: list[tuple[int, str, str, str]] = []
    side = label = block = ""
    lines = [_CAPS_LEAD_RE.sub(r"\1: ", line.strip()) if "  " in line else line.strip()
             for line in text.splitlines()]
    for number, line in enumerate(lines):
        heading = _SIDE_HEADING_RE.match(line)
        if heading or not line:
            side = _heading_side(heading.group(1)) if heading else ""
            label = block = ""
            continue
        head = line[:_MAX_TITLE_CHARS]  # (most lines hold no colon or dash there: the cheap test first)
        title = _INLINE_TITLE_RE.match(line) if not side and (":" in head or " - " in head) else None
        if title and _EXAM_WORD_RE.search(title["title"]):
            # "Right tibia CT: A spiral fracture ... The fibula is intact.": the title's side goes
            # before each later sentence of its block that names none, as a title alone on its line
            # does; its first sentence keeps the title as written
            side = _heading_side(title["title"])
            line = f"{title['title']}: {line[title.end():]}"
        bare = _bare_heading(line, lines, number)
        # a heading alone on its line, or a list's item that heads the items under it ("- Vertebral
        # arteries:" over "  - Right: patent")
        written = _BULLET_RE.sub("", line, count=1) if line.endswith(":") else line
        alone = bare or bool(_BLOCK_HEADING_RE.match(written))
        if label and not side:
            line = _item_of_heading(line, label)
        elif side and _BULLET_RE.match(line):
            line = _item_of_side_heading(line, side)
        if side and (alone or _opens_other_label(line)):
            side = ""  # "Mediastinum:" or "Bladder: normal" after "Left kidney:" opens a block of its own
        if alone:
            # "Liver:" alone on its line: the subject of a bare predicate under it ("- Normal.")
            short = len(written.split()) <= _MAX_HEADING_WORDS and not _HEADER_RE.match(written)
            label = written.rstrip(":").strip() if short else ""
        heads = block  # the heading written without its colon over this line (not the line itself)
        if alone:
            block = line if bare else ""
        # the line's label so far, and whether its sentence kept it (``own_label`` below)
        line_label, line_kept = "", False
        # a spinal level before the colon goes with each later sentence naming none ("L4-L5: disc
        # extrusion. Disc T2 signal is reduced.": the L4-L5 disc's signal)
        level = _LEVEL_LABEL_RE.match(line) if ":" in line else None
        for k, sentence in enumerate(_split_sentences(line)):
            sentence, taken, kept = _clean_utterance(sentence)
            # a sentence's own label, taken off or kept as its subject, is its line's from there on
            # ("Liver: Normal in size. Smooth contour.": the contour is the liver's); a label kept
            # goes on only to a sentence that names no side and does not point back
            # (``_goes_on_from_kept_label``)
            own_label = taken or ("" if kept or (line_kept and not _goes_on_from_kept_label(sentence))
                                  else line_label)
            if taken or (kept and _KEPT_LABEL_RE.fullmatch(kept) and not _STATEMENT_WORD_RE.search(kept)):
                line_label, line_kept = taken or kept, not taken
            if sentence and re.search(r"[A-Za-z0-9]", sentence):
                if label and not side and _PREDICATE_ONLY_RE.match(sentence):
                    sentence = f"{label}: {sentence}"
                if level and k and not _LEVEL_RE.search(sentence):
                    sentence = f"{level['level']}: {sentence}"
                out.append((number, side + sentence if side and not _SIDE_RE.search(sentence)
                            and not _PRONOUN_START_RE.match(sentence) else sentence, own_label, heads))
    return tuple(out)


# What says nothing without its subject: "Normal.", "Unremarkable.", "Not enlarged.", "Normal in
# size." after a label ("Spleen: Normal.") or under a heading alone on its line ("Liver:").
_PREDICATE_ONLY_RE = re.compile(
    r"\s*(?:[-*\u2022]\s*)?(?:(?:is|are|appears?|remains?)\s+)?(?:(?:essentially|otherwise|grossly)\s+)?"
    r"(?:normal|unremarkable|intact|patent|clear|negative|preserved|symmetric(?:al)?|not\s+(?:enlarged|dilated"
    r"|distended|thickened|seen|visualized)|within\s+normal\s+limits|no\s+(?:abnormalit(?:y|ies)|focal\s+lesions?"
    r"|abnormal\s+findings?)|(?:normal|unremarkable)\s+(?:in|for)\s+[a-z ,]{1,40}|(?:of\s+)?normal\s+(?:size|"
    r"shape|caliber|morphology|thickness)(?:\s+and\s+(?:shape|contour|morphology|density|signal|echo\w*))?)"
    r"\s*[.;]?\s*$", re.IGNORECASE)
# "UTERUS  Anteverted and enlarged.": a heading in capitals set off by spaces instead of a colon
_CAPS_LEAD_RE = re.compile(r"^([A-Z][A-Z/&-]+(?: [A-Z/&-]+){0,3})[ \t]{2,}(?=\S)")
# A line that opens another block: a heading alone on its line, or a label naming something
# other than a part of the side heading's organ ("Mediastinum: ...", not "Cortex: normal").
_BLOCK_HEADING_RE = re.compile(r"^[A-Z][A-Za-z0-9 /,&()-]{1,60}:$")
_LABEL_START_RE = re.compile(r"^(?:[-*\u2022]\s*)?([A-Z][A-Za-z /,&-]{1,40}):\s*\S")
_PART_LABELS = frozenset((
    "size shape contour outline margin margins cortex parenchyma echotexture echo echogenicity signal "
    "density attenuation wall walls pole poles pelvis calyces capsule hilum hila lumen caliber course "
    "enhancement vascularity flow dimensions measurement measurements morphology position alignment "
    "head neck body tail fundus apex base lobe lobes segment segments").split())


# A heading written without its colon ("Salivary glands", "RIGHT KIDNEY", "Left IAC / CPA"): a
# short line of words with no ending stop, no number and nothing a statement says, above a line
# that ends like a sentence. Bullet items written without stops are no headings: the line under
# them has no stop either.
_BARE_HEADING_RE = re.compile(r"^[A-Z][A-Za-z /,&()'-]{1,40}$")
_STATEMENT_WORD_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|shows?|seen|noted|no|not|none|normal|unremarkable|clear|intact|patent"
    r"|without|with|stable|unchanged|new|absent|present|resolved|negative)\b", re.IGNORECASE)
_MAX_BARE_HEADING_WORDS = 4


def _bare_heading(line: str, lines: list[str], number: int) -> bool:
    """Whether ``line`` is a heading written without its colon (``_BARE_HEADING_RE``)."""
    if not _BARE_HEADING_RE.match(line) or len(line.split()) > _MAX_BARE_HEADING_WORDS \
            or _STATEMENT_WORD_RE.search(line):
        return False
    below = next((other for other in lines[number + 1:] if other), "")
    return below.endswith((".", ";")) and not _BARE_HEADING_RE.match(below)


def _opens_other_label(line: str) -> bool:
    """Whether ``line`` opens with a label of something other than a part of a side heading's
    organ, which ends that heading's block (see ``_utterances``). A bulleted line is an item of
    the heading above it ("Right breast:" / "- Cysts: ..."), whatever its label names."""
    label = _LABEL_START_RE.match(line)
    if label is None or _BULLET_RE.match(line):
        return False
    return not _SIDE_RE.search(label.group(1)) and label.group(1).split()[0].lower() not in _PART_LABELS


# An item labelled only with a side ("- Right: patent") under a heading alone on its line
# ("Internal carotid arteries:")
_HEADING_ITEM_RE = re.compile(r"^(?:[-*\u2022]\s*)?(right|left|bilateral|both(?: sides)?|medial|lateral|anterior"
                              r"|posterior|superior|inferior|upper|lower|proximal|distal)\s*:\s*(?=\S)",
                              re.IGNORECASE)


def _item_of_heading(line: str, heading: str) -> str:
    """"- Right: patent; no plaque" under "Internal carotid arteries:" -> "Right internal carotid
    arteries: patent; no plaque": the item's side and the heading are one label, as a template
    nests them (alone, "Right: no plaque" names only a side); so are a position and its heading
    ("- Lateral: vertical tear of the posterior horn" under "Menisci:")."""
    item = _HEADING_ITEM_RE.match(line)
    if item is None:
        return line
    return f"{item.group(1)} {_in_running_text(heading)}: {line[item.end():]}"


def _in_running_text(label: str) -> str:
    """A label as it reads after another word: its capital off unless it is an abbreviation's
    ("Cysts" -> "cysts", "MCA" stays)."""
    return f"{label[:1].lower()}{label[1:]}" if label[1:2].islower() else label


def _item_of_side_heading(line: str, side: str) -> str:
    """"- Cysts: multiple anechoic lesions" under "Right breast:" -> "Right breast cysts: multiple
    anechoic lesions": a bulleted item's label is a part of the side heading's organ, one label
    with it (the side written before a line that keeps its own label had made two labels, and
    the line's other parts lost both)."""
    item = _LABEL_START_RE.match(line)
    if item is None:
        return line
    return f"{side.rstrip(': ')} {_in_running_text(item.group(1))}: {line[item.end(1) + 1:].strip()}"


# the joints a heading may name as replaced, and the words for their replacement
_REPLACED_JOINTS = "hip|knee|shoulder|elbow|ankle"
_REPLACEMENTS = "arthroplasty|replacement|prosthesis|resurfacing"
# What a side heading may say after a comma of the state of its block ("Right hip, total hip
# arthroplasty:", "Left hip, native:", "Right knee, post ORIF:"): how the side is, not a label of
# each item under it
_HEADING_STATE_RE = re.compile(
    r",\s*(?:native|operated|unoperated|post-?operative(?:ly)?|(?:s/p|status post|post|after|following)\b.*"
    rf"|(?:(?:total|partial|hemi|reverse)[- ]?)?(?:(?:{_REPLACED_JOINTS})\s+)?(?:{_REPLACEMENTS}))\s*$", re.IGNORECASE)


# A side heading naming a joint's replacement ("Left total knee arthroplasty:"): its items ("-
# Patella: not resurfaced") are the joint's, said of its side and joint, not of the device (which
# had made each one a statement about the arthroplasty)
_REPLACED_JOINT_HEADING_RE = re.compile(
    rf"(?P<side>left|right)\s+(?:(?:total|partial|hemi|reverse|unicompartmental)[- ]?)?(?P<joint>{_REPLACED_JOINTS})"
    rf"\s+(?:{_REPLACEMENTS})", re.IGNORECASE)


def _heading_side(heading: str) -> str:
    """What a side heading puts before each sentence of its block: the heading (without what it
    says after a comma of the block's state, ``_HEADING_STATE_RE``; its side and joint where it
    names the joint's replacement), or only its side when it is the examination's title."""
    if not _EXAM_WORD_RE.search(heading):
        heading = _HEADING_STATE_RE.sub("", heading)
        replaced = _REPLACED_JOINT_HEADING_RE.fullmatch(heading.strip())
        return f"{replaced['side']} {replaced['joint']}: " if replaced else f"{heading}: "
    side = title_side(heading)
    return f"{side.capitalize()}: " if side else ""


_LEFT_OR_RIGHT_RE = re.compile(r"\b(?:left|right)\b", re.IGNORECASE)


def title_side(title: str) -> str:
    """The one side a study's title names ("left" in "MR LEFT ANKLE"), or "" when it names none or
    both: what goes before each sentence below it that names none, wherever the title is written
    (a heading line, a title before a colon, a title line without its colon)."""
    sides = {m.group(0).lower() for m in _LEFT_OR_RIGHT_RE.finditer(title)}
    return sides.pop() if len(sides) == 1 else ""


def _split_sentences(line: str) -> list[str]:
    pieces: list[str] = []
    for piece in _SENTENCE_END_RE.split(line):
        if pieces and (_ABBREVIATION_END_RE.search(pieces[-1]) or _LIST_MARKER_RE.match(pieces[-1])):
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces


# A label saying whether contrast was given ("Non-contrast: a round hypodense lesion",
# "Post-contrast: rim enhancement"): how the images were made, never the subject of what follows
# (a phase's name, "Portal venous phase: washout", says when the finding is seen, and stays; a
# study's, "MRV: ...", was tried and left out, see the lexicon README)
_CONTRAST_LABEL_RE = re.compile(
    r"(?:(?:non|pre|post)[- ]?contrast|(?:contrast[- ])?enhanced|unenhanced|plain|after (?:enhancement|contrast))"
    r"(?: (?:scan|images?|series|ct|mri?))?\s*:\s*", re.IGNORECASE)


def _clean_utterance(sentence: str) -> tuple[str, str, str]:
    """The utterance without its headings and list markers, the last label taken off it (a
    heading the table does not know, "Liver:"; "" for none), and the label it keeps as its
    subject ("Spleen: Normal.", "Right kidney: 108 mm."; "" for none)."""
    s = sentence.strip()
    taken = kept = ""
    # Headers ("FINDINGS:", "Lungs and Airways:") and list markers may be stacked: strip both.
    for _ in range(3):
        before = s
        m = _HEADER_RE.match(s) or (_BRACKETED_HEADER_RE.match(s) if "):" in s else None)
        if m:
            s = s[m.end():].strip()
        m = _INLINE_HEADER_RE.match(s)
        if m and _SIDE_RE.search(m.group(0)) and len(s) > m.end() and \
                not _SIDE_RE.search(s[m.end():]):
            kept = _label_of(m)
            break  # "Right kidney: simple cyst": only the sub-heading says the finding's side
        if m and ((_TELEGRAPHIC_RE.match(s, m.end()) and not _CONTRAST_LABEL_RE.fullmatch(m.group(0)))
                  or _PREDICATE_ONLY_RE.match(s[m.end():])
                  or (not _LOWER_RE.search(s) and not _CAPS_SENTENCE_RE.match(s, m.end()))):
            kept = _label_of(m)
            break  # "Hardware: good position", "Spleen: Normal.", "LUNGS: CLEAR.": the label is the subject
        if m and len(s) > m.end():
            taken = _label_of(m)
            s = s[m.end():].strip()
        elif m:
            s = ""
        s = _BULLET_RE.sub("", s, count=1).strip()
        if s == before:
            break
    return ("" if _LIST_MARKER_RE.match(s) else s), taken, kept


# A label kept as its sentence's subject that may go on to the sentences after it: a few words
# ("Right kidney: 108 mm."), not a clause ending in a colon ("The nodes have also fallen: ...")
_KEPT_LABEL_RE = re.compile(r"[A-Za-z/&-]+(?: [A-Za-z/&-]+){0,4}")
# A sentence that points back to what the sentence before it named ("The fragments override",
# "It measures 12 mm"): it is about that, not about its line's label
_PRONOUNS = "it|its|they|their|this|these|those"
_POINTS_BACK_RE = re.compile(rf"(?:the|{_PRONOUNS})\b", re.IGNORECASE)
# A sentence that opens on a pronoun ("It is compressible.", "Its wall is smooth."): said of the
# finding before it, which has its side, so a side heading's side is not written before it
_PRONOUN_START_RE = re.compile(rf"(?:{_PRONOUNS})\b", re.IGNORECASE)


def _goes_on_from_kept_label(sentence: str) -> bool:
    """Whether a later sentence of a line whose first sentence kept its label ("Right kidney:
    108 mm. Upper pole cortical cyst.") is said of that label: one naming no side of its own
    ("... Widening of the left incudomalleolar joint." after "Right temporal bone: no fracture.")
    and not pointing back (``_POINTS_BACK_RE``)."""
    return not _SIDE_RE.search(sentence) and not _POINTS_BACK_RE.match(sentence)


def _label_of(label: re.Match[str]) -> str:
    """The words of a label ("Liver: " -> "Liver")."""
    return label.group(0).strip().rstrip(":").strip()


# --- pairs --------------------------------------------------------------------------------------

DEFAULT_MAX_CHARS = 20_000  # about 3,000 words: far beyond any real report, bounded for safety


@dataclass
class ReportPair:
    """One evaluation unit: a reference report and a candidate report to compare with it."""

    id: str
    reference: str
    candidate: str
    modality: str | None = None
    area: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def content_hash(self) -> str:
        """A hash of everything a metric reads (both texts, modality, area): a stored result
        is reused for this pair only while the hash is the same."""
        digest = hashlib.sha256()
        for part in (self.reference, self.candidate, self.modality or "", self.area or ""):
            digest.update(str(part).encode("utf-8", "surrogatepass") + b"\x1f")
        return digest.hexdigest()[:32]

    def problems(self, max_chars: int = DEFAULT_MAX_CHARS) -> list[str]:
        """Why this pair cannot be scored (empty list when it can)."""
        found = []
        for side in ("reference", "candidate"):
            text = getattr(self, side)
            if not isinstance(text, str) or not text.strip():
                found.append(f"{side} report is empty")
            elif len(text) > max_chars:
                found.append(f"{side} report has {len(text):,} characters; the limit is {max_chars:,}")
            elif "\x00" in text:
                found.append(f"{side} report contains binary data (NUL bytes)")
        return found


# --- what a metric reads ------------------------------------------------------------------------

PARTS = ("findings", "impression")


def pair_views(reference: str, candidate: str, parts: tuple[str, ...]) -> tuple[str, str]:
    """Both reports as a metric reads them (``section_view``), read alike. A reference without any
    heading the table knows is read whole, its conclusion with its findings; when a metric reads
    the findings alone (RadSEM), a candidate that writes an impression is then read with it:
    "Impression: probably a high-grade glioma" had been left out against a reference that says "a
    high-grade glioma is considered" in its one block. Not the other way round: a candidate
    without headings may be findings alone (what a model writes for a findings-only reward), so
    a reference's impression is never added to what it is asked to match."""
    if impression_read_with_findings(reference, candidate, parts):
        return section_view(reference, parts), _impression_as_findings(candidate)
    return section_view(reference, parts), section_view(candidate, parts)


def _impression_as_findings(text: str) -> str:
    """The findings and then the impression, under one findings heading (read as the findings).
    The impression starts a paragraph of its own with a capital: written after a list's last line
    in lower case ("Impression: high-grade glioma is considered") it had read as that line going on."""
    layout = read_layout(text)
    impression = layout.impression[:1].upper() + layout.impression[1:]
    return "FINDINGS:\n" + "\n\n".join(body for body in (layout.findings, impression) if body)


def impression_read_with_findings(reference: str, candidate: str, parts: tuple[str, ...]) -> str | None:
    """"candidate" when ``pair_views`` reads the candidate's impression with its findings (the
    metric reads the findings alone, the reference has no heading, the candidate an impression);
    None otherwise."""
    if "findings" not in parts or "impression" in parts or _has_headings(read_layout(reference)):
        return None
    return "candidate" if read_layout(candidate).impression else None


def _has_headings(layout: ReportLayout) -> bool:
    return any(s.name != "preamble" for s in layout.sections)


@lru_cache(maxsize=8192)  # per text and parts: every metric asks it of both reports of every pair
def section_view(text: str, parts: tuple[str, ...]) -> str:
    """The report as a metric reads it: only ``parts`` of it, under canonical headings
    ("FINDINGS:", "IMPRESSION:"), so that every extractor (rules, judge, encoder) reads the
    same sections. A report without any heading the table knows is returned as written (it has
    nothing to leave out), unless only its impression is asked for."""
    layout = read_layout(text)
    if not _has_headings(layout) and "findings" in parts:
        return text
    chunks = []
    for part in parts:
        body = layout.findings if part == "findings" else layout.impression
        if part == "findings" and not body and "impression" not in parts:
            body = layout.impression  # an impression-only report: RadSEM reads its impression
        if body:
            chunks.append(f"{part.upper()}:\n{body}")
    return "\n\n".join(chunks)
