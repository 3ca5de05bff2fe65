"""The "Structure report" action: rewrite one report into the structured-report format.

The rewrite lives in ``engine.structured_report`` (one LLM call through the shared judge); this module
runs it with the app's cached runtime context, turns failures into readable messages, and lays
the result out as HTML (escaped: the judge's text is as untrusted as the report).
"""
from __future__ import annotations

import importlib.util
from typing import Any

from engine.context import RuntimeContext
from ui.views.common import esc


class StructureUnavailable(RuntimeError):
    """The structured-report rewrite cannot run here; the message says why."""


def structure_available() -> bool:
    return importlib.util.find_spec("engine.structured_report") is not None


def structure(text: str, ctx: RuntimeContext) -> Any:
    """The engine's StructureResult for ``text`` (the judge comes from the context's options)."""
    if not structure_available():
        raise StructureUnavailable("The structured-report rewrite is not part of this build.")
    from engine.metrics.judging import judge_for
    from engine.structured_report import structure_report

    return structure_report(text, judge_for(ctx))


def structured_html(result: Any) -> str:
    """Sections, Findings under their headers as bullets, Impression as a numbered list, and
    the model that wrote it (flagged when demo-grade)."""
    data = result.to_json() if hasattr(result, "to_json") else dict(result)
    report = data.get("structured") or {}
    model = data.get("model")
    badge = " <span class='rs-badge rs-demo'>demo-grade model</span>" if data.get("demo_grade") else ""
    parts = [f"<div class='rs-model'>written by <code>{esc(model or 'unknown')}</code>{badge}</div>"]
    for key, label in (("exam_type", "Exam Type"), ("history", "History"),
                       ("technique", "Technique"), ("comparison", "Comparison")):
        parts.append(f"<div class='rs-kv'><b>{label}:</b> {esc(report.get(key) or 'None')}</div>")
    parts.append("<div class='rs-sub'>Findings</div>")
    findings = report.get("findings") or {}
    listed = False
    for header, items in findings.items():
        if items:
            listed = True
            parts.append(f"<div><i>{esc(header)}</i></div><ul class='rs-list'>"
                         + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>")
    if not listed:
        parts.append("<div class='rs-muted'>None</div>")
    parts.append("<div class='rs-sub'>Impression</div>")
    impression = report.get("impression") or []
    parts.append("<ol class='rs-list'>" + "".join(f"<li>{esc(i)}</li>" for i in impression) + "</ol>"
                 if impression else "<div class='rs-muted'>None</div>")
    return "<div class='rs-structured'>" + "".join(parts) + "</div>"
