"""Rewrite a free-text report into the structured format of spec §4 (SRRG) with the LLM judge.

Sections Exam Type, History, Technique, Comparison, Findings, Impression; Findings grouped
under eight fixed organ-system headers as bullet lists; Impression as a numbered list, most
important first; no references to prior studies and no identifiers. The judge answers JSON
(constrained to that shape); ``StructuredReport.to_text`` lays it out.

Command line: ``python -m engine structure --input report.txt [--judge ...] [--json]``.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.context import ModelInfo
from engine.prompts import load_prompt
from engine.runtimes.judge import Judge, bounded_schema

PROMPT = "structure.srrg"
FINDINGS_HEADERS: tuple[str, ...] = (
    "Lungs and Airways", "Pleura", "Cardiovascular", "Hila and Mediastinum",
    "Tubes/Catheters/Support Devices", "Musculoskeletal and Chest Wall", "Abdominal", "Other",
)
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
    """A report in the structured format; empty Findings headers are kept (as empty lists)."""

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
        lines = [f"Exam Type: {self.exam_type or 'None'}", f"History: {self.history or 'None'}",
                 f"Technique: {self.technique or 'None'}",
                 f"Comparison: {self.comparison or 'None'}", "", "Findings:"]
        for header in FINDINGS_HEADERS:
            items = self.findings.get(header, [])
            if items:
                lines.append(f"{header}:")
                lines += [f"- {item}" for item in items]
        lines += ["", "Impression:"]
        lines += [f"{i}. {item}" for i, item in enumerate(self.impression, start=1)] or ["None"]
        return "\n".join(lines)


@dataclass
class StructureResult:
    report: StructuredReport
    model: ModelInfo | None
    prompt: str
    signature: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"structured": self.report.to_json(), "text": self.report.to_text(),
                "model": self.model.id if self.model else None,
                "demo_grade": bool(self.model and self.model.demo_grade),
                "prompt": self.prompt, "signature": self.signature}


def structure_report(text: str, judge: Judge) -> StructureResult:
    """Ask ``judge`` for the structured form of ``text`` (raises JudgeError when unusable)."""
    if not text.strip():
        raise ValueError("the report is empty")
    prompt = load_prompt(PROMPT)
    # The bounds make the longest possible answer (9 lists x 8 items x 200 characters, plus
    # four short fields) fit the token budget, so generation always ends inside it.
    answer = judge.ask(prompt, {"report": text.strip(), "headers": ", ".join(FINDINGS_HEADERS)},
                       bounded_schema(STRUCTURE_SCHEMA, max_string=200, max_items=8),
                       max_tokens=4096)
    return StructureResult(StructuredReport.from_json(answer.value), judge.model(), prompt.key,
                           {**judge.signature_fields(), "prompt": prompt.key})


# --------------------------------------------------------------------------- command line


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """The ``structure`` subcommand (its judge flags are added by the caller)."""
    parser = sub.add_parser("structure", help="rewrite one report in the structured format (LLM judge)")
    parser.add_argument("--input", required=True, help="text file with the report ('-' for stdin)")
    parser.add_argument("--out", help="write the result here instead of standard output")
    parser.add_argument("--json", action="store_true", help="print JSON (structure, text, model)")
    return parser


def run_cli(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from engine.context import RuntimeContext
    from engine.runtimes.judge import JudgeError
    from engine.metrics.judging import judge_for

    text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text(encoding="utf-8")
    ctx = RuntimeContext(options=options)
    try:
        judge = judge_for(ctx)
        try:
            result = structure_report(text, judge)
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
