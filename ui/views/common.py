"""Small helpers shared by the metric views: escaping, number formatting, finding the part of
a result that a view needs, and the panel header every metric gets.

Report text is untrusted, so every string that reaches HTML goes through ``esc``.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from radscope.engine.io.lookup import find_section
from radscope.engine.metrics.framework.registry import spec_for
from radscope.engine.reader import error_words as vocabulary
from radscope.engine.reader.error_words import base_title

# Keys every per-pair result has (engine.runs.results.STANDARD_KEYS); repeated here as display order.
STANDARD_KEYS = ("score", "direction", "signature", "error", "model", "demo_grade", "elapsed_ms")

# Cell backgrounds as theme variables (ui/style.css has a light and a dark value for each), so
# coloured cells stay readable in both themes; the *_CSS forms also set the matching text colour.
GOOD = "var(--rs-good-bg)"  # agreement
BAD = "var(--rs-bad-bg)"   # disagreement
NEUTRAL = "var(--rs-neutral-bg)"  # nothing compared
WARN = "var(--rs-warn-bg)"  # partly agrees
CELL_CSS = {GOOD: "background-color:var(--rs-good-bg);color:var(--rs-good-fg);",
            BAD: "background-color:var(--rs-bad-bg);color:var(--rs-bad-fg);",
            NEUTRAL: "background-color:var(--rs-neutral-bg);color:var(--rs-neutral-fg);",
            WARN: "background-color:var(--rs-warn-bg);color:var(--rs-warn-fg);"}


# The error categories CREPE and VERT share (A-F) that say what happened to a finding, as the
# Differences view's statuses (ui.differences): hovering a category outlines those findings in
# the texts. E and F are about comparisons with a prior study and have no counterpart.
CATEGORY_STATUS = {"A": "cand-only", "B": "ref-only", "C": "conflict", "D": "detail"}


def status_attr(category: str) -> str:
    """The hover-link attribute of an error category ("" when it links to nothing)."""
    status = CATEGORY_STATUS.get(category.upper())
    return f" data-rs-status='{status}'" if status else ""


def esc(value: Any) -> str:
    """HTML-escape anything (None -> empty)."""
    return "" if value is None else html.escape(str(value), quote=True)


def fmt(value: Any, digits: int = 3) -> str:
    """A number for people: fixed decimals, integers without them, None as n/a."""
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:  # NaN
            return "n/a"
        return f"{value:.{digits}f}"
    return str(value)


def fmt_ms(ms: Any) -> str:
    """Elapsed time: milliseconds below a second, seconds above."""
    if not isinstance(ms, (int, float)):
        return "n/a"
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def find_value(obj: Any, key: str, depth: int = 3) -> Any:
    """The value of the first ``key`` found breadth first (None when absent)."""
    section = find_section(obj, [key], depth)
    return None if section is None else section[key]


def details_of(result: Mapping[str, Any]) -> dict[str, Any]:
    """The metric-specific part of a per-pair result (everything but the standard keys)."""
    return {k: v for k, v in result.items() if k not in STANDARD_KEYS}


def html_list(items: Sequence[Any], empty: str = "none") -> str:
    if not items:
        return f"<span class='rs-muted'>{esc(empty)}</span>"
    return "<ul class='rs-list'>" + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>"


def html_table(header: Sequence[str], rows: Sequence[Sequence[Any]], cls: str = "rs-table") -> str:
    """A small static HTML table; cells are escaped unless given as ``Raw``."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c if isinstance(c, Raw) else esc(c)}</td>" for c in row)
                   + "</tr>" for row in rows)
    # In a box of its own that scrolls sideways when the panel is narrower than the table.
    return (f"<div class='rs-scroll' tabindex='0' role='region' aria-label='Table'><table class='{cls}'><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>")


PLOT_TEXT_PX = 14


def themed(fig: Any) -> Any:
    """A plotly figure that follows the page's theme: transparent backgrounds, grid lines that
    read on light and dark alike (the text colour comes from ui/style.css); text at 14 px at
    least, readable across a room."""
    fig.update_layout(paper_bgcolor="rgba(0,0,0,0)", plot_bgcolor="rgba(0,0,0,0)",
                      font=dict(size=PLOT_TEXT_PX))
    fig.update_xaxes(gridcolor="rgba(128,128,128,0.3)", zerolinecolor="rgba(128,128,128,0.5)")
    fig.update_yaxes(gridcolor="rgba(128,128,128,0.3)", zerolinecolor="rgba(128,128,128,0.5)")
    return fig


class Raw(str):
    """A string that is already safe HTML (built from escaped parts)."""


def pretty_json(data: Any, limit: int = 20_000) -> str:
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    if len(text) > limit:
        text = text[:limit] + "\n… (truncated; the raw result below has everything)"
    return f"<pre class='rs-pre'>{esc(text)}</pre>"


def ran_kind(result: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """What produced ``result``: the extractor's kind ("rules", "llm", "encoder"; None for a
    metric without one) and its model, from the result's ``reader`` detail or its signature."""
    reader = find_value(result, "reader")
    reader = reader if isinstance(reader, Mapping) else {}
    # The signature names the extractor of every metric that has one ("...|extractor:rules|...").
    extractor = re.search(r"\|extractor:([a-z]+)", str(result.get("signature") or ""))
    kind = reader.get("name") or (extractor.group(1) if extractor else None)
    model = str(result.get("model") or "")
    if kind == "rules" or model.startswith("rules reader"):
        return "rules", None
    if kind == "llm":
        return "llm", str(reader.get("judge") or model or "unknown")
    if kind == "encoder":
        return "encoder", str(reader.get("model") or model or "unknown")
    return None, None


def ran_title(title: str, name: str, result: Mapping[str, Any] | None) -> str:
    """The title with what actually produced ``result`` (``vocabulary.ran_title``); the card's
    title when the result does not say (a metric that ran no reader, or one still waiting)."""
    if not result:
        return title
    spec = spec_for(name)
    rules_reader = spec.card.rules_reader if spec is not None else vocabulary.RULES_READER
    return vocabulary.ran_title(title, rules_reader, *ran_kind(result))


def sections_html(result: Mapping[str, Any]) -> str:
    """Which sections of the reports a result read and which it left out, and why (the
    engine's ``sections`` detail; nothing when the result does not say)."""
    sections = find_value(result, "sections")
    if not isinstance(sections, Mapping) or not isinstance(sections.get("read"), list):
        return ""
    read = ", ".join(str(s) for s in sections["read"]) or "the text as given"
    out = [f"<div class='rs-kv rs-sections'><b>Sections read</b> {esc(read)}</div>"]
    for item in sections.get("not_compared") or []:
        why = item.get("why") if isinstance(item, Mapping) else item
        out.append(f"<div class='rs-not-compared-note' data-section='"
                   f"{esc(item.get('section') if isinstance(item, Mapping) else '')}'>{esc(why)}</div>")
    for item in sections.get("impression_read_with_findings") or []:
        if isinstance(item, Mapping):
            out.append(f"<div class='rs-muted rs-read-alike-note'>{esc(item.get('why'))}</div>")
    for side in ("reference", "candidate"):
        layout = sections.get(side)
        for notice in (layout.get("notices") or []) if isinstance(layout, Mapping) else []:
            out.append(f"<div class='rs-muted rs-layout-notice'>{esc(side)}: {esc(notice)}</div>")
    for part in sections.get("absent") or []:
        out.append(f"<div class='rs-warn'>{esc(part)}: neither report has this section, so "
                   "nothing of it was compared</div>")
    return "".join(out)


def panel_header(title: str, name: str, result: Mapping[str, Any] | None, state: str = "done") -> str:
    """The line every panel starts with: metric, score and direction, the model that ran, the
    time it took, a badge for demo-grade models, and the error when the metric failed."""
    if state in ("waiting", "running"):
        title = base_title(title)  # what runs it is known once it has run
    if state == "waiting":
        return (f"<div class='rs-head'><h3 class='rs-title'>{esc(title)}</h3> "
                f"<span class='rs-muted'>waiting…</span></div>")
    if state == "running":
        return (f"<div class='rs-head'><h3 class='rs-title'>{esc(title)}</h3> "
                f"<span class='rs-running'>running…</span></div>")
    result = result or {}
    title = ran_title(title, name, result)
    direction = result.get("direction")
    arrow = {"higher": "↑ higher is better", "lower": "↓ lower is better"}.get(direction or "", "")
    score = result.get("score")
    demo_class = " rs-demo-value" if result.get("demo_grade") else ""
    if score is not None:
        score_html = (f"<span class='rs-score{demo_class}' data-metric='{esc(name)}'>"
                      f"{esc(fmt(score))}</span>")
    elif result.get("not_applicable"):
        score_html = "<span class='rs-score rs-muted rs-na'>not applicable</span>"
    else:
        score_html = "<span class='rs-score rs-muted'>no score</span>"
    model = result.get("model")
    model_html = (f"model <code>{esc(model)}</code>" if model
                  else "<span class='rs-muted'>no model (computed directly from the text)</span>")
    badge = ("<span class='rs-badge rs-demo' title='This model only exercises the pipeline; its "
             "numbers are not meaningful.'>demo-grade model: not a measurement</span>"
             if result.get("demo_grade") else "")
    error = result.get("error")
    error_html = (f"<div class='rs-error' role='alert'><b>Error:</b> {esc(error)}</div>"
                  if error else "")
    return (f"<div class='rs-head'><h3 class='rs-title'>{esc(title)}</h3> {score_html} "
            f"<span class='rs-muted'>{esc(arrow)}</span>"
            f"<div class='rs-model'>{model_html} · {esc(fmt_ms(result.get('elapsed_ms')))} {badge}</div>"
            f"{error_html}</div>")
