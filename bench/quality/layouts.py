"""The layout corpus: the same reports in the layouts radiologists write, with planted errors,
and which metrics catch each error in each layout.

The reports are the project's own texts (``CASES``, chest radiographs written for this
benchmark). Each is rendered in every layout of ``LAYOUTS`` (FINDINGS / IMPRESSION; a European
INDICATION / PROTOCOL / RESULT / CONCLUSION under a title; lower-case headings without colons;
organ sub-headings with a numbered impression; RESULTS / OPINION after EXAMINATION and
HISTORY; the impression first, as COMMENT), and each candidate is the reference with one error
planted (``ERRORS``): a side swap, a missed finding, an invented one, another severity, and two
errors in the impression alone (a normal impression for an abnormal study; the impression's side
swapped). A metric *can see* an error when its card says so (``MetricCard.sees``: the error's
kind, and "impression" for the impression-only errors) and it reads the section the error is in;
it *detects* it when the pair scores worse than the identical pair.

``python -m bench layouts [--parrot Fr_sample.csv] [--out layouts.json]``: the detection
rate per metric x error x layout (rules extractors), the identical pairs' scores, and, with
``--parrot``, the same errors planted in PARROT's English translations as a check.
"""
from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair

METRICS = ("clear", "crepe", "vert", "srr", "radsem")
NORMAL_IMPRESSION = "No acute cardiopulmonary process."


@dataclass(frozen=True)
class Case:
    """One reference report: findings as (organ, sentence), the key finding (on one side, with
    a severity word), its restatement in the impression, the rest of the impression, and a
    finding the reference does not make (to invent)."""

    name: str
    findings: tuple[tuple[str, str], ...]
    key: int  # index of the key finding in ``findings``
    impression_key: str
    impression_rest: tuple[str, ...]
    invented: str
    severity: tuple[str, str]  # the key finding's severity word and another one


CASES: tuple[Case, ...] = (
    Case("effusion",
         (("Heart", "The heart size is normal."),
          ("Pleura", "There is a moderate right pleural effusion."),
          ("Lungs", "The lungs are otherwise clear."),
          ("Bones", "No acute osseous abnormality.")),
         1, "Moderate right pleural effusion.", (),
         "There is a small left apical pneumothorax.", ("moderate", "large")),
    Case("pneumothorax",
         (("Heart", "Cardiomediastinal silhouette is within normal limits."),
          ("Pleura", "There is a small left apical pneumothorax."),
          ("Lungs", "No focal consolidation."),
          ("Pleura", "No pleural effusion.")),
         1, "Small left apical pneumothorax.", (),
         "There is a moderate right pleural effusion.", ("small", "large")),
    Case("consolidation",
         (("Lungs", "There is mild consolidation in the right lower lobe."),
          ("Heart", "The heart is normal in size."),
          ("Pleura", "No pleural effusion or pneumothorax.")),
         0, "Mild right lower lobe consolidation.", ("No pleural effusion.",),
         "There is a 2 cm nodule in the left upper lobe.", ("mild", "severe")),
    Case("atelectasis",
         (("Lungs", "There is mild atelectasis at the left lung base."),
          ("Heart", "Heart size is normal."),
          ("Mediastinum", "The mediastinal contours are normal."),
          ("Pleura", "No pneumothorax.")),
         0, "Mild left basilar atelectasis.", (),
         "There is a small right pleural effusion.", ("mild", "severe")),
    Case("opacity",
         (("Lungs", "There is a moderate airspace opacity in the left upper lobe."),
          ("Heart", "The cardiac silhouette is normal."),
          ("Pleura", "No pleural effusion."),
          ("Bones", "The osseous structures are intact.")),
         0, "Moderate left upper lobe airspace opacity, likely pneumonia.", (),
         "There is mild cardiomegaly.", ("moderate", "mild")),
    Case("edema-effusion",
         (("Heart", "The heart is mildly enlarged."),
          ("Lungs", "There is mild interstitial edema."),
          ("Pleura", "There is a small left pleural effusion.")),
         2, "Small left pleural effusion.", ("Mild cardiomegaly with mild interstitial edema.",),
         "There is a right upper lobe consolidation.", ("small", "large")),
    Case("nodule",
         (("Lungs", "There is a small nodule in the right upper lobe."),
          ("Lungs", "No consolidation."),
          ("Heart", "Normal heart size."),
          ("Pleura", "No pleural effusion.")),
         0, "Small right upper lobe nodule.", (),
         "There is a small left pleural effusion.", ("small", "large")),
    Case("collapse",
         (("Lungs", "There is severe collapse of the left lower lobe."),
          ("Heart", "The heart size is normal."),
          ("Pleura", "No pneumothorax.")),
         0, "Severe left lower lobe collapse.", (),
         "There is a moderate right pleural effusion.", ("severe", "mild")),
    Case("fracture",
         (("Bones", "There is an acute displaced fracture of the right 7th rib."),
          ("Pleura", "No pneumothorax."),
          ("Lungs", "The lungs are clear."),
          ("Heart", "Normal heart size.")),
         0, "Acute displaced fracture of the right 7th rib.", (),
         "There is a small left pleural effusion.", ("displaced", "nondisplaced")),
    Case("pneumonia",
         (("Lungs", "There is mild patchy consolidation in the left lower lobe."),
          ("Pleura", "There is a small left pleural effusion."),
          ("Heart", "The heart is normal in size.")),
         0, "Mild left lower lobe pneumonia with a small left pleural effusion.", (),
         "There is a small right apical pneumothorax.", ("mild", "severe")),
)


# --- planted errors ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Report:
    """A report's content before layout: findings as (organ, sentence), impression sentences."""

    findings: tuple[tuple[str, str], ...]
    impression: tuple[str, ...]


def reference(case: Case) -> Report:
    return Report(case.findings, (case.impression_key, *case.impression_rest))


_SIDE_RE = re.compile(r"\b(left|right)\b", re.IGNORECASE)


def swap_sides(text: str) -> str:
    """Every left becomes right and the reverse (case kept)."""
    def flip(m: re.Match[str]) -> str:
        word = {"left": "right", "right": "left"}[m.group(1).lower()]
        return word.capitalize() if m.group(1)[0].isupper() else word
    return _SIDE_RE.sub(flip, text)


def _replace_word(text: str, old: str, new: str) -> str:
    return re.sub(rf"\b{re.escape(old)}\b", lambda m: new.capitalize() if m.group(0)[0].isupper()
                  else new, text, flags=re.IGNORECASE)


def _with_key(case: Case, change: Callable[[str], str | None], in_impression: bool = True) -> Report:
    """The reference with its key finding changed (None: dropped) in the findings and, when
    ``in_impression``, in the impression."""
    ref = reference(case)
    findings = []
    for i, (organ, sentence) in enumerate(ref.findings):
        new = change(sentence) if i == case.key else sentence
        if new is not None:
            findings.append((organ, new))
    impression = list(ref.impression)
    if in_impression:
        changed = change(case.impression_key)
        impression = [changed, *case.impression_rest] if changed is not None else list(case.impression_rest)
    return Report(tuple(findings), tuple(impression) or (NORMAL_IMPRESSION,))


ERRORS: dict[str, Callable[[Case], Report]] = {
    "identical": reference,
    "side": lambda c: _with_key(c, swap_sides),
    "missed": lambda c: _with_key(c, lambda s: None),
    "invented": lambda c: Report((*c.findings, ("Other", c.invented)),
                                 (c.impression_key, *c.impression_rest,
                                  c.invented.replace("There is an ", "").replace("There is a ", "")
                                  .capitalize())),
    "severity": lambda c: _with_key(c, lambda s: _replace_word(s, *c.severity)),
    "impression-normal": lambda c: Report(c.findings, (NORMAL_IMPRESSION,)),
    "impression-side": lambda c: Report(c.findings, (swap_sides(c.impression_key), *c.impression_rest)),
}
# What each planted error is, as the cards name the kinds they can see; the section it is in.
ERROR_KINDS = {"side": ("side",), "missed": ("missed",), "invented": ("invented",),
               "severity": ("severity",), "impression-normal": ("missed", "impression"),
               "impression-side": ("side", "impression")}
ERROR_SECTIONS = {"impression-normal": "impression", "impression-side": "impression"}


# --- layouts ----------------------------------------------------------------------------------

def _lines(items: Sequence[str]) -> str:
    return "\n".join(items)


def _numbered(items: Sequence[str]) -> str:
    return "\n".join(f"{i}. {s}" for i, s in enumerate(items, start=1))


def _by_organ(findings: Sequence[tuple[str, str]]) -> str:
    groups: dict[str, list[str]] = {}
    for organ, sentence in findings:
        groups.setdefault(organ, []).append(sentence)
    return "\n".join(f"{organ}: {' '.join(sentences)}" for organ, sentences in groups.items())


def _sentences(report: Report) -> str:
    return " ".join(s for _, s in report.findings)


LAYOUTS: dict[str, Callable[[Report], str]] = {
    "findings-impression": lambda r: (
        f"EXAMINATION: Chest, PA and lateral.\nINDICATION: Cough.\nFINDINGS: {_sentences(r)}\n"
        f"IMPRESSION: {' '.join(r.impression)}"),
    "result-conclusion": lambda r: (
        "CHEST RADIOGRAPH\n\nINDICATION:\nShortness of breath.\n\nPROTOCOL:\nFrontal and lateral "
        f"views.\n\nRESULT:\n{_lines([s for _, s in r.findings])}\n\nCONCLUSION:\n"
        f"{_lines(r.impression)}"),
    "lowercase-no-colon": lambda r: (
        f"clinical history\nfever\n\nfindings\n{_sentences(r)}\n\nimpression\n"
        f"{' '.join(r.impression)}"),
    "organ-subheadings": lambda r: (
        f"Technique: Two views of the chest.\n\nFindings:\n{_by_organ(r.findings)}\n\n"
        f"Impression:\n{_numbered(r.impression)}"),
    "results-opinion": lambda r: (
        f"EXAMINATION\nChest X-ray.\nHISTORY\nChest pain.\nRESULTS\n{_sentences(r)}\nOPINION\n"
        f"{' '.join(r.impression)}"),
    "comment-first": lambda r: (
        f"COMMENT: {' '.join(r.impression)}\n\nReason for examination: Follow-up.\n\n"
        f"Findings:\n{_lines([s for _, s in r.findings])}"),
}


@dataclass(frozen=True)
class LayoutPair:
    case: str
    layout: str
    error: str
    pair: ReportPair


def corpus(cases: Sequence[Case] = CASES, layouts: Sequence[str] | None = None) -> list[LayoutPair]:
    """Every case x layout x planted error (the identical pair included)."""
    out = []
    for case in cases:
        ref = reference(case)
        for layout in layouts or LAYOUTS:
            render = LAYOUTS[layout]
            for error, plant in ERRORS.items():
                pair = ReportPair(f"{case.name}/{layout}/{error}", render(ref), render(plant(case)),
                                  modality="XR", area="chest")
                out.append(LayoutPair(case.name, layout, error, pair))
    return out


# --- detection --------------------------------------------------------------------------------

def can_see(card: Any, parts: Sequence[str], error: str) -> bool:
    """Whether a metric's definition can see a planted error: the card names every kind of the
    error (``MetricCard.sees``) and the metric reads the section the error is in."""
    return set(ERROR_KINDS[error]) <= set(card.sees) and \
        ERROR_SECTIONS.get(error, "findings") in parts


def perfect(metric: Any) -> float:
    return 1.0 if metric.direction == "higher" else 0.0


def detected(metric: Any, score: float | None) -> bool:
    """The pair scores worse than an identical pair would."""
    if score is None:
        return False
    return score < 1.0 - 1e-9 if metric.direction == "higher" else score > 1e-9


def detection_table(pairs: Sequence[LayoutPair], metrics: Sequence[Any]) -> dict[str, Any]:
    """metric -> error -> layout -> {"detected", "n", "rate", "can_see"}, and every identical
    pair's score that is not perfect (``imperfect_identical``)."""
    rates: dict[str, Any] = {}
    imperfect: list[dict[str, Any]] = []
    for metric in metrics:
        table: dict[str, dict[str, dict[str, Any]]] = {}
        for item in pairs:
            result = metric.score_pair(item.pair)
            if item.error == "identical":
                if result.score is None or abs(result.score - perfect(metric)) > 1e-9:
                    imperfect.append({"metric": metric.name, "pair": item.pair.id,
                                      "score": result.score, "error": result.error})
                continue
            cell = table.setdefault(item.error, {}).setdefault(
                item.layout, {"detected": 0, "n": 0,
                              "can_see": can_see(metric.card, metric.parts, item.error)})
            count(cell, metric, result.score)
        rates[metric.name] = with_rates(table)
    return {"rates": rates, "imperfect_identical": imperfect}


def count(cell: dict[str, Any], metric: Any, score: float | None) -> None:
    """One more planted-error pair in a table cell, detected or not."""
    cell["n"] += 1
    cell["detected"] += detected(metric, score)


def with_rates(table: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each cell's detection rate, from its counts."""
    for cells in table.values():
        for cell in cells.values():
            cell["rate"] = cell["detected"] / cell["n"]
    return table


def rules_metrics(names: Sequence[str] = METRICS) -> list[Any]:
    """The five metrics with the rules extractors (offline, deterministic)."""
    from radscope.engine.context import RuntimeContext
    from radscope.engine.metrics.framework.registry import production

    ctx = RuntimeContext(options={"extractor": "rules"})
    return production().build(names, ctx)


# --- PARROT (a check on radiologists' own layouts) ---------------------------------------------

def parrot_pairs(path: str) -> list[LayoutPair]:
    """PARROT's English translations with the same kinds of error planted where the report
    allows: sides swapped in the whole report, an abnormal impression made normal, a finding
    invented."""
    import csv

    from radscope.engine.io.reports import read_layout

    out = []
    with open(path, encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle)):
            text = (row.get("English translation") or "").strip()
            if not text:
                continue
            layout = read_layout(text)
            pid = f"parrot-{number}"
            out.append(LayoutPair(pid, "parrot", "identical", ReportPair(pid, text, text)))
            if _SIDE_RE.search(layout.findings):
                out.append(LayoutPair(pid, "parrot", "side", ReportPair(pid, text, _swap_section(text, layout.findings))))
            out.append(LayoutPair(pid, "parrot", "invented", ReportPair(
                pid, text, text.replace(layout.findings, f"{layout.findings}\nA 4 cm mass is "
                                        "present in the right lobe of the liver.", 1))))
            if _states_abnormal(layout.impression):  # only an abnormal impression can be made normal
                out.append(LayoutPair(pid, "parrot", "impression-normal", ReportPair(
                    pid, text, text.replace(layout.impression, "No significant abnormality.", 1))))
    return out


def _states_abnormal(impression: str) -> bool:
    """Whether an impression states an abnormal finding, as the reader reads it: "No
    hemorrhage." or "Normal renal ultrasound." made "No significant abnormality." is no error."""
    from radscope.engine.reader.findings import read_report

    return bool(impression) and any(f.abnormal for f in read_report(impression).findings)


def _swap_section(text: str, section: str) -> str:
    return text.replace(section, swap_sides(section), 1)


# --- command ----------------------------------------------------------------------------------

def format_rates(table: dict[str, Any]) -> list[str]:
    """One line per metric x error: the rate per layout (a dash where the metric cannot see it)."""
    lines = []
    for metric, errors in table["rates"].items():
        for error, layouts in errors.items():
            cells = [f"{cell['rate']:.0%}" if cell["can_see"] else f"({cell['rate']:.0%})"
                     for cell in layouts.values()]
            lines.append(f"{metric:<7} {error:<18} " + "  ".join(f"{c:>6}" for c in cells))
    return lines


def cmd_layouts(args: argparse.Namespace) -> int:
    from bench.common import machine_info, missing

    metrics = rules_metrics()
    report: dict[str, Any] = {"benchmark": "layouts", "machine": machine_info(),
                              "layouts": list(LAYOUTS), "errors": [e for e in ERRORS if e != "identical"],
                              "cases": len(CASES),
                              "signatures": {m.name: m.signature() for m in metrics}}
    table = detection_table(corpus(), metrics)
    report["project_corpus"] = table
    print("layouts: " + ", ".join(LAYOUTS) + "  (rate in parentheses: the metric cannot see it)")
    print("\n".join(format_rates(table)))
    print(f"identical pairs not perfect: {len(table['imperfect_identical'])}")
    if args.parrot and not missing(args.parrot, "layouts --parrot"):
        parrot = detection_table(parrot_pairs(args.parrot), metrics)
        report["parrot"] = parrot
        print("PARROT (English translations, its own layouts):")
        print("\n".join(format_rates(parrot)))
        print(f"PARROT identical pairs not perfect: {len(parrot['imperfect_identical'])}")
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("layouts", help="planted errors in six report layouts: detection per "
                                       "metric x error x layout (rules extractors)")
    p.add_argument("--parrot", help="PARROT Fr_sample.csv, as a check on radiologists' layouts")
    p.add_argument("--out", help="JSON report path")
    p.set_defaults(func=cmd_layouts)
