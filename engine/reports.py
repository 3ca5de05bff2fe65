"""Report pairs, section splitting and utterance splitting.

Every metric sees reports through this module, so that "what is the Findings section" and
"what is one sentence" are decided once, the same way for all five metrics.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

# Canonical section names, and the header spellings that map to them (matched case-insensitively).
SECTION_ALIASES: dict[str, tuple[str, ...]] = {
    "findings": ("findings", "finding", "report", "body", "description", "observations"),
    "impression": ("impression", "impressions", "conclusion", "conclusions", "summary", "opinion",
                   "diagnosis", "assessment"),
    "comparison": ("comparison", "comparisons", "prior", "priors", "prior studies"),
    "indication": ("indication", "indications", "reason for exam", "reason for examination",
                   "reason for study", "clinical indication"),
    "history": ("history", "clinical history", "clinical information", "clinical data",
                "clinical details"),
    "technique": ("technique", "procedure", "protocol", "exam", "examination", "study",
                  "exam type", "examination type"),
    "recommendation": ("recommendation", "recommendations", "follow-up", "follow up"),
    "notification": ("notification", "communication", "critical result"),
}
_ALIAS_TO_SECTION = {alias: name for name, aliases in SECTION_ALIASES.items() for alias in aliases}
# A header is an alias followed by a colon, at the start of the text, of a line, or after a
# sentence end ("... normal. Impression: ..."). Longest aliases first so "clinical history" wins.
_ALIASES_PATTERN = "|".join(re.escape(a) for a in sorted(_ALIAS_TO_SECTION, key=len, reverse=True))
_HEADER_RE = re.compile(rf"(?:^|(?<=\n)|(?<=[.!?]\s)|(?<=[.!?]))\s*({_ALIASES_PATTERN})\s*:",
                        re.IGNORECASE)
# An all-capitals header alone on its line, without a colon ("FINDINGS").
_BARE_HEADER_RE = re.compile(rf"^[ \t]*({_ALIASES_PATTERN})[ \t]*$", re.IGNORECASE | re.MULTILINE)

# Sections that never describe the current study's findings.
NON_FINDING_SECTIONS = ("comparison", "indication", "history", "technique", "recommendation",
                        "notification")


def split_sections(text: str) -> dict[str, str]:
    """Split a report into canonical sections.

    Text before the first header (or the whole text when there are no headers) is kept under
    ``"preamble"``. Repeated headers are joined. Header matching is case-insensitive; a bare
    header on its own line only counts when written in capitals, so that an ordinary sentence
    such as "Study" is not mistaken for one.
    """
    marks: list[tuple[int, int, str]] = []
    for m in _HEADER_RE.finditer(text):
        marks.append((m.start(1), m.end(), _ALIAS_TO_SECTION[m.group(1).lower()]))
    for m in _BARE_HEADER_RE.finditer(text):
        if m.group(1).isupper():
            marks.append((m.start(1), m.end(), _ALIAS_TO_SECTION[m.group(1).lower()]))
    marks.sort()
    sections: dict[str, str] = {}

    def add(name: str, chunk: str) -> None:
        chunk = chunk.strip()
        if chunk:
            sections[name] = f"{sections[name]}\n{chunk}" if name in sections else chunk

    pos = 0
    current = "preamble"
    for start, end, name in marks:
        if start < pos:  # overlapping match (both patterns hit the same header)
            continue
        add(current, text[pos:start])
        current, pos = name, end
    add(current, text[pos:])
    return sections


def findings_text(text: str) -> str:
    """The Findings part of a report, with a fallback for reports without headers.

    FINDINGS when present; otherwise the preamble (unheaded text); otherwise the impression.
    """
    sections = split_sections(text)
    for key in ("findings", "preamble", "impression"):
        if sections.get(key):
            return sections[key]
    return ""


def findings_and_impression(text: str) -> str:
    """FINDINGS and IMPRESSION together (what CLEAR reads), falling back to the clinical body."""
    sections = split_sections(text)
    parts = [sections[k] for k in ("findings", "impression") if sections.get(k)]
    if not parts:
        parts = [v for k, v in sections.items() if k not in NON_FINDING_SECTIONS]
    return "\n".join(parts)


# --- utterances -------------------------------------------------------------------------------

_BULLET_RE = re.compile(
    r"^\s*(?:[-*\u2022\u2023\u25e6\u2043\u2219]+|\(?\d{1,2}[.)](?!\d)|\(?[a-hA-H][.)])\s+")
_INLINE_HEADER_RE = re.compile(r"^\s*[A-Z][A-Za-z /,&-]{1,60}:\s*")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")
_LIST_MARKER_RE = re.compile(r"^\(?(?:\d{1,2}|[a-hA-H])[.)]$")
# Abbreviations after which a period does not end a sentence.
_ABBREVIATION_END_RE = re.compile(r"\b(?:dr|mr|mrs|ms|vs|approx|e\.g|i\.e|cf|fig|st|resp|incl|ca)\.$",
                                  re.IGNORECASE)


def split_utterances(text: str) -> list[str]:
    """Split report text into utterances: one sentence or one list item each.

    Numbered items ("1.", "2)"), bullets ("- ", "*", "\u2022") and section headers are removed;
    newlines and sentence ends split. Numbers that are part of the text stay: "T12." is kept
    whole, "2.5 cm" is not split, "approx. 3 cm" is one sentence.
    """
    out: list[str] = []
    for line in text.splitlines():
        for sentence in _split_sentences(line.strip()):
            sentence = _clean_utterance(sentence)
            if sentence and re.search(r"[A-Za-z0-9]", sentence):
                out.append(sentence)
    return out


def _split_sentences(line: str) -> list[str]:
    pieces: list[str] = []
    for piece in _SENTENCE_END_RE.split(line):
        if pieces and (_ABBREVIATION_END_RE.search(pieces[-1]) or _LIST_MARKER_RE.match(pieces[-1])):
            pieces[-1] = f"{pieces[-1]} {piece}"
        else:
            pieces.append(piece)
    return pieces


def _clean_utterance(sentence: str) -> str:
    s = sentence.strip()
    # Headers ("FINDINGS:", "Lungs and Airways:") and list markers may be stacked: strip both.
    for _ in range(3):
        before = s
        m = _HEADER_RE.match(s)
        if m:
            s = s[m.end():].strip()
        m = _INLINE_HEADER_RE.match(s)
        if m and len(s) > m.end():
            s = s[m.end():].strip()
        elif m:
            s = ""
        s = _BULLET_RE.sub("", s, count=1).strip()
        if s == before:
            break
    return "" if _LIST_MARKER_RE.match(s) else s


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
