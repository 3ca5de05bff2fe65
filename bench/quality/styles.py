"""The style corpus: the same reports in the styles radiologists write, with planted errors of
every attribute a finding has, and which metrics catch each error in each style.

The reports are the project's own texts (``CASES``, chest studies written for this benchmark).
Each reference is written in every style of ``STYLES`` (plain FINDINGS / IMPRESSION; an organ
template LUNGS: / PLEURA: / HEART AND MEDIASTINUM: / BONES:; numbered; bulleted; ALL CAPS; ALL-CAPS
dictation shorthand under organ labels ("LUNGS: NEW SMALL 8 MM NODULE ..."); British
spelling with the usual abbreviations; prose that opens with a comparison; CT style with series /
image references and sizes in cm), and each candidate is the reference with one error planted
in its key finding (``ERRORS``): side, missed, invented, severity, negation, size, change over
time, certainty. Two controls: ``identical`` (must score perfect) and ``other-style`` (the same
content written in another style: must score as the identical pair does).

A metric *can see* an error when its card names the error's kind (``MetricCard.sees``); it
*detects* it when the pair scores worse than the identical pair.

``python -m bench styles [--out styles.json]``: the detection rate per metric x
error x style (rules extractors) and the controls.
"""
from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bench.quality.layouts import (
    METRICS,
    count,
    perfect,
    rules_metrics,
    swap_sides,
    with_rates,
)
from radscope.engine.io.reports import ReportPair


@dataclass(frozen=True)
class Case:
    """One reference: findings as (organ, sentence); ``key`` indexes the key finding, which
    holds a side, a severity word, a size and a change word (each swapped by one error);
    ``negated`` is the key finding denied, ``invented`` a finding the reference does not make."""

    name: str
    findings: tuple[tuple[str, str], ...]
    key: int
    impression: tuple[str, ...]  # the first item restates the key finding
    severity: tuple[str, str]
    size: tuple[str, str]  # as written, and a size past the tolerance
    change: tuple[str, str]
    negated: str
    negated_impression: str
    invented: str


CASES: tuple[Case, ...] = (
    Case("nodule",
         (("Lungs", "There is a new small 8 mm nodule in the right upper lobe."),
          ("Lungs", "No consolidation."),
          ("Pleura", "No pleural effusion or pneumothorax."),
          ("Heart", "The heart size is normal."),
          ("Bones", "No acute osseous abnormality.")),
         0, ("New small 8 mm right upper lobe nodule.",),
         ("small", "large"), ("8 mm", "18 mm"), ("new", "unchanged"),
         "There is no nodule in the right upper lobe.", "No lung nodule.",
         "There is a small left pleural effusion."),
    Case("effusion",
         (("Pleura", "There is a moderate right pleural effusion, increased since the prior study."),
          ("Lungs", "The lungs are otherwise clear."),
          ("Heart", "The cardiomediastinal silhouette is normal."),
          ("Bones", "The osseous structures are intact.")),
         0, ("Moderate right pleural effusion, increased.",),
         ("moderate", "small"), ("", ""), ("increased", "decreased"),
         "There is no right pleural effusion.", "No pleural effusion.",
         "There is a small left apical pneumothorax."),
    Case("mass",
         (("Lungs", "There is a mild spiculated mass in the left upper lobe measuring 41 x 32 mm, "
                    "which has increased in size."),
          ("Mediastinum", "No mediastinal lymphadenopathy."),
          ("Pleura", "No pleural effusion."),
          ("Heart", "Heart size is normal.")),
         0, ("Spiculated left upper lobe mass measuring 41 x 32 mm, which has increased in size.",),
         ("mild", "severe"), ("41 x 32 mm", "61 x 52 mm"), ("has increased", "has decreased"),
         "There is no mass in the left upper lobe.", "No lung mass.",
         "There is a right lower lobe consolidation."),
    Case("pneumothorax",
         (("Pleura", "There is a new small left apical pneumothorax measuring 12 mm."),
          ("Lungs", "No focal consolidation."),
          ("Pleura", "No pleural effusion."),
          ("Heart", "The heart is normal in size.")),
         0, ("New small left apical pneumothorax.",),
         ("small", "large"), ("12 mm", "30 mm"), ("new", "unchanged"),
         "There is no left pneumothorax.", "No pneumothorax.",
         "There is a moderate right pleural effusion."),
    Case("consolidation",
         (("Lungs", "There is mild consolidation in the right lower lobe, unchanged."),
          ("Heart", "The heart is normal in size."),
          ("Pleura", "No pleural effusion or pneumothorax.")),
         0, ("Mild right lower lobe consolidation, unchanged.",),
         ("mild", "severe"), ("", ""), ("unchanged", "new"),
         "There is no consolidation in the right lower lobe.", "No consolidation.",
         "There is a 2 cm nodule in the left upper lobe."),
    Case("atelectasis",
         (("Lungs", "There is mild atelectasis at the left lung base, decreased since the prior study."),
          ("Heart", "Heart size is normal."),
          ("Mediastinum", "The mediastinal contours are normal."),
          ("Pleura", "No pneumothorax.")),
         0, ("Mild left basilar atelectasis, decreased.",),
         ("mild", "severe"), ("", ""), ("decreased", "increased"),
         "There is no atelectasis at the left lung base.", "No atelectasis.",
         "There is a small right pleural effusion."),
    Case("edema-effusion",
         (("Heart", "The heart is mildly enlarged."),
          ("Lungs", "There is mild interstitial edema."),
          ("Pleura", "There is a small left pleural effusion, worsened since the prior study.")),
         2, ("Small left pleural effusion, worsened.", "Mild interstitial edema."),
         ("small", "large"), ("", ""), ("worsened", "improved"),
         "There is no left pleural effusion.", "No pleural effusion.",
         "There is a right upper lobe consolidation."),
    Case("hemorrhage",
         (("Lungs", "There is a new moderate hemorrhage in the right middle lobe measuring 25 mm."),
          ("Pleura", "No pleural effusion."),
          ("Heart", "Normal heart size."),
          ("Bones", "No rib fracture.")),
         0, ("New moderate right middle lobe hemorrhage.",),
         ("moderate", "mild"), ("25 mm", "45 mm"), ("new", "unchanged"),
         "There is no hemorrhage in the right middle lobe.", "No hemorrhage.",
         "There is a small left pleural effusion."),
    Case("opacity",
         (("Lungs", "There is a moderate airspace opacity in the left lower lobe, improved since the "
                    "prior study."),
          ("Heart", "The cardiac silhouette is normal."),
          ("Pleura", "No pleural effusion."),
          ("Bones", "The osseous structures are intact.")),
         0, ("Moderate left lower lobe airspace opacity, improved.",),
         ("moderate", "severe"), ("", ""), ("improved", "worsened"),
         "There is no airspace opacity in the left lower lobe.", "No airspace opacity.",
         "There is mild cardiomegaly."),
    Case("lesion",
         (("Lungs", "There is a small 15 mm cavitary lesion in the right upper lobe, unchanged."),
          ("Pleura", "No pneumothorax."),
          ("Lungs", "The lungs are otherwise clear."),
          ("Heart", "Normal heart size.")),
         0, ("Small 15 mm right upper lobe cavitary lesion, unchanged.",),
         ("small", "large"), ("15 mm", "35 mm"), ("unchanged", "new"),
         "There is no cavitary lesion in the right upper lobe.", "No cavitary lesion.",
         "There is a moderate left pleural effusion."),
)


@dataclass(frozen=True)
class Report:
    findings: tuple[tuple[str, str], ...]
    impression: tuple[str, ...]


def reference(case: Case) -> Report:
    return Report(case.findings, case.impression)


def _replace(text: str, old: str, new: str) -> str:
    return re.sub(rf"\b{re.escape(old)}\b", lambda m: new.capitalize() if m.group(0)[0].isupper()
                  else new, text, count=1, flags=re.IGNORECASE)


def _hedged(sentence: str) -> str:
    """The key finding stated as possible ("There is a ..." -> "There is possibly a ...")."""
    if re.match(r"there is (?:a|an)\b", sentence, re.IGNORECASE):
        return re.sub(r"^there is (a|an)\b", r"There is possibly \1", sentence, flags=re.IGNORECASE)
    return f"Possible {sentence[:1].lower()}{sentence[1:]}"


def _with_key(case: Case, change: Callable[[str], str], impression: Callable[[str], str]) -> Report:
    findings = tuple((organ, change(s) if i == case.key else s)
                     for i, (organ, s) in enumerate(case.findings))
    return Report(findings, (impression(case.impression[0]), *case.impression[1:]))


def _missed(case: Case) -> Report:
    findings = tuple(f for i, f in enumerate(case.findings) if i != case.key)
    return Report(findings, case.impression[1:] or ("No other acute abnormality.",))


def _invented(case: Case) -> Report:
    restated = re.sub(r"^There is (?:a|an) ", "", case.invented).capitalize()
    return Report((*case.findings, ("Other", case.invented)), (*case.impression, restated))


def _negated(case: Case) -> Report:
    findings = tuple((organ, case.negated if i == case.key else s)
                     for i, (organ, s) in enumerate(case.findings))
    return Report(findings, (case.negated_impression, *case.impression[1:]))


def _swap(pair: tuple[str, str]) -> Callable[[str], str]:
    return lambda s: _replace(s, *pair)


ERRORS: dict[str, Callable[[Case], Report | None]] = {
    "identical": reference,
    "side": lambda c: _with_key(c, swap_sides, swap_sides),
    "missed": _missed,
    "invented": _invented,
    "severity": lambda c: _with_key(c, _swap(c.severity), _swap(c.severity)),
    "negation": _negated,
    "size": lambda c: _with_key(c, _swap(c.size), _swap(c.size)) if c.size[0] else None,
    "change": lambda c: _with_key(c, _swap(c.change), _swap(c.change)),
    "certainty": lambda c: _with_key(c, _hedged, _hedged),
}
# The kind (``reader.kinds.ERROR_KINDS``) a metric's card must name to see each planted error: a
# negated finding is one the candidate denies, which is a missed finding.
ERROR_KINDS = {"side": "side", "missed": "missed", "invented": "invented", "severity": "severity",
               "negation": "missed", "size": "size", "change": "change", "certainty": "certainty"}


# --- styles -----------------------------------------------------------------------------------

_ORGAN_HEADINGS = {"Lungs": "LUNGS", "Pleura": "PLEURA", "Heart": "HEART AND MEDIASTINUM",
                   "Mediastinum": "HEART AND MEDIASTINUM", "Bones": "BONES", "Other": "OTHER"}
# British spellings and the abbreviations radiologists write (American -> British / short).
_BRITISH = (("edema", "oedema"), ("hemorrhage", "haemorrhage"), ("pneumothorax", "PTX"),
            ("right upper lobe", "RUL"), ("right middle lobe", "RML"), ("right lower lobe", "RLL"),
            ("left upper lobe", "LUL"), ("left lower lobe", "LLL"), ("localized", "localised"))
_SIZE_RE = re.compile(r"\b(\d+)(?: x (\d+))? mm\b")
PRIOR = "Compared with the prior study of May 19, 2021"


def _plain(r: Report) -> str:
    return (f"FINDINGS:\n{' '.join(s for _, s in r.findings)}\n\n"
            f"IMPRESSION:\n{' '.join(r.impression)}")


def _organs(r: Report) -> str:
    groups: dict[str, list[str]] = {}
    for organ, sentence in r.findings:
        groups.setdefault(_ORGAN_HEADINGS[organ], []).append(sentence)
    body = "\n".join(f"{heading}: {' '.join(s)}" for heading, s in groups.items())
    return f"FINDINGS:\n{body}\n\nIMPRESSION:\n{' '.join(r.impression)}"


def _numbered(r: Report) -> str:
    def items(xs: Sequence[str]) -> str:
        return "\n".join(f"{i}. {x}" for i, x in enumerate(xs, start=1))
    return f"Findings:\n{items([s for _, s in r.findings])}\n\nImpression:\n{items(r.impression)}"


def _bulleted(r: Report) -> str:
    def items(xs: Sequence[str]) -> str:
        return "\n".join(f"- {x}" for x in xs)
    return f"Findings:\n{items([s for _, s in r.findings])}\n\nImpression:\n{items(r.impression)}"


_THERE_IS_RE = re.compile(r"^There (?:is|are) (?:an? )?", re.IGNORECASE)
_IS_SEEN_RE = re.compile(r" (?:is|are) (?:seen|noted|present|identified)(?=\.$)", re.IGNORECASE)


def _telegraphic(r: Report) -> str:
    """Dictation shorthand in capitals: organ labels, no "there is", no "is seen"."""
    def short(sentence: str) -> str:
        text = _IS_SEEN_RE.sub("", _THERE_IS_RE.sub("", sentence))
        return text[:1].upper() + text[1:]
    groups: dict[str, list[str]] = {}
    for organ, sentence in r.findings:
        groups.setdefault(_ORGAN_HEADINGS[organ], []).append(short(sentence))
    body = "\n".join(f"{heading}: {' '.join(s)}" for heading, s in groups.items())
    return f"FINDINGS:\n{body}\n\nIMPRESSION:\n{' '.join(short(s) for s in r.impression)}".upper()


def _british(text: str) -> str:
    for american, british in _BRITISH:
        def written(m: re.Match[str], b: str = british) -> str:
            return b if b.isupper() or not m.group(0)[0].isupper() else b.capitalize()
        text = re.sub(rf"\b{american}\b", written, text, flags=re.IGNORECASE)
    return text


def _prior_prose(r: Report) -> str:
    first, *rest = [s for _, s in r.findings]
    opening = f"{PRIOR}, {first[:1].lower()}{first[1:]}"
    return f"FINDINGS:\n{' '.join([opening, *rest])}\n\nIMPRESSION:\n{' '.join(r.impression)}"


def _centimetres(text: str) -> str:
    def cm(m: re.Match[str]) -> str:
        dims = [f"{int(d) / 10:g}" for d in m.groups() if d]
        return f"{' x '.join(dims)} cm (series 3, image 42)"
    return _SIZE_RE.sub(cm, text)


def _ct(r: Report) -> str:
    return (f"CT CHEST WITH CONTRAST\n\nTECHNIQUE: Axial images after intravenous contrast.\n\n"
            f"{_centimetres(_plain(r))}")


STYLES: dict[str, Callable[[Report], str]] = {
    "plain": _plain,
    "organ-template": _organs,
    "numbered": _numbered,
    "bulleted": _bulleted,
    "all-caps": lambda r: _plain(r).upper(),
    "telegraphic-caps": _telegraphic,
    "british-abbreviations": lambda r: _british(_plain(r)).replace("IMPRESSION:", "CONCLUSION:"),
    "comparison-prose": _prior_prose,
    "ct-cm": _ct,
}
# The style the ``other-style`` control writes a candidate in (the same content as its reference).
OTHER_STYLE = {name: ("organ-template" if name == "plain" else "plain") for name in STYLES}


@dataclass(frozen=True)
class StylePair:
    case: str
    style: str
    error: str
    pair: ReportPair


def corpus(cases: Sequence[Case] = CASES) -> list[StylePair]:
    """Every case x style x planted error, with the two controls."""
    out = []
    for case in cases:
        ref = reference(case)
        for style, render in STYLES.items():
            for error, plant in ERRORS.items():
                planted = plant(case)
                if planted is None:  # the case states no size to change
                    continue
                pair = ReportPair(f"{case.name}/{style}/{error}", render(ref), render(planted))
                out.append(StylePair(case.name, style, error, pair))
            other = STYLES[OTHER_STYLE[style]](ref)
            out.append(StylePair(case.name, style, "other-style",
                                 replace(ReportPair(f"{case.name}/{style}/other-style", render(ref),
                                                    other))))
    return out


def can_see(card: Any, error: str) -> bool:
    return ERROR_KINDS[error] in card.sees


def detection_table(pairs: Sequence[StylePair], metrics: Sequence[Any]) -> dict[str, Any]:
    """metric -> error -> style -> {"detected", "n", "rate", "can_see"}; the controls: every
    identical pair that is not perfect and every other-style pair that scores otherwise."""
    rates: dict[str, Any] = {}
    imperfect: list[dict[str, Any]] = []
    moved: list[dict[str, Any]] = []
    for metric in metrics:
        table: dict[str, dict[str, dict[str, Any]]] = {}
        for item in pairs:
            result = metric.score_pair(item.pair)
            if item.error in ("identical", "other-style"):
                if result.score is None or abs(result.score - perfect(metric)) > 1e-9:
                    (imperfect if item.error == "identical" else moved).append(
                        {"metric": metric.name, "pair": item.pair.id, "score": result.score,
                         "error": result.error})
                continue
            cell = table.setdefault(item.error, {}).setdefault(
                item.style, {"detected": 0, "n": 0, "can_see": can_see(metric.card, item.error)})
            count(cell, metric, result.score)
        rates[metric.name] = with_rates(table)
    n_controls = sum(item.error == "other-style" for item in pairs) * len(metrics)
    return {"rates": rates, "imperfect_identical": imperfect, "other_style_moved": moved,
            "other_style_pairs": n_controls}


def markdown(table: dict[str, Any]) -> str:
    """The detection table in docs/reading.md's form (a rate in parentheses: not seen by design)."""
    styles = list(STYLES)
    lines = ["| metric | error | " + " | ".join(styles) + " |", "|---|---|" + "---|" * len(styles)]
    for metric, errors in table["rates"].items():
        for error, cells in errors.items():
            row = []
            for style in styles:
                cell = cells.get(style)
                if cell is None:
                    row.append("-")
                    continue
                rate = f"{cell['rate']:.0%}"
                row.append(rate if cell["can_see"] else f"({rate})")
            lines.append(f"| {metric} | {error} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def cmd_styles(args: argparse.Namespace) -> int:
    table = detection_table(corpus(), rules_metrics(METRICS))
    print(markdown(table))
    moved = len(table["other_style_moved"])
    print(f"identical pairs not perfect: {len(table['imperfect_identical'])}; other-style pairs "
          f"that moved a metric: {moved} of {table['other_style_pairs']}")
    for item in table["imperfect_identical"] + table["other_style_moved"]:
        print(f"  {item}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(table, handle, indent=1)
    return 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("styles", help="the style corpus: planted errors x report styles, per metric")
    p.add_argument("--out", help="write the JSON table here")
    p.set_defaults(func=cmd_styles)
