"""One comparison to share: a self-contained HTML report (opens offline, no script, no network:
the app's stylesheet is inlined) and the same comparison as JSON.

The HTML holds both texts with the Differences highlights, then every metric's panel as the app
draws it (header with score, model and time, summary, table, details, the metric card) and the
signatures; plots are drawn as inline SVG by ``radscope.ui.plot_svg`` (no plotly.js, no script).
"""
from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pandas.io.formats.style import Styler

from radscope.engine import __version__
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.ui.differences import differences_html
from radscope.ui.plot_svg import figure_svg
from radscope.ui.views import render
from radscope.ui.views.common import esc, fmt, fmt_ms, panel_header
from radscope.ui.widgets import card_html

STYLE = Path(__file__).with_name("style.css")
# The few Gradio theme values the stylesheet leans on, so the file reads the same outside the app.
PAGE_CSS = """
body { font-family: system-ui, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; margin: 1.5rem auto;
       max-width: 1200px; padding: 0 1rem; background: var(--rs-surface); color: var(--rs-text); }
@media (prefers-color-scheme: dark) { body { --dark: 1; } }
section.rs-panel { padding: 0.6rem 0.9rem; }
.rs-panel-top { display: flex; gap: 1rem; flex-wrap: wrap; }
.rs-panel-top > div:first-child { flex: 3 1 420px; } .rs-panel-top > div:last-child { flex: 1 1 240px; }
table.dataframe { border-collapse: collapse; font-size: 0.85rem; }
table.dataframe th, table.dataframe td { border: 1px solid var(--rs-border); padding: 0.2rem 0.45rem;
                                         text-align: left; vertical-align: top; }
"""


def comparison_record(reference: str, candidate: str, results: Mapping[str, Mapping[str, Any]],
                      modality: str = "", area: str = "", when: datetime | None = None,
                      link: str | None = None, run_id: str | None = None) -> dict[str, Any]:
    """Everything the report shows, as data (this is the JSON download); ``link`` reopens the
    stored run ``run_id`` in the app."""
    when = when or datetime.now(UTC)
    return {"radscope_version": __version__, "created": when.isoformat(timespec="seconds"),
            "run_id": run_id, "link": link,
            "pair": {"reference": reference, "candidate": candidate, "modality": modality or None,
                     "area": area or None},
            "metrics": {name: dict(result) for name, result in results.items()}}


def _panel(registry: MetricRegistry, name: str, result: Mapping[str, Any]) -> str:
    title = registry.get(name).card.title if name in registry else name
    view = render(name, result)
    table = ""
    if view.table is not None:
        styled = view.table
        table = (f"<div class='rs-caption'>{esc(view.table_label)}</div>" if view.table_label else "")
        html = (styled.hide(axis="index").set_uuid(re.sub(r"\W", "", name))
                .set_table_attributes("class='dataframe'").to_html()
                if isinstance(styled, Styler) else styled.to_html(index=False, classes="dataframe"))
        table += f"<div class='rs-scroll'>{html}</div>"
    plot = ""
    if view.figure is not None:
        try:
            plot = f"<div class='rs-plot-box' id='plot-{esc(name)}'>{figure_svg(view.figure, title)}</div>"
        except ValueError as exc:  # a trace type the report cannot draw: say so in its place
            plot = f"<div class='rs-warn'>The plot could not be drawn in this report: {esc(exc)}.</div>"
    card = card_html(registry.get(name).card) if name in registry else ""
    signature = result.get("signature")
    sig = (f"<div class='rs-sig rs-muted'>signature <code>{esc(signature)}</code></div>"
           if signature else "")
    return (f"<section class='rs-panel' id='panel-{esc(name)}'><div class='rs-panel-top'><div>"
            f"{panel_header(title, name, result)}{view.summary_html}</div><div>{card}</div></div>"
            f"{table}{plot}{view.body_html}{sig}</section>")


def _reopen(record: Mapping[str, Any]) -> str:
    link = record.get("link")
    if not link:
        return ""
    return (f"<div class='rs-muted' id='report-link'>Reopen in RadScope (stored run "
            f"{esc(record.get('run_id') or '')}): <a href='{esc(link)}'>{esc(link)}</a></div>")


def report_html(record: Mapping[str, Any], registry: MetricRegistry) -> str:
    """The comparison as one HTML file with no external reference (titles and cards from
    ``registry``)."""
    pair, results = record["pair"], record["metrics"]
    diff = differences_html(pair["reference"], pair["candidate"])
    context = " · ".join(f"{k} {esc(v)}" for k, v in (("modality", pair.get("modality")),
                                                        ("area", pair.get("area"))) if v)
    overview = "".join(
        f"<tr><td>{esc(name)}</td><td>{esc(fmt(r.get('score')) if r.get('error') is None else 'error')}"
        f"</td><td>{esc(r.get('model') or '—')}</td><td>{esc(fmt_ms(r.get('elapsed_ms')))}</td></tr>"
        for name, r in results.items())
    panels = "".join(_panel(registry, name, result) for name, result in results.items())
    css = STYLE.read_text(encoding="utf-8") + PAGE_CSS
    # The stylesheet's dark set applies when the reader's system is dark.
    dark_vars = re.search(r"\.dark\s*\{([^}]*)\}", css)
    if dark_vars:
        css += "@media (prefers-color-scheme: dark) { :root {" + dark_vars.group(1) + "} }"
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>RadScope comparison {esc(record['created'])}</title><style>{css}</style></head><body>"
            f"<header><h1 class='rs-h1'>RadScope comparison</h1><div class='rs-muted'>made "
            f"{esc(record['created'])} with RadScope {esc(record['radscope_version'])}"
            f"{' · ' + context if context else ''}</div>{_reopen(record)}</header><main>"
            f"<h2 class='rs-h2'>Scores</h2><table class='rs-table' id='report-scores'><thead><tr><th>metric"
            f"</th><th>score</th><th>model</th><th>time</th></tr></thead><tbody>{overview}</tbody></table>"
            f"<h2 class='rs-h2'>Differences</h2><section id='report-differences'>{diff}</section>"
            f"<h2 class='rs-h2'>Metrics</h2>{panels}</main></body></html>")


def write_report(record: Mapping[str, Any], registry: MetricRegistry,
                 out_dir: str | Path | None = None) -> tuple[Path, Path]:
    """The HTML report and the JSON record, in a fresh temporary folder (Gradio serves them)."""
    out = Path(out_dir or tempfile.mkdtemp(prefix="radscope-report-"))
    out.mkdir(parents=True, exist_ok=True)
    stem = "radscope-comparison-" + re.sub(r"[^0-9A-Za-z]", "", record["created"])[:15]
    html_path, json_path = out / f"{stem}.html", out / f"{stem}.json"
    html_path.write_text(report_html(record, registry), encoding="utf-8")
    json_path.write_text(json.dumps(record, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    return html_path, json_path
