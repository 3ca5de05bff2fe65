"""What a report says, and whether a structured report of it keeps all of it and adds nothing.

``report_parts`` reads a free-text report into what the structured format must keep: its finding
statements (each sentence of what the reader takes as the findings, with the sub-heading it is
under), its impression items in order, and its header (exam type from the title or the
examination line, history, technique, comparison only when the report has one). Sections the
format has no place for (recommendations, text under no heading) are named in ``left_out``.

``conservation_problems`` is the rule every writer must pass, the rules rewrite and the LLM
judge alike: each finding statement appears exactly once, in the radiologist's words (a
sentence may be cut into clauses, each said once; a statement about two organs may be listed
under each of them, once per header); nothing appears that the report does not say; the
impression keeps its items and their order. Words are compared lower-cased, without punctuation.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from radscope.engine.io.reports import ReportLayout, read_layout


@dataclass(frozen=True)
class Statement:
    """One finding sentence as written, and the sub-heading it stands under ("Liver", "")."""

    text: str
    context: str = ""


@dataclass(frozen=True)
class ReportParts:
    statements: tuple[Statement, ...]
    impression: tuple[str, ...]
    exam_type: str
    history: str
    technique: str
    comparison: str
    left_out: tuple[str, ...]  # what the format has no place for, said in words
    vocabulary: frozenset[str] = frozenset()  # every word of the report (and of ``exam``)


# A sub-heading at the start of a line ("Liver:", "Mediastinal window:", "L4-L5:").
_SUBHEADING = re.compile(r"^([A-Za-z][A-Za-z0-9 /,&()'-]{0,40}?)\s*:\s*(.*)$")
_MAX_SUBHEADING_WORDS = 5
# An impression numbered "1." / "2)" at the start of a line or after a sentence end.
_NUMBER = re.compile(r"(?:^|(?<=\n)|(?<=[.!?;])[ \t]+)[ \t]*\(?(\d{1,2})[.)][ \t]+")
_MODALITY = re.compile(
    r"\b(?:ct|mri?|radiograph\w*|x-?rays?|ultraso\w*|sonograph\w*|pet|angiograph\w*|"
    r"mammogra\w*|scans?|views?|tomograph\w*|fluoroscop\w*|scintigra\w*|imaging|film)\b",
    re.IGNORECASE)
_EXAM_HEADINGS = ("exam", "examination", "exam type", "examination type", "study")
_LEFT_OUT = ("recommendation", "notification")
# An impression heading run into the sentence before it, without a full stop ("... grossly
# unremarkable Impression: ..."): it is put on a line of its own before the sections are read
# (only after a lower-case word, so that "Clinical impression:" stays one heading).
_RUN_IN_HEADING = re.compile(r"(\b[a-z][a-z0-9-]*|\d+|XXXX)[ \t]+((?:IMPRESSION|Impression|"
                             r"CONCLUSION|Conclusion)[ \t]*:)")
# A sentence ends at . ! ? before a capital, a digit or an opening bracket, except after an
# abbreviation or a list number ("approx. 3 cm", "1. Effusion").
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
_NO_END = re.compile(r"(?:\b(?:dr|mr|mrs|ms|vs|approx|e\.g|i\.e|cf|fig|st|resp|incl|ca|no)\.|"
                     r"(?:^|:\s*)\(?(?:\d{1,2}|[a-hA-H])[.)])$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*\u2022\u2023\u25e6\u2043\u2219]+|\(?\d{1,2}[.)](?!\d)|"
                     r"\(?[a-hA-H][.)])\s+")
_WORD = re.compile(r"[^\W_]+")


def _clean(text: str) -> str:
    return " ".join(text.split())


def report_layout(text: str) -> ReportLayout:
    """The reader's layout of the report, with a known heading run into the sentence before it
    put on its own line first (the reader's own split is not changed)."""
    return read_layout(_RUN_IN_HEADING.sub(r"\1\n\2", text))


def sentences(line: str) -> list[str]:
    """The sentences of one line, every word kept (list numbers and bullets aside)."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(_BULLET.sub("", line.strip(), count=1)):
        if out and _NO_END.search(out[-1]):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return [_clean(_BULLET.sub("", s, count=1)) for s in out if _WORD.search(s)]


def _lines(text: str) -> list[tuple[str, str]]:
    """(sentence, sub-heading it is under) for each sentence of ``text``. A sub-heading at the
    start of a line ("Liver:", "L4-L5:", "Right ear:") is written before the first sentence that
    follows it (its words are the radiologist's: a level or a side must not be lost) and is the
    context of the sentences up to the next blank line or sub-heading."""
    out: list[tuple[str, str]] = []
    context = pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            context = context if pending else ""
            continue
        m = _SUBHEADING.match(line)
        if m and len(m.group(1).split()) <= _MAX_SUBHEADING_WORDS:
            heading, line = m.group(1).strip(), m.group(2)
            context, pending = heading, f"{pending} {heading}:".strip()
        found = sentences(line)
        if pending and found:
            found[0] = f"{pending} {found[0]}"
            pending = ""
        out += [(s, context) for s in found]
    if pending:  # a heading with nothing after it is kept as written
        out.append((pending, context))
    return out


def impression_items(text: str) -> list[str]:
    """The impression's items: its numbered items when it is numbered 1, 2, 3 ..., else its
    sentences."""
    marks = list(_NUMBER.finditer(text))
    numbers = [int(m.group(1)) for m in marks]
    if marks and numbers == list(range(1, len(marks) + 1)) and not text[:marks[0].start()].strip():
        ends = [m.start() for m in marks[1:]] + [len(text)]
        return [_clean(text[m.end():end]) for m, end in zip(marks, ends, strict=True)
                if _WORD.search(text[m.end():end])]
    return [s for s, _context in _lines(text)]


def _title(text: str) -> str:
    """A first line that names the study ("THORACIC CT ANGIOGRAPHY", "Chest X-ray, two views")."""
    first = text.strip().split("\n", 1)[0].strip()
    if not first or ":" in first or first.endswith(".") or len(first.split()) > 10:
        return ""
    return first if first.isupper() or _MODALITY.search(first) else ""


def _written(heading: str, text: str) -> str:
    text = _clean(text)
    return text if not heading or text.startswith(heading) else f"{heading}: {text}"


def report_parts(text: str, exam: str = "") -> ReportParts:
    """The finding statements, impression items and header of a report (``exam``: the pair's
    modality and area, used for the exam type when the report names none)."""
    layout = report_layout(text)
    title = _layout_title(text, layout)
    exam_line, named = _named_texts(layout)
    technique = " ".join(named.get("technique", []))
    return ReportParts(
        statements=tuple(Statement(t, c) for t, c in _lines(layout.findings)),
        impression=tuple(impression_items(layout.impression)),
        exam_type=_exam_type(title or exam_line or exam.strip(), technique),
        history=" ".join(named.get("indication", []) + named.get("history", [])),
        technique=technique, comparison=" ".join(named.get("comparison", [])),
        left_out=tuple(_left_out(layout, title)), vocabulary=frozenset(words(f"{text} {exam}")))


def _layout_title(text: str, layout: ReportLayout) -> str:
    """The study's title line, looked for only when the report opens with text under no
    heading or an unknown one (a known heading first means there is no title line)."""
    first = next((s for s in layout.sections if s.text), None)
    return _title(text) if first is not None and first.name in ("preamble", "other") else ""


def _named_texts(layout: ReportLayout) -> tuple[str, dict[str, list[str]]]:
    """The first exam line ("EXAM: CT chest", written under a technique heading) apart, since it
    names the exam type rather than the technique; every other section's text by its name."""
    named: dict[str, list[str]] = {}
    exam_line = ""
    for s in layout.sections:
        if not s.text:
            continue
        if s.name == "technique" and s.heading.strip().lower() in _EXAM_HEADINGS and not exam_line:
            exam_line = _clean(s.text)
            continue
        named.setdefault(s.name, []).append(_clean(s.text))
    return exam_line, named


def _exam_type(named: str, technique: str) -> str:
    """The exam type as named (title, exam line or the pair's exam); failing those, the
    technique's first sentence when it names a modality, so the header is filled when it can be."""
    if named:
        return named
    first_technique = sentences(technique)[:1]
    return (first_technique[0].rstrip(".") if first_technique and _MODALITY.search(first_technique[0])
            else "")


def _left_out(layout: ReportLayout, title: str) -> list[str]:
    """What the structured report has no place for, so that it is shown rather than lost: the
    recommendation and notification sections, and (unless the report is read whole) text under
    no heading or an unknown one that is not read as findings, the title line taken off."""
    sections = [s for s in layout.sections if s.text]
    left_out = [_written(s.heading or s.name, s.text) for s in sections if s.name in _LEFT_OUT]
    if layout.whole:
        return left_out
    loose = [s.text.strip().removeprefix(title) if i == 0 else s.text
             for i, s in enumerate(sections) if s.name in ("preamble", "other")
             and s.text not in layout.findings]
    return left_out + [_clean(t) for t in loose if _WORD.search(t)]


# --------------------------------------------------------------------------- conservation

# Words a cut between two clauses may leave out ("The heart is normal | and | the lungs ...").
_JOINING = frozenset({"and", "but", "while", "whereas"})
_NEGATION = frozenset({"no", "not", "without", "negative", "absent", "none"})
_VERB = frozenset({"is", "are", "was", "were", "appears", "appear", "remains", "remain", "seen",
                   "noted", "identified", "observed", "detected", "visualized", "demonstrated",
                   "shows", "show", "measures", "measure", "has", "have"})
_EMPTY = frozenset({"", "none", "n/a", "na", "not given", "not provided", "not stated",
                    "not available", "unknown"})


def words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(text.lower()))


def _spans(needle: tuple[str, ...], hay: tuple[str, ...]) -> list[tuple[int, int]]:
    n = len(needle)
    return [(i, i + n) for i in range(len(hay) - n + 1) if hay[i:i + n] == needle]


def _quote(text: str, size: int = 90) -> str:
    text = _clean(text)
    return repr(text if len(text) <= size else text[:size - 1] + "\u2026")


def conservation_problems(parts: ReportParts, findings: Mapping[str, Sequence[str]],
                          impression: Sequence[str], header: Mapping[str, str],
                          headers: Sequence[str]) -> list[str]:
    """Every way the structured report (``findings`` by header, ``impression``, ``header``
    fields) fails the conservation rule, in words; empty when it keeps the report whole."""
    problems = [f"unknown Findings header {h!r}" for h in findings if h not in headers]
    statements = [words(s.text) for s in parts.statements]
    placed: list[list[tuple[tuple[int, int], str]]] = [[] for _ in statements]
    wholes = set(statements)
    listed = [(item, h) for h in headers for item in findings.get(h, [])]
    # whole sentences first, so that a clause is matched to the sentence it was cut from
    for item, header_name in sorted(listed, key=lambda x: words(x[0]) not in wholes):
        problems += _place(item, header_name, statements, placed)
    for statement, spots, tokens in zip(parts.statements, placed, statements, strict=True):
        problems += _coverage(statement.text, tokens, spots)
    problems += _impression_problems(parts.impression, impression)
    problems += _header_problems(parts, header)
    return problems


def _place(item: str, header: str, statements: list[tuple[str, ...]],
           placed: list[list[tuple[tuple[int, int], str]]]) -> list[str]:
    """Match one listed item to the statement (or clause of one) it repeats; a problem when it
    repeats none or is said twice under one header."""
    tokens = words(item)
    if not tokens:
        return []
    candidates = [(i, span) for i, st in enumerate(statements) for span in _spans(tokens, st)]
    if not candidates:
        return [f"not in the report (under {header}): {_quote(item)}"]

    def rank(c: tuple[int, tuple[int, int]]) -> tuple[bool, bool, bool, int, int]:
        """The whole statement first; then one where this clause is not yet listed under this
        header, nor overlaps another clause listed for it; then the least covered, the first."""
        i, (a, b) = c
        overlaps = any(s != (a, b) and s[0] < b and a < s[1] for s, _h in placed[i])
        return ((a, b) != (0, len(statements[i])), ((a, b), header) in placed[i], overlaps,
                len(placed[i]), i)

    i, span = min(candidates, key=rank)
    if (span, header) in placed[i]:
        return [f"said twice under {header}: {_quote(item)}"]
    placed[i].append((span, header))
    return []


def _coverage(text: str, tokens: tuple[str, ...], spots: list[tuple[tuple[int, int], str]]) -> list[str]:
    """A statement is kept when the clauses listed for it cover all its words, without overlap
    (the same clause under several headers is one finding of several organs)."""
    if not tokens:
        return []
    spans = sorted({span for span, _h in spots})
    if not spans:
        return [f"left out: {_quote(text)}"]
    problems = []
    for (_a1, b1), (a2, _b2) in itertools.pairwise(spans):
        if a2 < b1:
            problems.append(f"said twice, in part: {_quote(text)}")
            break
    covered = {k for a, b in spans for k in range(a, b)}
    missing = [tokens[k] for k in range(len(tokens)) if k not in covered and tokens[k] not in _JOINING]
    if missing:
        problems.append(f"words left out ({' '.join(missing[:8])}) of {_quote(text)}")
    negated = tokens and tokens[0] in _NEGATION
    for a, b in spans:
        piece = set(tokens[a:b])
        if a > 0 and negated and not piece & (_NEGATION | _VERB):
            problems.append(f"a clause cut from a negated sentence reads as a positive finding: "
                            f"{_quote(' '.join(tokens[a:b]))} of {_quote(text)}")
    return problems


def _impression_problems(expected: Sequence[str], given: Sequence[str]) -> list[str]:
    want = [words(x) for x in expected]
    have = [words(x) for x in given if words(x)]
    if want == have:
        return []
    problems = [f"impression item left out or reworded: {_quote(x)}"
                for x, w in zip(expected, want, strict=True) if w not in have]
    problems += [f"impression item not in the report's impression: {_quote(x)}"
                 for x in given if words(x) and words(x) not in want]
    if not problems:
        problems.append("the impression's items are not in the report's order")
    return problems


def _header_problems(parts: ReportParts, header: Mapping[str, str]) -> list[str]:
    """Header fields may only use the report's words; Comparison stays empty when the report
    gives none."""
    problems = []
    for key, value in header.items():
        text = _clean(str(value))
        if text.lower().rstrip(".") in _EMPTY:
            continue
        if key == "comparison" and not parts.comparison:
            problems.append(f"comparison given although the report gives none: {_quote(text)}")
            continue
        extra = [w for w in words(text) if w not in parts.vocabulary]
        if extra:
            problems.append(f"{key.replace('_', ' ')} has words the report does not: "
                            f"{' '.join(extra[:8])}")
    return problems
