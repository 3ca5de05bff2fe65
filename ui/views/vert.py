"""VERT panel (and its sibling judge variants): the score, the errors per category split into
significant and insignificant, the matched findings, the judge's explanation and the variant."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from radscope.engine.metrics.vert.schema import (
    CATEGORIES,
    EXPLANATION,
    INSIGNIFICANT,
    MATCHED,
    SIGNIFICANT,
    JudgeAssessment,
)
from radscope.engine.metrics.vert.score import JudgeScores, compute_scores
from radscope.engine.reader.error_words import category_label
from radscope.ui.views import PanelView, register_view
from radscope.ui.views.common import (
    Raw,
    esc,
    find_section,
    find_value,
    fmt,
    html_list,
    html_table,
    status_attr,
)
from radscope.ui.views.crepe import reader_line

ASSESSMENT_KEYS = (EXPLANATION, SIGNIFICANT, INSIGNIFICANT, MATCHED)
SCORE_KEYS = ("vert", "green", "green_f1", "formula")


def error_rows(assessment: JudgeAssessment) -> list[list[Any]]:
    """One row per category: count and listed errors, significant then insignificant."""
    rows = []
    for cat in CATEGORIES:
        sig = assessment.significant[cat.key] if assessment.significant else None
        ins = assessment.insignificant[cat.key] if assessment.insignificant else None
        rows.append([Raw(f"<span{status_attr(cat.letter)} title='ReXVal: {esc(cat.name)}'>"
                         f"{esc(category_label(cat.letter))}</span>"),
                     _count_cell(sig.count if sig else None, "rs-bad"),
                     Raw(html_list(sig.errors, "—")) if sig and sig.errors else "",
                     _count_cell(ins.count if ins else None, "rs-minor"),
                     Raw(html_list(ins.errors, "—")) if ins and ins.errors else ""])
    return rows


def _count_cell(count: int | None, cls: str) -> Raw:
    if count is None:
        return Raw("<span class='rs-muted'>n/a</span>")
    return Raw(f"<span class='{cls}'>{count}</span>" if count else "0")


def _rules_judge(result: Mapping[str, Any]) -> bool:
    reader = find_value(result, "reader")
    return isinstance(reader, Mapping) and reader.get("name") == "rules"


@register_view("vert")
def vert_view(result: Mapping[str, Any]) -> PanelView:
    section = find_section(result, ASSESSMENT_KEYS)
    if section is None:
        raise ValueError("no judge assessment in this result")
    if "raw_format" not in section:
        section = {**section, "raw_format": "json"}
    assessment = JudgeAssessment.from_json(section)
    score_section = find_section(result, SCORE_KEYS)
    scores = JudgeScores.from_json(score_section) if score_section else compute_scores(assessment)
    variant = find_value(result, "variant") or "vert"
    lines = [
        ("Variant", variant),
        ("Overall score (the formula: rules judge)" if _rules_judge(result)
         else "Judge's overall score", fmt(scores.vert)),
        ("GREEN", fmt(scores.green)), ("GREEN-F1", fmt(scores.green_f1)),
        ("Formula score", fmt(scores.formula)),
        ("Significant errors", fmt(scores.error_count)),
        ("All errors", fmt(scores.total_error_count)),
        ("Matched findings", fmt(scores.matched)),
    ]
    summary = reader_line(result) + "".join(f"<div class='rs-kv'><b>{esc(k)}</b> {esc(v)}</div>"
                                            for k, v in lines)
    if scores.unavailable:
        summary += html_table(["score", "why unavailable"], sorted(scores.unavailable.items()))
    missing = assessment.missing_sections()
    body = ("<div class='rs-sub'>Errors per category</div>"
            + html_table(["category", "significant", "listed", "insignificant", "listed"],
                         error_rows(assessment), cls="rs-table rs-errors")
            + "<div class='rs-sub'>Matched findings</div>" + html_list(assessment.matched_findings)
            + "<div class='rs-sub'>Judge's explanation</div>"
            + f"<div class='rs-quote'>{esc(assessment.explanation) or '<i>none given</i>'}</div>")
    if missing:
        body += f"<div class='rs-warn'>Sections the judge left out: {esc(', '.join(missing))}</div>"
    if assessment.parse_warnings:
        body += "<div class='rs-sub'>Parser notes</div>" + html_list(assessment.parse_warnings)
    return PanelView(summary_html=summary, body_html=body)
