"""The Differences view: both reports as written, each finding highlighted by what happened to it
(matched, only in the reference, only in the candidate, a conflict of side / presence / location,
or a difference in details such as size, severity or certainty).

It reads the sentence alignment RadSEM already produced for the pair, whichever extractor made
it (the offline rules reader or the LLM judge's tags): matched pairs come from its pairs, and
its unmatched sentences are paired here when both describe the same finding but cannot both be
true (that is why they were left unmatched: a left effusion against a right one). Atomic
sentences are then placed back onto the sentences of the original text by word overlap.

Pure functions (no Gradio): the Compare tab, the HTML report and the tests call them alike.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.metrics.clear.rules import read_report
from engine.reader.sentence_features import SentenceFeatures, sentence_features
from engine.reader.compatibility import conflict
from ui.views.common import esc, find_section

EXTRACTION_KEYS = ("ref_sentences", "gen_sentences", "tags")
MATCHED, DETAIL, CONFLICT, REF_ONLY, CAND_ONLY = "matched", "detail", "conflict", "ref-only", "cand-only"
LABELS = {MATCHED: "matched", DETAIL: "details differ (size, severity, certainty)",
          CONFLICT: "conflict (side, presence or location)", REF_ONLY: "only in the reference",
          CAND_ONLY: "only in the candidate"}
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

    def to_json(self) -> dict[str, str]:
        return {"key": self.key, "status": self.status, "reference": self.reference,
                "candidate": self.candidate, "reason": self.reason}


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
    extraction = extraction_of(result)
    tags = extraction["tags"]
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
    ref_f = [sentence_features(s) for s in refs]
    cand_f = [sentence_features(s) for s in cands]
    used: set[int] = set()
    for i, rf in enumerate(ref_f):
        best, best_overlap = None, 0
        for j, cf in enumerate(cand_f):
            if j in used or not (_concepts(rf) & _concepts(cf)):
                continue
            overlap = len(rf.tokens & cf.tokens)
            if overlap > best_overlap:
                best, best_overlap = j, overlap
        if best is None:
            out.append(Finding(f"f{len(out)}", REF_ONLY, reference=refs[i],
                               reason="not in the candidate"))
            continue
        used.add(best)
        why = conflict(rf, cand_f[best])
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
    return out


# --------------------------------------------------------------------------- placing on the text


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def segments(text: str) -> list[Segment]:
    """The sentences (and ';'-separated clauses) of ``text`` as character spans."""
    out = []
    for m in _SEGMENT.finditer(text):
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        header = _HEADER.match(text, start)
        if header and header.end() < m.end():
            start = header.end()
        if text[start:m.end()].strip():
            out.append(Segment(start, m.end()))
    return out


def place(text: str, sentences: Iterable[tuple[str, str]], min_cover: float = 0.5) -> list[Segment]:
    """Put each (key, atomic sentence) on the original sentence that covers most of its words;
    one that no sentence covers well enough stays off the text (the table still lists it)."""
    segs = segments(text)
    words = [_words(text[s.start:s.end]) for s in segs]
    for key, sentence in sentences:
        wanted = _words(sentence)
        if not wanted or not segs:
            continue
        cover = [len(wanted & w) / len(wanted) for w in words]
        best = max(range(len(segs)), key=lambda i: (cover[i], -i))
        if cover[best] >= min_cover:
            segs[best].keys.append(key)
    return segs


def conditions_in(sentence: str) -> list[str]:
    """The CLEAR conditions a sentence mentions (CLEAR's rules lexicon), so that hovering a row
    of the CLEAR table outlines the sentences about that condition."""
    return sorted({m.condition for m in read_report(sentence).mentions if m.status != "implicit-negative"})


def marked_html(text: str, found: list[Finding], side: str) -> str:
    """The report with each sentence that carries a finding wrapped in a coloured ``mark``
    (status class, the findings' keys for hover-linking, and a tooltip saying what happened)."""
    by_key = {f.key: f for f in found}
    attr = "reference" if side == "reference" else "candidate"
    segs = place(text, [(f.key, getattr(f, attr)) for f in found if getattr(f, attr)])
    parts, pos = [], 0
    for seg in segs:
        if not seg.keys:
            continue
        items = [by_key[k] for k in seg.keys]
        status = next(s for s in PRIORITY if any(f.status == s for f in items))
        tip = "; ".join(f"{LABELS[f.status]}: {f.reason}" for f in items)
        topics = "|".join(conditions_in(text[seg.start:seg.end]))
        parts.append(esc(text[pos:seg.start]))
        parts.append(f"<mark class='rs-st-{status}' data-rs-keys='{' '.join(seg.keys)}' "
                     f"data-status='{status}' data-rs-topics='{esc(topics)}' title='{esc(tip)}'>"
                     f"{esc(text[seg.start:seg.end])}</mark>")
        pos = seg.end
    parts.append(esc(text[pos:]))
    return "".join(parts)


def legend_html() -> str:
    return ("<div class='rs-legend' aria-label='Colour key'>"
            + "".join(f"<span><mark class='rs-st-{s}'>{esc(LABELS[s])}</mark></span>"
                      for s in (MATCHED, DETAIL, CONFLICT, REF_ONLY, CAND_ONLY)) + "</div>")


def findings_table(found: list[Finding]) -> str:
    rows = "".join(
        f"<tr data-rs-keys='{f.key}'><td><mark class='rs-st-{f.status}'>{esc(LABELS[f.status])}</mark></td>"
        f"<td>{esc(f.reference) or '—'}</td><td>{esc(f.candidate) or '—'}</td><td>{esc(f.reason)}</td></tr>"
        for f in sorted(found, key=lambda f: PRIORITY.index(f.status)))
    return ("<div class='rs-scroll'><table class='rs-table rs-findings'><thead><tr><th>what happened</th>"
            "<th>reference</th><th>candidate</th><th>why</th></tr></thead><tbody>" + rows
            + "</tbody></table></div>")


def differences_html(reference: str, candidate: str, result: Mapping[str, Any] | None,
                     source: str = "") -> str:
    """The whole view: legend, the two reports side by side with highlights, the findings table.
    Without an alignment it says which metric to tick instead of drawing nothing."""
    try:
        found = findings(result or {})
    except NoAlignment:
        return ("<div class='rs-muted'>Tick RadSEM (it aligns the two reports sentence by "
                "sentence) to see where they differ in the text.</div>")
    counts = {s: sum(1 for f in found if f.status == s) for s in PRIORITY}
    summary = " · ".join(f"{n} {LABELS[s]}" for s, n in counts.items() if n)
    origin = f" <span class='rs-muted'>(alignment from {esc(source)})</span>" if source else ""
    return (f"<div class='rs-kv'>{esc(summary) or 'No findings.'}{origin}</div>{legend_html()}"
            f"<div class='rs-diff'><div><h3>Reference</h3><div class='rs-report' id='diff-reference'>"
            f"{marked_html(reference, found, 'reference')}</div></div>"
            f"<div><h3>Candidate</h3><div class='rs-report' id='diff-candidate'>"
            f"{marked_html(candidate, found, 'candidate')}</div></div></div>{findings_table(found)}")


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
