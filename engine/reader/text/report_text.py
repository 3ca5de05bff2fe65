"""The text stage's one reading of a report: its sections, and its sentences in the words the
lexicons know, split and rewritten once (``reader_utterances``).

Every later stage takes these sentences: the atomiser the findings' sentences, the findings stage
the same and the FINDINGS + IMPRESSION sentences, CLEAR's and SRR's clauses the latter. None of
them sections or splits the raw text again. Cached by report text, the stage's one cache: a
reference recurs across candidates and metrics.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from radscope.engine.io.reports import read_layout, utterances_by_line
from radscope.engine.reader.text.labelled_lines import label_each_part
from radscope.engine.reader.text.wording import normalise


@dataclass(frozen=True)
class ReportText:
    """One report's sentences, as the reader's stages take them.

    ``findings``: the findings' sentences (the impression's when the report has nothing else, as
    RadSEM reads an impression-only report). ``atom_source``: what the atomiser cuts, the findings'
    sentences, or every sentence of a report with no findings or impression at all (a report whose
    only header is, say, "Clinical history:" has its findings under it). ``utterances``: FINDINGS +
    IMPRESSION sentences, what CLEAR, SRR-BERT and the comparisons read.
    """

    findings: tuple[str, ...]
    atom_source: tuple[str, ...]
    utterances: tuple[str, ...]
    atom_lines: tuple[int, ...]  # the line of each of ``atom_source`` (``utterances_by_line``)


@lru_cache(maxsize=4096)
def read_text(report: str) -> ReportText:
    """Section ``report`` and split and rewrite its sentences, once."""
    layout = read_layout(report)
    findings_section = layout.findings or layout.impression
    lines, findings = _reader_utterances_by_line(findings_section)
    atom_lines, atom_source = (lines, findings) if findings_section else _reader_utterances_by_line(report)
    return ReportText(findings=findings, atom_source=atom_source,
                      utterances=reader_utterances(layout.text(("findings", "impression"))),
                      atom_lines=atom_lines)


def reader_utterances(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` (``split_utterances``), each labelled line's parts said of what
    they are about (``labelled_lines``), each ``normalise``d."""
    return _reader_utterances_by_line(text)[1]


def _reader_utterances_by_line(text: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``reader_utterances`` and the line each one is on."""
    read = [(number, normalise(u)) for number, whole in utterances_by_line(text)
            for u in label_each_part(whole)]
    return tuple(n for n, _ in read), tuple(u for _, u in read)
