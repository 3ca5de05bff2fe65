"""CLEAR panel: the 13 conditions x (presence + five attributes) table with the reference
beside the candidate, mismatches coloured, and the pair's F1s and attribute agreement."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from radscope.engine.metrics.clear.agreement import attribute_agreement
from radscope.engine.metrics.clear.schema import CHOICE_ATTRIBUTES, LIST_ATTRIBUTES
from radscope.engine.metrics.clear.score import PRESENCE_COLUMN, TABLE_COLUMNS, ClearPairScore
from radscope.ui.views import PanelView, register_view
from radscope.ui.views.common import BAD, CELL_CSS, GOOD, NEUTRAL, esc, find_section, fmt, html_table

PAIR_KEYS = ("reference_presence", "candidate_presence", "pos_f1", "neg_f1", "table")


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


def cell_text(reference: Any, candidate: Any, match: bool | None) -> str:
    """One value when the reports agree (or nothing was compared); both, reference first,
    when they differ."""
    if match is False:
        return f"R: {_cell_text(reference)} | C: {_cell_text(candidate)}"
    return _cell_text(reference if reference is not None else candidate)


def clear_table(score: ClearPairScore) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The 13 x 6 display table and a same-shaped frame of CSS: green where the two reports
    agree, red (bold) where they differ, grey where nothing was compared."""
    columns = ["condition", *TABLE_COLUMNS]
    rows, styles = [], []
    for row in score.table:
        values, css = [row.condition], ["font-weight:600"]
        for column in TABLE_COLUMNS:
            cell = row.cells.get(column)
            match = None if cell is None else cell.match
            colour = NEUTRAL if match is None else (GOOD if match else BAD)
            values.append("" if cell is None else cell_text(cell.reference, cell.candidate, match))
            css.append(CELL_CSS[colour] + ("font-weight:600;" if match is False else ""))
        rows.append(values)
        styles.append(css)
    return pd.DataFrame(rows, columns=columns), pd.DataFrame(styles, columns=columns)


def _agreement_line(score: ClearPairScore) -> str:
    """Attribute agreement beside the F1: the F1 counts conditions only, so a finding on the
    wrong side or with the wrong severity must show here, at the top, not only in the table."""
    agreement = attribute_agreement(score.table)
    if not agreement["compared"]:
        return ("<div class='rs-kv'><b>Attributes</b> <span class='rs-muted'>none compared (no "
                "condition positive in both)</span></div>")
    differs = "".join(
        f"<li><b>{esc(d['attribute'])}</b> of {esc(d['condition'])}: reference "
        f"{esc(_cell_text(d['reference']) or '—')}, candidate "
        f"{esc(_cell_text(d['candidate']) or '—')}</li>" for d in agreement["differs"])
    css = " rs-bad" if differs else ""
    return (f"<div class='rs-kv rs-attr-agreement{css}'><b>Attributes agree</b> "
            f"{agreement['agree']}/{agreement['compared']}"
            + (f"<ul class='rs-differs'>{differs}</ul>" if differs else "") + "</div>")


def _summary(score: ClearPairScore) -> str:
    pos_note = " (neither report has a positive condition)" if score.pos_f1_degenerate else ""
    neg_note = " (neither report has a negative condition)" if score.neg_f1_degenerate else ""
    mismatched = [r.condition for r in score.table
                  if (c := r.cells.get(PRESENCE_COLUMN)) is not None and c.match is False]
    parts = [
        f"<div class='rs-kv'><b>Positive F1</b> {esc(fmt(score.pos_f1))}"
        f"<span class='rs-muted'>{esc(pos_note)}</span></div>",
        _agreement_line(score),
        f"<div class='rs-kv'><b>Negative F1</b> {esc(fmt(score.neg_f1))}"
        f"<span class='rs-muted'>{esc(neg_note)}</span></div>",
        f"<div class='rs-kv'><b>Positive in both</b> "
        f"{esc(', '.join(score.true_positives) or 'none')}</div>",
        f"<div class='rs-kv'><b>Presence differs</b> {esc(', '.join(mismatched) or 'nowhere')}</div>",
    ]
    choice_rows = [[a, fmt(score.choice_agreement.get(a))] for a in CHOICE_ATTRIBUTES]
    list_rows = [[a] + [fmt((score.list_similarity.get(a) or {}).get(k))
                        for k in ("bleu4", "rouge_l", "llm")] for a in LIST_ATTRIBUTES]
    parts.append("<div class='rs-sub'>Attribute agreement (conditions positive in both)</div>")
    parts.append(html_table(["choice attribute", "share matching"], choice_rows))
    parts.append(html_table(["list attribute", "BLEU-4", "ROUGE-L", "LLM judge"], list_rows))
    return "".join(parts)


@register_view("clear", slots=("table",),
               table_widths=("205px", "130px", "130px", "100px", "105px", "215px", "190px"))
def clear_view(result: Mapping[str, Any]) -> PanelView:
    section = find_section(result, PAIR_KEYS)
    if section is None:
        raise ValueError("no CLEAR table in this result")
    score = ClearPairScore.from_json(section)
    table, css = clear_table(score)
    styler = table.style.apply(lambda _: css, axis=None)
    return PanelView(summary_html=_summary(score), table=styler,
                     table_label="13 conditions x (presence + 5 attributes). Green: both reports "
                                 "agree (value shown once); red: they differ, shown as R: reference "
                                 "| C: candidate; grey: not compared")
