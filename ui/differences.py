"""The Differences view: both reports as written, each finding highlighted by what happened to it
(matched, only in the reference, only in the candidate, a conflict of side / presence / location,
or a difference in details such as size, severity or certainty).

It reads the sentence alignment RadSEM already produced for the pair, whichever extractor made
it (the offline rules reader or the LLM judge's tags): matched pairs come from its pairs, and
its unmatched sentences are paired here when both describe the same finding but cannot both be
true (that is why they were left unmatched: a left effusion against a right one). Atomic
sentences are then placed back onto the sentences of the original text by word overlap (a
finding written over two sentences of one report is marked on both).

RadSEM reads the findings only (on purpose). Its result names the sections it left out
(``sections.not_compared``, with each report's section spans) and, where both reports have one,
that section's alignment by the same matcher, unscored: the impression is then drawn with its
highlights inside a band that says it was not scored; where only one report has it, the band says
it was not compared. Never silence.

Pure functions (no Gradio): the Compare tab, the HTML report and the tests call them alike.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from radscope.engine.metrics.clear.rules import read_report
from radscope.engine.reader.compatibility import incompatibility_reason
from radscope.engine.reader.sentence_features import SentenceFeatures, sentence_features
from radscope.ui.views.common import esc, find_section, find_value

EXTRACTION_KEYS = ("ref_sentences", "gen_sentences", "tags")
MATCHED, DETAIL, CONFLICT, REF_ONLY, CAND_ONLY = "matched", "detail", "conflict", "ref-only", "cand-only"
LABELS = {MATCHED: "matched", DETAIL: "details differ (size, severity, certainty)",
          CONFLICT: "conflict (side, presence or location)", REF_ONLY: "only in the reference",
          CAND_ONLY: "only in the candidate"}
# Shown before a marked sentence so that no status is told by colour alone (the legend repeats it).
SYMBOLS = {MATCHED: "", DETAIL: "~", CONFLICT: "≠", REF_ONLY: "−", CAND_ONLY: "+"}
# Which status a sentence shows when several findings fall in it: the most telling one.
PRIORITY = (CONFLICT, REF_ONLY, CAND_ONLY, DETAIL, MATCHED)
CONFLICT_REASONS = {"left vs right": "side differs (left vs right)",
                    "asserted vs negated": "present in one report, denied in the other",
                    "normal vs abnormal": "present in one report, absent or normal in the other",
                    "opposite directions": "opposite directions",
                    "different spinal level": "different spinal level",
                    "different MRI sequence": "different MRI sequence",
                    "unrelated sites": "location differs"}
HEDGES = re.compile(r"\b(possible|possibly|probable|probably|likely|may|might|suspect(?:ed)?|"
                    r"question(?:able)?|cannot be excluded|not excluded|suggest(?:s|ive)?|concern)\b",
                    re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an the is are was were be of in on at with and or to there no not".split())
_SEGMENT = re.compile(r"[^.;\n]+[.;]?")
_HEADER = re.compile(r"[A-Z][A-Za-z /]*:\s*")  # "FINDINGS: ", "Impression: " (not highlighted)


@dataclass
class Finding:
    """One finding's fate: the atomic sentence(s) from each side, a status and why."""

    key: str
    status: str
    reference: str = ""
    candidate: str = ""
    reason: str = ""
    section: str = "findings"  # where it was aligned: "findings" (RadSEM) or "impression" (reader)

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "status": self.status, "reference": self.reference,
                "candidate": self.candidate, "reason": self.reason, "section": self.section}


@dataclass
class Segment:
    """A sentence of the original text (character span) and the findings placed in it."""

    start: int
    end: int
    keys: list[str] = field(default_factory=list)


class NoAlignment(ValueError):
    """The result carries no sentence alignment to draw from."""


def extraction_of(result: Mapping[str, Any] | None) -> dict[str, Any]:
    section = find_section(result or {}, EXTRACTION_KEYS, depth=4)
    if section is None or not isinstance(section.get("tags"), Mapping):
        raise NoAlignment("this result has no sentence alignment")
    return section


def _details_reason(ref: str, cand: str, details: str | None) -> str | None:
    hedged_ref, hedged_cand = bool(HEDGES.search(ref)), bool(HEDGES.search(cand))
    if hedged_ref != hedged_cand:
        return "certainty differs (hedged in one report only)"
    if details in ("partial", "none"):
        return "details differ (size, severity or character)"
    return None


def _concepts(f: SentenceFeatures) -> frozenset[str]:
    return f.asserted | f.negated | f.core


def findings(result: Mapping[str, Any]) -> list[Finding]:
    """Every finding of the pair with its status, from RadSEM's alignment in ``result``."""
    tags = extraction_of(result)["tags"]
    out: list[Finding] = []
    for pair in tags.get("pairs") or []:
        ref, cand = str(pair.get("ref_sentence") or ""), str(pair.get("gen_sentence") or "")
        why = _details_reason(ref, cand, pair.get("details_of_abnormality_relationship"))
        reason = why or ("same finding" if pair.get("anatomical_relationship") != "part-whole"
                         else "same finding, location given more or less precisely")
        out.append(Finding(f"f{len(out)}", DETAIL if why else MATCHED, ref, cand, reason))
    unmatched = tags.get("unmatched_sentences") or []
    refs = [str(u.get("sentence") or "") for u in unmatched if u.get("sentence_is_from") == "Ref"]
    cands = [str(u.get("sentence") or "") for u in unmatched if u.get("sentence_is_from") == "Gen"]
    _unmatched_findings(refs, cands, out)
    return out


def _unmatched_findings(refs: list[str], cands: list[str], out: list[Finding]) -> None:
    """The sentences RadSEM left unpaired, into ``out``: each reference sentence with the
    unused candidate sentence that shares a concept and the most words (a detail or a
    conflict), else only in the reference; the candidate sentences still left over."""
    ref_f = [sentence_features(s) for s in refs]
    cand_f = [sentence_features(s) for s in cands]
    used: set[int] = set()
    for i, rf in enumerate(ref_f):
        best = _closest(rf, cand_f, used)
        if best is None:
            out.append(Finding(f"f{len(out)}", REF_ONLY, reference=refs[i],
                               reason="not in the candidate"))
            continue
        used.add(best)
        why = incompatibility_reason(rf, cand_f[best])
        if why is None:
            detail = _details_reason(refs[i], cands[best], None)
            out.append(Finding(f"f{len(out)}", DETAIL, refs[i], cands[best],
                               detail or "same finding, described differently"))
        else:
            out.append(Finding(f"f{len(out)}", CONFLICT, refs[i], cands[best],
                               CONFLICT_REASONS.get(why, why)))
    for j, text in enumerate(cands):
        if j not in used:
            out.append(Finding(f"f{len(out)}", CAND_ONLY, candidate=text, reason="not in the reference"))


def _closest(rf: SentenceFeatures, cand_f: list[SentenceFeatures], used: set[int]) -> int | None:
    """The first unused candidate sentence sharing a concept with ``rf`` and the most tokens
    (at least one), or None."""
    best, best_overlap = None, 0
    for j, cf in enumerate(cand_f):
        if j in used or not (_concepts(rf) & _concepts(cf)):
            continue
        overlap = len(rf.tokens & cf.tokens)
        if overlap > best_overlap:
            best, best_overlap = j, overlap
    return best


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class Region:
    """A span of one report and how Differences compared it."""

    start: int
    end: int
    section: str  # "findings" | "impression"
    note: str = ""  # shown as the band's label
    compared: bool = True


# --------------------------------------------------------------------------- placing on the text


_BOTH_SIDES = frozenset({"both", "bilateral", "bilaterally"})


def _words(text: str) -> set[str]:
    """Content words, plurals folded ("lungs" = "lung"); "both" / "bilateral" stand for each side,
    since the atomiser splits "both lungs are clear" into a left and a right statement."""
    words = {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
             for w in _WORD.findall(text.lower()) if w not in _STOP}
    return words | {"left", "right"} if words & _BOTH_SIDES else words


def segments(text: str, span: tuple[int, int] | None = None) -> list[Segment]:
    """The sentences (and ';'-separated clauses) of ``text`` (within ``span``) as character spans."""
    low, high = span or (0, len(text))
    out = []
    for m in _SEGMENT.finditer(text, low, high):
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        header = _HEADER.match(text, start)
        if header and header.end() < m.end():
            start = header.end()
        if text[start:m.end()].strip():
            out.append(Segment(start, m.end()))
    return out


def place(text: str, sentences: Iterable[tuple[str, str]], min_cover: float = 0.5,
          span: tuple[int, int] | None = None) -> list[Segment]:
    """Put each (key, atomic sentence) on the original sentence that covers most of its words;
    a finding written over two neighbouring sentences goes on both. One that no sentence covers
    well enough stays off the text (the table still lists it)."""
    segs = segments(text, span)
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
    tip = "; ".join(f"{LABELS[f.status]}: {f.reason}" for f in items)
    topics = "|".join(conditions_in(text[seg.start:seg.end]))
    symbol = f"{SYMBOLS[status]}\u2009" if SYMBOLS[status] else ""  # part of the text (axe reads it)
    return (f"<mark class='rs-st-{status}' data-rs-keys='{' '.join(seg.keys)}' "
            f"data-status='{status}' data-rs-topics='{esc(topics)}' title='{esc(tip)}'>"
            f"{esc(symbol)}{esc(text[seg.start:seg.end])}</mark>")


def _marked_span(text: str, found: list[Finding], side: str, span: tuple[int, int]) -> str:
    by_key = {f.key: f for f in found}
    attr = "reference" if side == "reference" else "candidate"
    segs = place(text, [(f.key, getattr(f, attr)) for f in found if getattr(f, attr)], span=span)
    parts, pos = [], span[0]
    for seg in segs:
        if seg.keys:
            parts += [esc(text[pos:seg.start]), _mark(text, seg, [by_key[k] for k in seg.keys])]
            pos = seg.end
    parts.append(esc(text[pos:span[1]]))
    return "".join(parts)


def marked_html(text: str, found: list[Finding], side: str,
                regions: Sequence[Region] = ()) -> str:
    """The report with each sentence that carries a finding wrapped in a coloured ``mark``
    (status class, the findings' keys for hover-linking, a symbol and a tooltip saying what
    happened). ``regions`` are the sections the metric left out, each drawn as a labelled band
    with the findings of that section (or none, when not compared); the rest of the text gets
    the other findings."""
    apart = {r.section for r in regions}
    read = [f for f in found if f.section not in apart]
    parts, pos = [], 0
    for region in sorted(regions, key=lambda r: r.start):
        if region.start > pos:
            parts.append(_marked_span(text, read, side, (pos, region.start)))
        label = f"<span class='rs-band-label'>{esc(region.note)}</span>" if region.note else ""
        body = (_marked_span(text, [f for f in found if f.section == region.section], side,
                             (region.start, region.end)) if region.compared
                else esc(text[region.start:region.end]))
        css = "rs-band" if region.compared else "rs-band rs-not-compared"
        parts.append(f"<span class='{css}' data-section='{esc(region.section)}' "
                     f"data-compared='{'yes' if region.compared else 'no'}'>{label}{body}</span>")
        pos = max(pos, region.end)
    if pos < len(text):
        parts.append(_marked_span(text, read, side, (pos, len(text))))
    return "".join(parts)


def legend_html() -> str:
    def item(status: str) -> str:
        symbol = f"{SYMBOLS[status]}\u2009" if SYMBOLS[status] else ""
        return f"<span><mark class='rs-st-{status}'>{esc(symbol)}{esc(LABELS[status])}</mark></span>"
    return ("<div class='rs-legend' role='group' aria-label='Colour key'>"
            + "".join(item(s) for s in (MATCHED, DETAIL, CONFLICT, REF_ONLY, CAND_ONLY))
            + "<span><span class='rs-band rs-not-compared rs-legend-band'>not compared</span></span></div>")


def findings_table(found: list[Finding]) -> str:
    rows = "".join(
        f"<tr data-rs-keys='{f.key}'><td><mark class='rs-st-{f.status}'>{esc(LABELS[f.status])}</mark></td>"
        f"<td>{esc(f.section)}</td>"
        f"<td class='rs-ref'>{esc(f.reference) or '—'}</td><td class='rs-cand'>{esc(f.candidate) or '—'}</td>"
        f"<td>{esc(f.reason)}</td></tr>"
        for f in sorted(found, key=lambda f: (PRIORITY.index(f.status), f.section != "findings")))
    return ("<div class='rs-scroll' tabindex='0' role='region' aria-label='Findings of both reports'>"
            "<table class='rs-table rs-findings'><thead><tr><th>what happened</th>"
            "<th>section</th><th>reference</th><th>candidate</th><th>why</th></tr></thead><tbody>"
            + rows + "</tbody></table></div>")


@dataclass
class Layout:
    """What Differences compares in a pair: the findings it draws and each report's regions."""

    found: list[Finding]
    reference: list[Region]
    candidate: list[Region]
    notes: list[str] = field(default_factory=list)


def _spans(sections: Mapping[str, Any], side: str, name: str) -> list[tuple[int, int]]:
    """The character spans of section ``name`` in one report (the engine's layout)."""
    layout_ = sections.get(side)
    listed = layout_.get("sections") if isinstance(layout_, Mapping) else None
    return [(int(s["start"]), int(s["end"])) for s in listed or []
            if isinstance(s, Mapping) and s.get("name") == name]


def _rekeyed(found: list[Finding], section: str, start: int) -> list[Finding]:
    return [Finding(f"f{start + i}", f.status, f.reference, f.candidate, f.reason, section)
            for i, f in enumerate(found)]


def layout(reference: str, candidate: str, found: list[Finding],
           result: Mapping[str, Any] | None) -> Layout:
    """Add what RadSEM left out (``sections.not_compared`` of its result): a section both reports
    have is drawn with its unscored alignment in a band saying so; one only a report has, in a
    "not compared" band. A result that does not say what it read is drawn whole, as before."""
    sections = find_value(result or {}, "sections")
    drawn = Layout(list(found), [], [])
    if not isinstance(sections, Mapping):
        return drawn
    read = " + ".join(str(s) for s in sections.get("read") or []) or "report"
    for f in drawn.found:
        f.section = read
    for entry in sections.get("not_compared") or []:
        if not isinstance(entry, Mapping):
            continue
        name, why = str(entry.get("section") or ""), str(entry.get("why") or "")
        spans = {side: _spans(sections, side, name) for side in ("reference", "candidate")}
        alignment = entry.get("alignment")
        if isinstance(alignment, Mapping) and all(spans.values()):
            try:
                extra = _rekeyed(findings({"extraction": alignment}), name, len(drawn.found))
            except NoAlignment:
                extra = []
            drawn.found.extend(extra)
            note = f"{name}: aligned for reading, not scored ({why.split(': ', 1)[-1].split(',')[0]})"
            compared = True
            drawn.notes.append(f"{why.rstrip('.')}. Its alignment is drawn for reading; it is not in "
                               "the score.")
        else:
            note, compared = why, False
            if spans["reference"] or spans["candidate"]:
                drawn.notes.append(why)
        drawn.reference += [Region(a, b, name, note, compared) for a, b in spans["reference"]]
        drawn.candidate += [Region(a, b, name, note, compared) for a, b in spans["candidate"]]
    return drawn


def differences_html(reference: str, candidate: str, result: Mapping[str, Any] | None,
                     source: str = "") -> str:
    """The whole view: legend, the two reports side by side with highlights, the findings table.
    Without an alignment it says which metric to tick instead of drawing nothing."""
    try:
        found = findings(result or {})
    except NoAlignment:
        return ("<div class='rs-muted'>Tick RadSEM (it aligns the two reports sentence by "
                "sentence) to see where they differ in the text.</div>")
    drawn = layout(reference, candidate, found, result)
    counts = {s: sum(1 for f in drawn.found if f.status == s) for s in PRIORITY}
    summary = " · ".join(f"{n} {LABELS[s]}" for s, n in counts.items() if n)
    origin = f" <span class='rs-muted'>(findings aligned by {esc(source)})</span>" if source else ""
    notes = "".join(f"<div class='rs-muted rs-diff-note'>{esc(n)}</div>" for n in drawn.notes)
    return (f"<div class='rs-kv'>{esc(summary) or 'No findings.'}{origin}</div>{notes}{legend_html()}"
            f"<div class='rs-diff'><div><h3>Reference</h3><div class='rs-report' id='diff-reference'>"
            f"{marked_html(reference, drawn.found, 'reference', drawn.reference)}</div></div>"
            f"<div><h3>Candidate</h3><div class='rs-report' id='diff-candidate'>"
            f"{marked_html(candidate, drawn.found, 'candidate', drawn.candidate)}</div></div></div>"
            f"{findings_table(drawn.found)}")


def alignment_source(results: Mapping[str, Mapping[str, Any]]) -> tuple[str, Mapping[str, Any]] | None:
    """The first RadSEM result (name ``radsem`` or a variant) that carries an alignment."""
    for name, result in results.items():
        if name.split("-")[0].split("_")[0] != "radsem" or not isinstance(result, Mapping):
            continue
        try:
            extraction_of(result)
        except NoAlignment:
            continue
        return name, result
    return None
