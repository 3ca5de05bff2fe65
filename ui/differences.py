"""The Differences view: both reports as written, each statement highlighted by what the clinical
reader made of it, with the same name the overview gives its error.

It draws the reading the overview counts (``radscope.engine.reader.by_section``: the findings
aligned with the findings, the impression with the impression, each error counted once), so
the pairing that produced an error is the one highlighted, in the impression as in the
findings, and an error is named by ``radscope.engine.reader.error_words.error_name`` here and in
the overview alike. Each statement is placed back onto the sentence of the report that says it
(by word overlap; a finding written over two sentences is marked on both), and the table quotes
that sentence as the radiologist wrote it, not the reader's atomic rewrite (which reads badly
around de-identification tokens: "The XXXX examination consists of the frontal."). Sections
the reader does not read (indication, technique, history, ...) are drawn in a "not read" band,
never marked.

Pure functions (no Gradio): the Compare tab, the HTML report and the tests call them alike.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from radscope.engine.io.reports import PARTS, read_layout, section_view
from radscope.engine.metrics.clear.rules import read_report
from radscope.engine.reader.by_section import error_kind, read_sections
from radscope.engine.reader.error_words import error_name
from radscope.engine.reader.errors import ReaderError
from radscope.engine.reader.pair.align import PairReading
from radscope.engine.reader.versions import READER_VERSION
from radscope.ui.views.common import esc

MATCHED, DETAIL, CONFLICT, REF_ONLY, CAND_ONLY = "matched", "detail", "conflict", "ref-only", "cand-only"
# What each colour means (the legend); the name of each error is its vocabulary name.
LABELS = {MATCHED: "matched", DETAIL: "in both, details differ",
          CONFLICT: "in both, contradicting", REF_ONLY: "only in the reference",
          CAND_ONLY: "only in the candidate"}
# Shown before a marked sentence so that no status is told by colour alone (the legend repeats it).
SYMBOLS = {MATCHED: "", DETAIL: "~", CONFLICT: "≠", REF_ONLY: "−", CAND_ONLY: "+"}
# Which status a sentence shows when several findings fall in it: the most telling one.
PRIORITY = (CONFLICT, REF_ONLY, CAND_ONLY, DETAIL, MATCHED)
_DETAIL_KINDS = frozenset({"severity", "size", "change", "certainty"})
_WORD = re.compile(r"[a-z0-9]+")
# De-identification runs ("XXXX") say nothing about which sentence a statement comes from.
_STOP = frozenset("a an the is are was were be of in on at with and or to there no not".split())
_DEID = re.compile(r"x{2,}")
_SEGMENT = re.compile(r"[^.;\n]+[.;]?")
_HEADER = re.compile(r"[A-Z][A-Za-z /]*:\s*")  # "FINDINGS: ", "Impression: " (not highlighted)
_MAYBE_FINDINGS = ("findings", "findings and impression", "preamble", "other")
_QUOTED = re.compile(r":\s*(?:reference\s*)?'")


@dataclass
class Finding:
    """One statement's fate: the reader's statement(s) from each side, a colour status, the
    name of its error (or "matched") and why."""

    key: str
    status: str
    reference: str = ""
    candidate: str = ""
    reason: str = ""
    section: str = "findings"
    name: str = MATCHED
    kind: str = ""  # the error's kind (``ERROR_KINDS``); "" when it is no error
    significant: bool = False
    # False for an impression error that repeats the findings' (same kind, same finding): shown
    # in both sections, counted once, as the overview, the export and the API count it
    counted: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "status": self.status, "name": self.name, "kind": self.kind,
                "significant": self.significant, "reference": self.reference,
                "candidate": self.candidate, "reason": self.reason, "section": self.section,
                "counted": self.counted}


@dataclass
class Segment:
    """A sentence of the original text (character span) and the findings placed in it."""

    start: int
    end: int
    keys: list[str] = field(default_factory=list)


def _status(kind: str, ref: str, cand: str) -> str:
    """The colour of an error: contradicting where both reports state the finding, else the
    report that states it alone; a difference in details where only a detail differs."""
    if kind in _DETAIL_KINDS:
        return DETAIL
    if ref and cand:
        return CONFLICT
    return REF_ONLY if ref else CAND_ONLY


def _why(error: ReaderError) -> str:
    """The reader's words for an error, without the statements it quotes (the table shows the
    radiologist's sentences instead)."""
    return _QUOTED.split(error.text, 1)[0].strip()


def _statement(pair: PairReading, side: str, index: int, comparison: bool) -> str:
    if index < 0:
        return ""
    reading = getattr(pair, side)
    return str((reading.comparisons if comparison else reading.findings)[index].text)


def _error_finding(pair: PairReading, error: ReaderError, section: str, repeated: bool) -> Finding:
    kind = error_kind(error)
    comparison = error.category in ("E", "F") and kind == "comparison"
    ref = _statement(pair, "reference", error.at[0], comparison)
    cand = _statement(pair, "candidate", error.at[1], comparison)
    significant = error.significant
    name = (error_name(kind, error.category) if significant or kind == "certainty"
            else "normal statement left out")
    reason = _why(error) + (" (not clinically significant)" if not significant else "")
    if repeated:
        reason += "; the same error as in the findings, counted once"
    return Finding("", _status(kind, ref, cand), ref, cand, reason, section, name, kind, significant,
                   counted=not repeated)


def _section_findings(pair: PairReading, section: str, errors: Sequence[ReaderError],
                      repeated: Sequence[ReaderError]) -> list[Finding]:
    """One section's rows: every error the reader counted there (and the impression errors
    counted once with the findings'), then what agrees."""
    out = [_error_finding(pair, e, section, False) for e in errors]
    out += [_error_finding(pair, e, section, True) for e in repeated]
    ref_used, cand_used = _statements_in_errors((*errors, *repeated))
    out += _same_findings(pair, section, ref_used, cand_used)
    out += _restated_findings(pair, section, ref_used, cand_used)
    out += _reference_only_agreeing(pair, section, ref_used)
    out += _candidate_only_agreeing(pair, section, cand_used)
    return out


def _statements_in_errors(errors: Sequence[ReaderError]) -> tuple[set[int], set[int]]:
    """The reference's and the candidate's findings an error row already shows, so that none is
    shown again as agreeing (an E or F error without a kind points at comparisons instead)."""
    shown = [e for e in errors if e.category not in ("E", "F") or e.kind]
    return {e.at[0] for e in shown}, {e.at[1] for e in shown}


def _same_findings(pair: PairReading, section: str, ref_used: set[int],
                   cand_used: set[int]) -> list[Finding]:
    """The linked statements no error row shows: both reports state the same finding."""
    return [Finding("", MATCHED, pair.ref_finding(link).text, pair.cand_finding(link).text,
                    "same finding", section)
            for link in pair.links if link.ref not in ref_used and link.cand not in cand_used]


def _restated_findings(pair: PairReading, section: str, ref_used: set[int],
                       cand_used: set[int]) -> list[Finding]:
    """A statement one report repeats, which the other report states too: no error."""
    out = []
    for side, index in pair.restated:
        if index not in (ref_used if side == "reference" else cand_used):
            text = getattr(pair, side).findings[index].text
            ref, cand = (text, "") if side == "reference" else ("", text)
            out.append(Finding("", MATCHED, ref, cand, "the other report states it too", section))
    return out


def _reference_only_agreeing(pair: PairReading, section: str, ref_used: set[int]) -> list[Finding]:
    """The reference's statements left unlinked and counted as no error: an impression
    statement the candidate makes in its findings."""
    return [Finding("", MATCHED, pair.reference.findings[index].text, "",
                    "the candidate states it in its findings", section)
            for index in pair.only_reference if index not in ref_used]


def _candidate_only_agreeing(pair: PairReading, section: str, cand_used: set[int]) -> list[Finding]:
    """The candidate's statements left unlinked and counted as no error: an abnormal one the
    reference states in its findings, or a normal statement the reference does not make."""
    out = []
    for index in pair.only_candidate:
        if index not in cand_used:
            f = pair.candidate.findings[index]
            why = ("the reference states it in its findings" if f.abnormal
                   else "a normal statement the reference does not make: no error")
            out.append(Finding("", MATCHED if f.abnormal else CAND_ONLY, "", f.text, why, section,
                               MATCHED if f.abnormal else "normal statement added"))
    return out


def findings(reference: str, candidate: str) -> list[Finding]:
    """Every statement of the pair with its status and name, from the reading the overview
    counts (``sections.clinical_summary`` reads the same sections the same way)."""
    reading = read_sections(section_view(reference, PARTS), section_view(candidate, PARTS))
    counted = reading.counted
    apart = {id(e) for e in counted.in_impression}
    out: list[Finding] = []
    if reading.findings is not None:
        out += _section_findings(reading.findings, "findings",
                                 [e for e in counted.errors if id(e) not in apart], ())
    if reading.impression is not None:
        out += _section_findings(reading.impression, "impression", counted.in_impression,
                                 counted.repeated)
    for i, f in enumerate(out):
        f.key = f"f{i}"
    return out


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class Region:
    """A span of one report and how Differences drew it."""

    start: int
    end: int
    section: str  # "findings" | "impression" | a section the reader does not read
    note: str = ""  # shown as the band's label
    compared: bool = True


def read_regions(text: str) -> list[Region]:
    """The report's sections as the reader reads them: the findings and the impression
    (compared), every other section with text ("not read": indication, technique, a title)."""
    layout = read_layout(text)
    if layout.whole:
        return [Region(0, len(text), "findings")]
    out = []
    for s in layout.sections:
        if not s.text:
            continue
        if s.name == "impression":
            out.append(Region(s.start, s.end, "impression"))
        elif s.name in _MAYBE_FINDINGS and s.text in layout.findings:
            out.append(Region(s.start, s.end, "findings"))
        else:
            what = s.heading or ("title" if s.name == "preamble" else s.name)
            out.append(Region(s.start, s.end, s.name, f"{what.lower()}: not read (the clinical "
                              "reader reads the findings and the impression)", False))
    return out


# --------------------------------------------------------------------------- placing on the text


_BOTH_SIDES = frozenset({"both", "bilateral", "bilaterally"})


def _words(text: str) -> set[str]:
    """Content words, plurals folded ("lungs" = "lung"); "both" / "bilateral" stand for each side,
    since the atomiser splits "both lungs are clear" into a left and a right statement."""
    words = {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
             for w in _WORD.findall(text.lower()) if w not in _STOP and not _DEID.fullmatch(w)}
    return words | {"left", "right"} if words & _BOTH_SIDES else words


def segments(text: str, spans: Sequence[tuple[int, int]] | None = None) -> list[Segment]:
    """The sentences (and ';'-separated clauses) of ``text`` (within ``spans``) as character spans."""
    out = []
    for m in (m for low, high in spans or [(0, len(text))] for m in _SEGMENT.finditer(text, low, high)):
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        header = _HEADER.match(text, start)
        if header and header.end() < m.end():
            start = header.end()
        if text[start:m.end()].strip():
            out.append(Segment(start, m.end()))
    return out


def place(text: str, sentences: Iterable[tuple[str, str]], min_cover: float = 0.5,
          spans: Sequence[tuple[int, int]] | None = None) -> list[Segment]:
    """Put each (key, atomic sentence) on the original sentence that covers most of its words;
    a finding written over two neighbouring sentences goes on both. One that no sentence covers
    well enough stays off the text (the table still lists it)."""
    segs = segments(text, spans)
    words = [_words(text[s.start:s.end]) for s in segs]
    for key, sentence in sentences:
        wanted = _words(sentence)
        if not wanted or not segs:
            continue
        cover = [len(wanted & w) / len(wanted) for w in words]
        best = max(range(len(segs)), key=lambda i: (cover[i], -i))
        if cover[best] >= min_cover:
            segs[best].keys.append(key)
        # The words it still lacks in a neighbouring sentence: written over both, marked on both.
        neighbours = [i for i in (best - 1, best + 1) if 0 <= i < len(segs)]
        joined = {i: len(wanted & (words[best] | words[i])) / len(wanted) for i in neighbours}
        whole = [i for i, c in joined.items() if c == 1.0 > cover[best] and cover[i] >= 0.25]
        if whole:
            if cover[best] < min_cover:
                segs[best].keys.append(key)
            segs[whole[0]].keys.append(key)
    return segs


def conditions_in(sentence: str) -> list[str]:
    """The CLEAR conditions a sentence mentions (CLEAR's rules lexicon), so that hovering a row
    of the CLEAR table outlines the sentences about that condition."""
    return sorted({m.condition for m in read_report(sentence).mentions if m.status != "implicit-negative"})


def _mark(text: str, seg: Segment, items: list[Finding]) -> str:
    status = next(s for s in PRIORITY if any(f.status == s for f in items))
    tip = "; ".join(f"{f.name}: {f.reason}" for f in items)
    names = "|".join(dict.fromkeys(f.name for f in items))
    topics = "|".join(conditions_in(text[seg.start:seg.end]))
    symbol = f"{SYMBOLS[status]}\u2009" if SYMBOLS[status] else ""  # part of the text (axe reads it)
    return (f"<mark class='rs-st-{status}' data-rs-keys='{' '.join(seg.keys)}' "
            f"data-status='{status}' data-rs-names='{esc(names)}' data-rs-topics='{esc(topics)}' "
            f"title='{esc(tip)}'>{esc(symbol)}{esc(text[seg.start:seg.end])}</mark>")


def placed(text: str, found: list[Finding], side: str,
           regions: Sequence[Region]) -> list[Segment]:
    """Every sentence of the read sections of one report, with the statements placed in it:
    a statement of the findings in the findings, one of the impression in the impression
    (in either when the report has not that section apart)."""
    out: dict[tuple[int, int], Segment] = {}
    for section in ("findings", "impression"):
        spans = [(r.start, r.end) for r in regions if r.section == section]
        mine = [f for f in found if f.section == section and getattr(f, side)]
        if not spans:
            if not mine:
                continue
            spans = [(r.start, r.end) for r in regions if r.compared]
        for seg in place(text, [(f.key, getattr(f, side)) for f in mine], spans=spans):
            out.setdefault((seg.start, seg.end), Segment(seg.start, seg.end)).keys.extend(seg.keys)
    return sorted(out.values(), key=lambda seg: seg.start)


def marked_html(text: str, found: list[Finding], side: str, regions: Sequence[Region],
                segs: Sequence[Segment]) -> str:
    """The report with each sentence that carries a statement wrapped in a coloured ``mark``
    (status class, the statements' keys for hover-linking, a symbol, the names of its errors
    and a tooltip saying what happened); the impression in a band; a section the reader does
    not read in a "not read" band, unmarked."""
    by_key = {f.key: f for f in found}
    parts, pos = [], 0
    marks = sorted((seg for seg in segs if seg.keys), key=lambda seg: seg.start)

    def body(start: int, end: int) -> str:
        nonlocal pos
        chunk, at = [], start
        for seg in marks:
            if start <= seg.start and seg.end <= end:
                chunk += [esc(text[at:seg.start]), _mark(text, seg, [by_key[k] for k in seg.keys])]
                at = seg.end
        chunk.append(esc(text[at:end]))
        return "".join(chunk)

    for region in sorted(regions, key=lambda r: r.start):
        if region.start > pos:
            parts.append(esc(text[pos:region.start]))
        if region.section == "findings" and region.compared:
            parts.append(body(region.start, region.end))
        else:
            label = f"<span class='rs-band-label'>{esc(region.note)}</span>" if region.note else ""
            inner = body(region.start, region.end) if region.compared else esc(text[region.start:region.end])
            css = "rs-band" if region.compared else "rs-band rs-not-compared"
            parts.append(f"<span class='{css}' data-section='{esc(region.section)}' "
                         f"data-compared='{'yes' if region.compared else 'no'}'>{label}{inner}</span>")
        pos = max(pos, region.end)
    if pos < len(text):
        parts.append(esc(text[pos:]))
    return "".join(parts)


def legend_html() -> str:
    def item(status: str) -> str:
        symbol = f"{SYMBOLS[status]}\u2009" if SYMBOLS[status] else ""
        return f"<span><mark class='rs-st-{status}'>{esc(symbol)}{esc(LABELS[status])}</mark></span>"
    return ("<div class='rs-legend' role='group' aria-label='Colour key'>"
            + "".join(item(s) for s in (MATCHED, DETAIL, CONFLICT, REF_ONLY, CAND_ONLY))
            + "<span><span class='rs-band rs-not-compared rs-legend-band'>not read</span></span></div>")


def _quoted(text: str, segs: Sequence[Segment], key: str, statement: str) -> str:
    """What the table shows for one side: the sentence(s) of the report the statement was
    placed on, as written; the reader's statement only where it was placed nowhere."""
    said = [text[seg.start:seg.end].strip() for seg in segs if key in seg.keys]
    return " ".join(said) if said else statement


def findings_table(found: list[Finding], reference: str, candidate: str,
                   ref_segs: Sequence[Segment], cand_segs: Sequence[Segment]) -> str:
    """One row per statement (or per sentence, where several agreeing statements come from one
    sentence pair: "No consolidation, pleural effusion or pneumothorax.")."""
    rows: dict[tuple[str, ...], list[str]] = {}
    for f in sorted(found, key=lambda f: (PRIORITY.index(f.status), f.section != "findings")):
        ref = _quoted(reference, ref_segs, f.key, f.reference) if f.reference else ""
        cand = _quoted(candidate, cand_segs, f.key, f.candidate) if f.candidate else ""
        rows.setdefault((f.status, f.name, f.section, ref, cand, f.reason), []).append(f.key)
    body = "".join(
        f"<tr data-rs-keys='{' '.join(keys)}' data-rs-names='{esc(name)}'><td><mark class='rs-st-{status}'>"
        f"{esc(name)}</mark></td><td>{esc(section)}</td>"
        f"<td class='rs-ref'>{esc(ref) or '—'}</td><td class='rs-cand'>{esc(cand) or '—'}</td>"
        f"<td>{esc(reason)}</td></tr>"
        for (status, name, section, ref, cand, reason), keys in rows.items())
    return ("<div class='rs-scroll' tabindex='0' role='region' aria-label='Findings of both reports'>"
            "<table class='rs-table rs-findings'><thead><tr><th>what happened</th>"
            "<th>section</th><th>reference</th><th>candidate</th><th>why</th></tr></thead><tbody>"
            + body + "</tbody></table></div>")


def differences_html(reference: str, candidate: str) -> str:
    """The whole view: legend, the two reports side by side with highlights, the table."""
    found = findings(reference, candidate)
    regions = {"reference": read_regions(reference), "candidate": read_regions(candidate)}
    segs = {side: placed(text, found, side, regions[side])
            for side, text in (("reference", reference), ("candidate", candidate))}
    counts: dict[str, int] = {}
    for f in sorted(found, key=lambda f: PRIORITY.index(f.status)):
        if f.counted:  # an error stated in both sections is one error, as the overview says
            counts[f.name] = counts.get(f.name, 0) + 1
    summary = " · ".join(f"{n} × {name}" for name, n in counts.items())
    origin = (f" <span class='rs-muted'>(read by the clinical reader, {esc(READER_VERSION)}: "
              "the reading the overview counts)</span>")
    return (f"<div class='rs-kv'>{esc(summary) or 'No findings.'}{origin}</div>{legend_html()}"
            f"<div class='rs-diff'><div><h3>Reference</h3><div class='rs-report' id='diff-reference'>"
            f"{marked_html(reference, found, 'reference', regions['reference'], segs['reference'])}</div></div>"
            f"<div><h3>Candidate</h3><div class='rs-report' id='diff-candidate'>"
            f"{marked_html(candidate, found, 'candidate', regions['candidate'], segs['candidate'])}</div></div></div>"
            f"{findings_table(found, reference, candidate, segs['reference'], segs['candidate'])}")
