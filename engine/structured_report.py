"""Rewrite a free-text report into the structured format of spec §4 (SRRG).

Sections Exam Type, History, Technique, Comparison, Findings, Impression; Findings grouped
under eight fixed organ-system headers as bullet lists; Impression as a numbered list, most
important first; no references to prior studies and no identifiers.

Two writers, and every result names its own:

- ``structure_by_rules`` (the default when no capable judge is set): the clinical reader's
  atomic findings, each placed under its organ system from the sites and devices the reader
  found (a site's parent chain in the RadSEM lexicon), with the report's own sections for
  history and technique and the report's impression (or, without one, its abnormal findings,
  definite before hedged). Deterministic, offline, milliseconds; it rewrites nothing the
  reader did not read, so wording stays the report's.
- ``structure_report``: the LLM judge answers JSON constrained to the same shape.

Command line: ``python -m radscope.engine structure --input report.txt [--by rules|llm] [--judge ...]``.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from radscope.engine.context import ModelInfo
from radscope.engine.io.reports import split_sections, split_utterances
from radscope.engine.runtimes.judge import Judge, bounded_schema
from radscope.engine.runtimes.prompts import load_prompt

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


RULES_WRITER = "rules rewrite (clinical reader, no LLM)"
WRITERS = ("auto", "rules", "llm")


@dataclass
class StructureResult:
    """A structured report and who wrote it: the LLM judge (``model``) or the rules reader."""

    report: StructuredReport
    model: ModelInfo | None
    prompt: str
    signature: dict[str, Any]
    writer: str = "llm"  # "llm" or "rules"

    def to_json(self) -> dict[str, Any]:
        return {"structured": self.report.to_json(), "text": self.report.to_text(),
                "writer": self.writer,
                "model": self.model.id if self.model else RULES_WRITER,
                "demo_grade": bool(self.model and self.model.demo_grade),
                "prompt": self.prompt, "signature": self.signature}


# --------------------------------------------------------------------------- rules rewrite

# Lexicon sites (engine/data/lexicons/radsem.json) -> Findings header. A site not listed takes
# its nearest listed ancestor's header ("upper lobe" -> "lung"); the first match wins, so the
# hilum (a child of the lung) is listed before the lung.
_SITE_HEADERS: tuple[tuple[str, str], ...] = (
    ("hilum", "Hila and Mediastinum"), ("mediastinum", "Hila and Mediastinum"),
    ("cardiomediastinum", "Hila and Mediastinum"), ("lymph node", "Hila and Mediastinum"),
    ("esophagus", "Hila and Mediastinum"), ("pleura", "Pleura"),
    ("lung", "Lungs and Airways"), ("trachea", "Lungs and Airways"),
    ("heart", "Cardiovascular"), ("vessel", "Cardiovascular"),
    ("chest wall", "Musculoskeletal and Chest Wall"), ("bone", "Musculoskeletal and Chest Wall"),
    ("spine", "Musculoskeletal and Chest Wall"), ("joint", "Musculoskeletal and Chest Wall"),
    ("soft tissue", "Musculoskeletal and Chest Wall"),
    ("abdomen", "Abdominal"), ("pelvis", "Abdominal"),
    ("head", "Other"), ("neck", "Other"),  # brain, sinuses, thyroid: outside the chest headers
)
# The heart's silhouette: "the cardiomediastinal silhouette is normal" is read as heart size.
_SITE_OVERRIDES = {"cardiomediastinum": "Cardiovascular"}


def site_header(site: str) -> str | None:
    """The Findings header of a lexicon site (its own or its nearest ancestor's; None when
    neither has one)."""
    from radscope.engine.reader.anatomy_lexicon import anatomy_lexicon

    if site in _SITE_OVERRIDES:
        return _SITE_OVERRIDES[site]
    headers = dict(_SITE_HEADERS)
    parent = anatomy_lexicon().site_parent
    seen: set[str] = set()
    node: str | None = site
    while node and node not in seen:
        if node in headers:
            return headers[node]
        seen.add(node)
        node = parent.get(node)
    return None


# A finding that names no site at all ("No pneumothorax.") goes where its finding word belongs
# (one with a site outside these headers, "cerebral edema", stays under Other).
_TERM_HEADERS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), header) for pattern, header in (
        (r"pneumothora|effusion|pleura|empyema", "Pleura"),
        (r"cardiomegaly|\bheart\b|cardiac|pericardi|aort", "Cardiovascular"),
        (r"mediastin|\bhil(?:um|ar|a)\b|lymphadenopathy", "Hila and Mediastinum"),
        (r"atelecta|consolidat|opacit|nodul|pneumon|edema|emphysema|airspace|bronch|infiltrat",
         "Lungs and Airways"),
        (r"fractur|osseous|\bbones?\b|degenerative|scoliosis|kyphosis", "Musculoskeletal and Chest Wall"),
    ))


def finding_header(sites: Iterable[str], device: bool, text: str = "") -> str:
    """Where a finding goes: devices under their own header, otherwise the most specific
    header among its sites (a sentence naming the lung and the pleura goes under Pleura), and
    for a finding without a known site, the header of its finding word (else Other)."""
    if device:
        return "Tubes/Catheters/Support Devices"
    sites = list(sites)
    if not sites:
        return next((h for pattern, h in _TERM_HEADERS if pattern.search(text)), "Other")
    headers = [site_header(s) for s in sites]
    # head and neck anatomy wins: "small vessel disease of the brain" is not Cardiovascular
    named = [h for h in headers if h is not None]
    if not named or "Other" in named:
        return "Other"
    order = ("Pleura", "Hila and Mediastinum", "Cardiovascular", "Lungs and Airways",
             "Musculoskeletal and Chest Wall", "Abdominal")
    return min(named, key=order.index)


def _first(sections: Mapping[str, str], *names: str) -> str:
    text = " ".join(sections[n].strip() for n in names if sections.get(n, "").strip())
    return " ".join(text.split())


def structure_by_rules(text: str, exam: str = "") -> StructureResult:
    """The structured report from the clinical reader (see module docstring); ``exam`` is the
    pair's modality and area when known."""
    from radscope.engine.reader.findings import read_report

    if not text.strip():
        raise ValueError("the report is empty")
    sections = split_sections(text)
    reading = read_report(text)
    findings: dict[str, list[str]] = {h: [] for h in FINDINGS_HEADERS}
    for finding in reading.findings:
        items = findings[finding_header(finding.sites, finding.device, finding.text)]
        if finding.text not in items:
            items.append(finding.text)
    impression = split_utterances(sections.get("impression", ""))
    if not impression:  # the abnormal findings, definite before hedged
        abnormal = [f for f in reading.findings if not f.normal]
        impression = ([f.text for f in abnormal if f.polarity == "present"]
                      + [f.text for f in abnormal if f.polarity == "uncertain"])
    report = StructuredReport(
        exam_type=exam.strip(), history=_first(sections, "indication", "history"),
        technique=_first(sections, "technique"), comparison="",
        findings=findings, impression=impression)
    return StructureResult(report, None, "rules", {"writer": "rules", "reader": "clinical"},
                           writer="rules")


def judge_is_capable(options: Mapping[str, Any]) -> bool:
    """Whether the run's judge is worth asking for a rewrite: any judge the user named (a
    server, a file, a registry entry) unless the registry marks it demo-grade."""
    from radscope.engine.metrics.judging import DEFAULT_JUDGE
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
    parser.add_argument("--by", choices=WRITERS, default="auto",
                        help="who writes it: the rules reader, the LLM judge, or auto (the judge "
                             "only when a capable, non-demo judge is set)")
    return parser


def run_cli(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.judging import judge_for
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
