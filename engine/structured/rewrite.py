"""Rewrite a free-text report into the structured format of spec §4 (SRRG).

Sections Exam Type, History, Technique, Comparison, Findings, Impression; Findings grouped
under eight fixed organ-system headers as bullet lists; Impression as a numbered list.

The structured report must be one the radiologist would sign: every finding statement of the
report kept once, in the radiologist's words, under the organ it is about (a statement of two
organs under each), nothing added, the impression's items kept in their order, the header taken
from the report (Comparison empty when the report gives none). That rule is
``structured_check.conservation_problems``; both writers answer to it, and every result names
its writer:

- ``structure_by_rules`` (the default when no capable judge is set): each finding sentence
  under the header of the organ or device it is about (``structured_organs``), cut only where
  two clauses that stand alone are about different organs; the report's own impression items
  and header. Deterministic, offline, milliseconds.
- ``structure_report``: the LLM judge answers JSON constrained to the same shape; an answer
  that drops, repeats or invents a finding is refused with its reasons (``StructureRefused``),
  never shown as the structured report.

Command line: ``radscope structure --input report.txt [--by rules|llm] [--judge ...]``.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.runtimes.judge import Judge, bounded_schema
from radscope.engine.runtimes.prompts import load_prompt
from radscope.engine.structured.check import ReportParts, conservation_problems, report_parts
from radscope.engine.structured.organs import FINDINGS_HEADERS, statement_pieces

PROMPT = "structure.srrg"
# Names the rules below in a result's signature: results of older rules are not reused.
RULES_VERSION = "structure-rules-v2"
_TEXT = {"type": "string"}
_LIST = {"type": "array", "items": {"type": "string"}}
STRUCTURE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "exam_type": _TEXT, "history": _TEXT, "technique": _TEXT, "comparison": _TEXT,
        "findings": {"type": "object", "properties": {h: _LIST for h in FINDINGS_HEADERS},
                     "required": list(FINDINGS_HEADERS), "additionalProperties": False},
        "impression": _LIST,
    },
    "required": ["exam_type", "history", "technique", "comparison", "findings", "impression"],
    "additionalProperties": False,
}


@dataclass
class StructuredReport:
    """A report in the structured format; empty Findings headers are kept (as empty lists), and
    a header field the report does not give is empty (never "None")."""

    exam_type: str
    history: str
    technique: str
    comparison: str
    findings: dict[str, list[str]] = field(default_factory=dict)
    impression: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"exam_type": self.exam_type, "history": self.history,
                "technique": self.technique, "comparison": self.comparison,
                "findings": {h: list(self.findings.get(h, [])) for h in FINDINGS_HEADERS},
                "impression": list(self.impression)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StructuredReport:
        findings = data.get("findings") or {}
        return cls(exam_type=str(data.get("exam_type", "")), history=str(data.get("history", "")),
                   technique=str(data.get("technique", "")),
                   comparison=str(data.get("comparison", "")),
                   findings={h: [str(s).strip() for s in findings.get(h, []) if str(s).strip()]
                             for h in FINDINGS_HEADERS},
                   impression=[str(s).strip() for s in data.get("impression", []) if str(s).strip()])

    def to_text(self) -> str:
        """The structured report as text: headed sections, bullets, numbered impression."""
        lines = [f"{label}: {value}".rstrip() for label, value in (
            ("Exam Type", self.exam_type), ("History", self.history),
            ("Technique", self.technique), ("Comparison", self.comparison))]
        lines += ["", "Findings:"]
        for header in FINDINGS_HEADERS:
            items = self.findings.get(header, [])
            if items:
                lines.append(f"{header}:")
                lines += [f"- {item}" for item in items]
        lines += ["", "Impression:"]
        lines += [f"{i}. {item}" for i, item in enumerate(self.impression, start=1)]
        return "\n".join(lines)


RULES_WRITER = "rules rewrite (report sentences by organ, no LLM)"
WRITERS = ("auto", "rules", "llm")


@dataclass
class StructureResult:
    """A structured report and who wrote it: the LLM judge (``model``) or the rules reader."""

    report: StructuredReport
    model: ModelInfo | None
    prompt: str
    signature: dict[str, Any]
    writer: str = "llm"  # "llm" or "rules"
    left_out: list[str] = field(default_factory=list)  # report text the format has no place for

    def to_json(self) -> dict[str, Any]:
        return {"structured": self.report.to_json(), "text": self.report.to_text(),
                "writer": self.writer, "left_out": list(self.left_out),
                "model": self.model.id if self.model else RULES_WRITER,
                "demo_grade": bool(self.model and self.model.demo_grade),
                "prompt": self.prompt, "signature": self.signature}


# --------------------------------------------------------------------------- rules rewrite


def structure_by_rules(text: str, exam: str = "") -> StructureResult:
    """The structured report by rules (see module docstring); ``exam`` is the pair's modality
    and area when known (the exam type when the report names none)."""
    if not text.strip():
        raise ValueError("the report is empty")
    parts = report_parts(text, exam)
    findings: dict[str, list[str]] = {h: [] for h in FINDINGS_HEADERS}
    previous: tuple[str, ...] = ()
    for statement in parts.statements:
        pieces = statement_pieces(statement.text, statement.context, previous)
        for piece in pieces:
            for header in piece.headers:
                findings[header].append(piece.text)
        previous = pieces[-1].headers
    report = StructuredReport(
        exam_type=parts.exam_type, history=parts.history, technique=parts.technique,
        comparison=parts.comparison, findings=findings, impression=list(parts.impression))
    return StructureResult(report, None, "rules", {"writer": "rules", "rules": RULES_VERSION},
                           writer="rules", left_out=list(parts.left_out))


def check_conservation(text: str, report: StructuredReport, exam: str = "") -> list[str]:
    """What ``report`` drops, repeats or adds against the report ``text`` (empty: it keeps
    every finding statement once, invents none, and keeps the impression's items in order)."""
    parts = report_parts(text, exam)
    return conservation_problems(
        parts, report.findings, report.impression,
        {"exam_type": report.exam_type, "history": report.history,
         "technique": report.technique, "comparison": report.comparison}, FINDINGS_HEADERS)


# The bounds make the longest possible answer (9 lists x 8 items x 200 characters, plus four
# short fields) fit the token budget, so generation always ends inside it; a report whose
# sentences cannot be copied within them is refused before the judge is asked.
MAX_ITEM_CHARS, MAX_ITEMS = 200, 8


def _beyond_bounds(parts: ReportParts) -> list[str]:
    """Why the judge's answer could not hold the report word for word (empty when it can)."""
    long = [s.text for s in parts.statements if len(s.text) > MAX_ITEM_CHARS]
    long += [i for i in parts.impression if len(i) > MAX_ITEM_CHARS]
    problems = [f"a sentence is longer than the {MAX_ITEM_CHARS} characters a judge's item may "
                f"hold: {t[:60]!r}…" for t in long[:3]]
    if len(parts.statements) > MAX_ITEMS * len(FINDINGS_HEADERS):
        problems.append(f"{len(parts.statements)} finding sentences: more than the judge's answer "
                        f"may hold ({MAX_ITEMS} per header)")
    if len(parts.impression) > MAX_ITEMS:
        problems.append(f"{len(parts.impression)} impression items: more than the {MAX_ITEMS} the "
                        "judge's answer may hold")
    return problems


class StructureRefused(ValueError):
    """The LLM judge's structured report breaks the conservation rule: it is not shown."""

    def __init__(self, problems: list[str], model: str) -> None:
        self.problems = problems
        shown = "; ".join(problems[:6]) + (f"; and {len(problems) - 6} more" if len(problems) > 6 else "")
        super().__init__(f"the structured report written by {model} is refused: it does not keep "
                         f"the report as written ({shown})")


def judge_is_capable(options: Mapping[str, Any]) -> bool:
    """Whether the run's judge is worth asking for a rewrite: any judge the user named (a
    server, a file, a registry entry) unless the registry marks it demo-grade."""
    from radscope.engine.metrics.framework.judging import DEFAULT_JUDGE
    from radscope.models import model_registry

    registry = model_registry.load_registry()
    if options.get("judge_url"):
        entry = registry.get(str(options.get("judge_model") or ""))
        return not (entry and entry.demo_grade)
    name = str(options.get("judge") or DEFAULT_JUDGE)
    entry = registry.get(name)
    return not (entry.demo_grade if entry else False)


def choose_writer(requested: str, options: Mapping[str, Any]) -> str:
    """``rules`` or ``llm`` for a requested writer (``auto``: the LLM only when capable)."""
    if requested not in WRITERS:
        raise ValueError(f"unknown structured-report writer {requested!r}; choose from "
                         f"{', '.join(WRITERS)}")
    if requested == "auto":
        return "llm" if judge_is_capable(options) else "rules"
    return requested


def structure_report(text: str, judge: Judge) -> StructureResult:
    """Ask ``judge`` for the structured form of ``text``: JudgeError when its answer is unusable,
    StructureRefused (with the reasons) when it drops, repeats or invents a finding."""
    if not text.strip():
        raise ValueError("the report is empty")
    too_big = _beyond_bounds(report_parts(text))
    if too_big:  # the judge could not copy it whole: refused before a minute is spent asking
        raise StructureRefused(too_big, judge.model().id)
    prompt = load_prompt(PROMPT)
    answer = judge.ask(prompt, {"report": text.strip(), "headers": ", ".join(FINDINGS_HEADERS)},
                       bounded_schema(STRUCTURE_SCHEMA, max_string=MAX_ITEM_CHARS,
                                      max_items=MAX_ITEMS), max_tokens=4096)
    report = StructuredReport.from_json(answer.value)
    problems = check_conservation(text, report)
    if problems:
        raise StructureRefused(problems, judge.model().id)
    return StructureResult(report, judge.model(), prompt.key,
                           {**judge.signature_fields(), "prompt": prompt.key},
                           left_out=list(report_parts(text).left_out))


# --------------------------------------------------------------------------- command line


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``structure`` subcommand (its judge flags are added by the caller)."""
    parser = sub.add_parser("structure", help="rewrite one report in the structured format (LLM judge)")
    parser.add_argument("--input", required=True, help="text file with the report ('-' for stdin)")
    parser.add_argument("--out", help="write the result here instead of standard output")
    parser.add_argument("--json", action="store_true", help="print JSON (structure, text, model)")
    parser.add_argument("--by", choices=WRITERS, default="auto",
                        help="who writes it: the rules reader, the LLM judge, or auto (the judge "
                             "only when a capable, non-demo judge is set)")
    return parser


def run_cli(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.framework.judging import judge_for
    from radscope.engine.runtimes.judge import JudgeError

    text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text(encoding="utf-8")
    if choose_writer(args.by, options) == "rules":
        result = structure_by_rules(text)
    else:
        ctx = RuntimeContext(options=options)
        try:
            judge = judge_for(ctx)
            try:
                result = structure_report(text, judge)
            except StructureRefused as exc:
                print(f"error: the structured report written by the judge is refused: "
                      f"{len(exc.problems)} problem(s)", file=sys.stderr)
                print("\n".join(f"  - {p}" for p in exc.problems), file=sys.stderr)
                return 1
            except JudgeError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
        finally:
            ctx.close()
    output = (json.dumps(result.to_json(), indent=2, ensure_ascii=False) if args.json
              else result.report.to_text())
    if result.model and result.model.demo_grade:
        print(f"note: {result.model.id} is a demo-grade judge; do not trust this output",
              file=sys.stderr)
    if args.out:
        Path(args.out).write_text(output + "\n", encoding="utf-8")
    else:
        print(output)
    return 0
