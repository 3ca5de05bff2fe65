"""SRR-BERT panel: both reports' findings (with statuses) grouped under their upper-level
label, agreements and differences coloured, and the set F1 at both levels."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

import pandas as pd

from radscope.engine.metrics.srr.score import SetComparison, SrrPairScore
from radscope.models.srr_labels import LabelLevel, split_status, to_upper
from radscope.ui.views import PanelView, register_view
from radscope.ui.views.common import BAD, CELL_CSS, GOOD, WARN, esc, find_section, fmt, html_list, html_table
from radscope.ui.views.crepe import reader_line

PAIR_KEYS = ("reference_labels", "candidate_labels", "upper", "level")
AGREE, STATUS_DIFFERS = "agree", "status differs"
ONLY_REF, ONLY_CAND = "only in reference (missed)", "only in candidate (extra)"
RESULT_COLOUR = {AGREE: GOOD, STATUS_DIFFERS: WARN, ONLY_REF: BAD, ONLY_CAND: BAD}


def _group(name: str, is_upper: bool) -> str:
    if is_upper:
        return name
    try:
        return to_upper(name)
    except ValueError:
        return "—"


def label_frame(comparison: SetComparison, is_upper: bool) -> pd.DataFrame:
    """One row per finding: its upper-level group, the status each report gives, the verdict."""
    statuses: dict[str, dict[str, set[str]]] = defaultdict(lambda: {"ref": set(), "cand": set()})
    for side, labels in (("ref", comparison.reference), ("cand", comparison.candidate)):
        for label in labels:
            name, status = split_status(label)
            statuses[name][side].add(status or "stated")
    rows = []
    for name, found in statuses.items():
        ref, cand = found["ref"], found["cand"]
        if ref and cand:
            verdict = AGREE if ref == cand else STATUS_DIFFERS
        else:
            verdict = ONLY_REF if ref else ONLY_CAND
        rows.append({"group": _group(name, is_upper), "finding": name,
                     "reference": ", ".join(sorted(ref)) or "—",
                     "candidate": ", ".join(sorted(cand)) or "—", "result": verdict})
    frame = pd.DataFrame(rows, columns=["group", "finding", "reference", "candidate", "result"])
    return frame.sort_values(["group", "finding"], kind="stable").reset_index(drop=True)


def _style(frame: pd.DataFrame) -> Any:
    def colour(row: pd.Series) -> list[str]:
        css = CELL_CSS[RESULT_COLOUR[row['result']]]
        return ["", "", css, css, css + "font-weight:600;"]
    return frame.style.apply(colour, axis=1)


def _scores(comparison: SetComparison, title: str) -> str:
    return (f"<div class='rs-kv'><b>{esc(title)}</b> F1 {esc(fmt(comparison.f1))} · precision "
            f"{esc(fmt(comparison.precision))} · recall {esc(fmt(comparison.recall))} · Jaccard "
            f"{esc(fmt(comparison.jaccard))}</div>")


@register_view("srr", slots=("table",))
def srr_view(result: Mapping[str, Any]) -> PanelView:
    section = find_section(result, PAIR_KEYS)
    if section is None:
        raise ValueError("no SRR-BERT label sets in this result")
    score = SrrPairScore.from_json(section)
    finest = score.leaf or score.upper
    is_upper = score.leaf is None or LabelLevel(score.level).is_upper
    summary = (reader_line(result) + f"<div class='rs-kv'><b>Labels</b> {esc(score.level)} · "
               f"view {esc(score.view)}</div>")
    if score.leaf is not None:
        summary += _scores(score.leaf, "Leaf level")
    summary += _scores(score.upper, "Upper level")
    body = ("<div class='rs-sub'>Upper-level labels</div>"
            f"<div class='rs-cols'><div><b>in both</b>{html_list(score.upper.both)}</div>"
            f"<div><b>only in reference</b>{html_list(score.upper.only_reference)}</div>"
            f"<div><b>only in candidate</b>{html_list(score.upper.only_candidate)}</div></div>")
    utterances = find_section(result, ("utterances",))
    if utterances and isinstance(utterances["utterances"], dict):
        rows = [[side, u.get("text", ""), ", ".join(u.get("labels", [])) or "—"]
                for side in ("reference", "candidate")
                for u in utterances["utterances"].get(side, []) if isinstance(u, dict)]
        if rows:
            body += ("<details><summary>Labels of each utterance</summary>"
                     + html_table(["report", "utterance", "labels"], rows) + "</details>")
    frame = label_frame(finest, is_upper)
    if frame.empty:
        summary += "<div class='rs-muted'>Neither report has any SRR-BERT label.</div>"
    return PanelView(summary_html=summary, table=_style(frame) if len(frame) else None,
                     table_label="Findings of both reports, grouped by upper-level label",
                     body_html=body)
