"""The "Structure report" action: rewrite one report into the structured-report format.

Two writers live in ``radscope.engine.structured.rewrite``: the rules rewrite (the clinical reader's
findings under their organ systems; milliseconds, no judge) and the LLM rewrite (one call to
the shared judge). "Automatic" takes the rules rewrite unless a capable (non-demo) judge is
set. This module picks the writer, runs it with the app's cached runtime context, and lays the
result out as HTML (escaped: the judge's text is as untrusted as the report), saying who wrote
it. A judge's answer that drops, repeats or invents a finding is refused by the engine; the
reasons are shown instead of the report.
"""
from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from typing import Any

from radscope.engine.context import RuntimeContext
from radscope.engine.structured.rewrite import StructureRefused
from radscope.ui.views.common import esc

__all__ = ["StructureRefused", "StructureUnavailable", "refusal_html", "structure",
           "structured_html", "writer_for"]

# What the "Written by" control offers, and the engine's name for each.
WRITER_CHOICES: dict[str, str] = {"Automatic": "auto", "Rules reader (no judge)": "rules",
                                  "LLM judge": "llm"}
DEFAULT_WRITER = "Automatic"


class StructureUnavailable(RuntimeError):
    """The structured-report rewrite cannot run here; the message says why."""


def structure_available() -> bool:
    return importlib.util.find_spec("radscope.engine.structured.rewrite") is not None


def writer_for(choice: str | None, options: Mapping[str, Any]) -> str:
    """``rules`` or ``llm`` for the control's choice (an unknown choice is an error)."""
    from radscope.engine.structured.rewrite import choose_writer

    requested = WRITER_CHOICES.get(choice or DEFAULT_WRITER)
    if requested is None:
        raise StructureUnavailable(f"Unknown writer {choice!r}; choose one of "
                                   f"{', '.join(WRITER_CHOICES)}.")
    return choose_writer(requested, options)


def structure(text: str, ctx: RuntimeContext, writer: str = "llm") -> Any:
    """The engine's StructureResult for ``text``: by the rules reader, or by the judge that the
    context's options name."""
    if not structure_available():
        raise StructureUnavailable("The structured-report rewrite is not part of this build.")
    from radscope.engine.structured.rewrite import structure_by_rules, structure_report

    if writer == "rules":
        return structure_by_rules(text)
    from radscope.engine.metrics.framework.judging import judge_for

    return structure_report(text, judge_for(ctx))


def refusal_html(exc: Exception) -> str:
    """Why the judge's structured report is not shown: each way it breaks the conservation
    rule, escaped (the reasons quote the judge's text)."""
    problems = getattr(exc, "problems", [str(exc)])
    return ("<div class='rs-structured rs-refused'><div class='rs-sub'>The LLM judge's structured "
            "report was refused: it does not keep the report as written</div><ul class='rs-list'>"
            + "".join(f"<li>{esc(p)}</li>" for p in problems[:20])
            + (f"<li>and {len(problems) - 20} more</li>" if len(problems) > 20 else "")
            + "</ul><div class='rs-muted'>Choose \"Rules reader (no judge)\" for a structured "
            "report that keeps every finding.</div></div>")


def structured_html(result: Any) -> str:
    """Sections, Findings under their headers as bullets, Impression as a numbered list, and
    who wrote it (the rules reader, or the model, flagged when demo-grade); header fields the
    report does not give say so, and text the format has no place for is listed."""
    data = result.to_json() if hasattr(result, "to_json") else dict(result)
    report = data.get("structured") or {}
    model = data.get("model")
    badge = " <span class='rs-badge rs-demo'>demo-grade model</span>" if data.get("demo_grade") else ""
    if data.get("writer") == "rules":
        who = f"<div class='rs-model'>written by the {esc(model)}</div>"
    else:
        who = f"<div class='rs-model'>written by <code>{esc(model or 'unknown')}</code>{badge}</div>"
    parts = [who]
    for key, label in (("exam_type", "Exam Type"), ("history", "History"),
                       ("technique", "Technique"), ("comparison", "Comparison")):
        value = esc(report.get(key)) if report.get(key) else \
            "<span class='rs-muted'>not given in the report</span>"
        parts.append(f"<div class='rs-kv'><b>{label}:</b> {value}</div>")
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
                 if impression else "<div class='rs-muted'>the report gives no impression</div>")
    left_out = data.get("left_out") or []
    if left_out:
        parts.append("<div class='rs-sub'>Not in the structured format</div><ul class='rs-list "
                     "rs-left-out'>" + "".join(f"<li>{esc(t)}</li>" for t in left_out) + "</ul>")
    return "<div class='rs-structured'>" + "".join(parts) + "</div>"
