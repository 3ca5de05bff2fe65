"""The paraphrase corpus: reports beyond the chest radiograph (CT, MRI, ultrasound, radiographs of
bones and joints), each rewritten faithfully in several ways and with one error planted at a time,
and how every rules metric scores them.

The reports are the project's own (``paraphrase_reports.SOURCES``). Each reference is paired with
itself (``identical``: must be perfect), with each faithful rewrite (``FAITHFUL_KINDS``: the same
findings in other words, as bullets, one line per site or sequence, in another order: should
score as the identical pair does) and with itself carrying one planted error (``ERRORS``). A
metric *can see* an error when its card names the error's kind (``MetricCard.sees``); it
*detects* it when the pair scores worse than the identical pair. Pairs carry no modality field (as
in the style corpus), so a chest-radiograph metric decides from the text; a pair it answers "not
applicable" is counted apart, never as a miss or a score.

Twelve of the reports also carry two of SSREE's error levels written by hand
(``paraphrase_levels``): every abnormal finding said to be normal, and every sentence's polarity
turned. Against the reference's Findings, a metric should rank the faithful "synonyms" rewrite
above the first and the first above the second (``level_orders``).

``python -m bench paraphrases [--out paraphrases.json]``: the mean score of the
faithful rewrites per metric x kind x modality, the detection rate per metric x error x modality
(rules extractors), the identical pairs that are not perfect and the level orders.
"""
from __future__ import annotations

import argparse
import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench.corpora.paraphrase_levels import LEVELS
from bench.corpora.paraphrase_reports import END, FAITHFUL_KINDS, MODALITIES, SOURCES, Edits, Source
from bench.quality.layouts import METRICS, count, perfect, rules_metrics, with_rates
from bench.quality.styles import ERROR_KINDS as STYLE_ERROR_KINDS
from radscope.engine.eligibility.applicability import ANY
from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair, section_view

ERRORS = ("side", "site", "missed", "invented", "severity", "size", "change", "certainty", "negation")
# The kind (``reader.kinds.ERROR_KINDS``) a card must name to see each planted error: the style
# corpus's, and a finding moved to another site or level.
ERROR_KINDS = {**STYLE_ERROR_KINDS, "site": "site"}
ALL = "all"


def plant(text: str, edits: Edits) -> str:
    """The text with every edit made at once (``END`` appends); a ValueError names an edit whose
    text the report does not hold, so that no planted error silently leaves the report as it was."""
    mapping = {old: new for old, new in edits if old != END}
    absent = [old for old in mapping if old not in text]
    if absent:
        raise ValueError(f"edit text not in the report: {absent[0]!r}")
    if mapping:
        pattern = "|".join(re.escape(old) for old in sorted(mapping, key=len, reverse=True))
        text = re.sub(pattern, lambda m: mapping[m.group(0)], text)
    return text + "".join(new for old, new in edits if old == END)


@dataclass(frozen=True)
class ParaphrasePair:
    source: str
    modality: str
    kind: str  # "identical", a faithful kind or an error kind
    pair: ReportPair


def corpus(sources: Sequence[Source] = SOURCES) -> list[ParaphrasePair]:
    """Every report against itself, each of its faithful rewrites and each planted error."""
    out = []
    for source in sources:
        candidates = {"identical": source.reference, **source.rewrites,
                      **{kind: plant(source.reference, edits) for kind, edits in source.errors.items()}}
        for kind, text in candidates.items():
            out.append(ParaphrasePair(source.name, source.modality, kind,
                                      ReportPair(f"{source.name}/{kind}", source.reference, text)))
    return out


def can_see(card: Any, error: str) -> bool:
    return ERROR_KINDS[error] in card.sees


def score_table(pairs: Sequence[ParaphrasePair], metrics: Sequence[Any]) -> dict[str, Any]:
    """The faithful rewrites' scores (metric -> kind -> modality -> {"mean", "n", "unscored"}, with
    "all" over modalities), the detection rates (metric -> error -> modality -> {"detected", "n",
    "rate", "can_see"}), every identical pair that is not perfect, each faithful pair's score, and
    how many pairs of each kind a metric called "not applicable" (left out of the means and rates)."""
    faithful: dict[str, Any] = {}
    rates: dict[str, Any] = {}
    imperfect: list[dict[str, Any]] = []
    not_applicable: dict[str, dict[str, int]] = {}
    outside: dict[str, dict[str, int]] = {}
    per_pair: dict[str, dict[str, float | None]] = {}
    for metric in metrics:
        scores: dict[str, dict[str, list[float | None]]] = {}
        table: dict[str, dict[str, dict[str, Any]]] = {}
        for item in pairs:
            result = metric.score_pair(item.pair)
            if result.score is None and (result.error or "").startswith("not applicable"):
                # The metric's own answer outside its studies: neither a score nor a miss.
                skipped = not_applicable.setdefault(metric.name, {})
                skipped[item.kind] = skipped.get(item.kind, 0) + 1
                continue
            if item.kind == "identical":
                if result.score is None or abs(result.score - perfect(metric)) > 1e-9:
                    imperfect.append({"metric": metric.name, "pair": item.pair.id,
                                      "score": result.score, "error": result.error})
            elif item.kind in FAITHFUL_KINDS:
                for column in (item.modality, ALL):
                    scores.setdefault(item.kind, {}).setdefault(column, []).append(result.score)
                per_pair.setdefault(item.pair.id, {})[metric.name] = result.score
            elif _outside_read_sections(metric, item.pair):
                # The error is only in a section the metric does not read (RadSEM reads the
                # findings alone): invisible by definition, neither a miss nor a detection.
                unread = outside.setdefault(metric.name, {})
                unread[item.kind] = unread.get(item.kind, 0) + 1
            else:
                for column in (item.modality, ALL):
                    cell = table.setdefault(item.kind, {}).setdefault(
                        column, {"detected": 0, "n": 0, "can_see": can_see(metric.card, item.kind)})
                    count(cell, metric, result.score)
        faithful[metric.name] = {kind: {column: _mean(values) for column, values in columns.items()}
                                 for kind, columns in scores.items()}
        rates[metric.name] = with_rates(table)
    return {"faithful": faithful, "rates": rates, "imperfect_identical": imperfect,
            "not_applicable": not_applicable, "outside_read_sections": outside, "faithful_pairs": per_pair,
            "directions": {m.name: m.direction for m in metrics}}


LEVEL_NAMES = ("synonyms", "all normal", "turned")


def level_orders(metrics: Sequence[Any], sources: Sequence[Source] = SOURCES) -> dict[str, Any]:
    """Per metric, the reports whose Findings it scores in the order of ``LEVEL_NAMES`` (strictly,
    in the metric's direction), and every score of the others: how far the metric's number falls
    as a report loses its abnormal findings, then every statement."""
    by_name = {source.name: source for source in sources}
    out: dict[str, Any] = {}
    for metric in metrics:
        disordered = {}
        for name, (all_normal, turned) in LEVELS.items():
            source = by_name[name]
            reference = section_view(source.reference, ("findings",))
            texts = (section_view(source.rewrites["synonyms"], ("findings",)), all_normal, turned)
            scores = [metric.score_pair(ReportPair(f"{name}/{level}", reference, text)).score
                      for level, text in zip(LEVEL_NAMES, texts, strict=True)]
            if not _in_order(scores, metric.direction):
                disordered[name] = scores
        out[metric.name] = {"ordered": len(LEVELS) - len(disordered), "n": len(LEVELS),
                            "disordered": disordered}
    return out


def _in_order(scores: Sequence[float | None], direction: str) -> bool:
    values = [s if direction == "higher" else -s for s in scores if s is not None]
    return len(values) == len(scores) and all(a > b for a, b in itertools.pairwise(values))


def _outside_read_sections(metric: Any, pair: ReportPair) -> bool:
    """The two reports read the same in every section the metric reads."""
    parts = tuple(metric.parts)
    return section_view(pair.reference, parts) == section_view(pair.candidate, parts)


def _mean(values: Sequence[float | None]) -> dict[str, Any]:
    scored = [v for v in values if v is not None]
    return {"mean": round(statistics.fmean(scored), 4) if scored else None, "n": len(scored),
            "unscored": len(values) - len(scored)}


def faithful_by_modality(table: dict[str, Any], metric: str) -> dict[str, float | None]:
    """One metric's mean over every faithful rewrite of each modality (and of all)."""
    pairs = table["faithful"][metric]
    out = {}
    for column in (*MODALITIES, ALL):
        cells = [cells[column] for cells in pairs.values() if column in cells]
        n = sum(c["n"] for c in cells)
        out[column] = round(sum(c["mean"] * c["n"] for c in cells if c["n"]) / n, 4) if n else None
    return out


def markdown(table: dict[str, Any]) -> str:
    """Two tables: the faithful rewrites' mean scores, then the detection rates (a rate in
    parentheses: the card says the metric cannot see that error)."""
    columns = (*MODALITIES, ALL)
    head = " | ".join(columns)
    lines = [f"| metric (better) | rewrite | {head} |", "|---|---|" + "---|" * len(columns)]
    for metric, kinds in table["faithful"].items():
        better = table["directions"][metric]
        for kind, cells in kinds.items():
            row = [_number(cells.get(c, {}).get("mean")) for c in columns]
            lines.append(f"| {metric} ({better}) | {kind} | " + " | ".join(row) + " |")
        overall = faithful_by_modality(table, metric)
        lines.append(f"| {metric} ({better}) | **every rewrite** | "
                     + " | ".join(_number(overall[c]) for c in columns) + " |")
    lines += ["", f"| metric | error | {head} |", "|---|---|" + "---|" * len(columns)]
    for metric, errors in table["rates"].items():
        for error in ERRORS:
            cells = errors.get(error, {})
            row = []
            for column in columns:
                cell = cells.get(column)
                if cell is None:
                    row.append("n/a")  # every such pair was "not applicable" to the metric
                    continue
                rate = f"{cell['rate']:.0%}"
                row.append(rate if cell["can_see"] else f"({rate})")
            lines.append(f"| {metric} | {error} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def _number(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def cmd_paraphrases(args: argparse.Namespace) -> int:
    from bench.common import machine_info

    metrics = rules_metrics(METRICS)
    pairs = corpus()
    table = score_table(pairs, metrics)
    print(f"{len(SOURCES)} reports, {len(pairs)} pairs; faithful rewrites: {', '.join(FAITHFUL_KINDS)}")
    print(markdown(table))
    print(f"identical pairs not perfect: {len(table['imperfect_identical'])}")
    for item in table["imperfect_identical"]:
        print(f"  {item}")
    for metric, kinds in table["outside_read_sections"].items():
        print(f"{metric}: error only in a section it does not read (left out above): "
              + ", ".join(f"{kind} {n}" for kind, n in kinds.items()))
    for metric, kinds in table["not_applicable"].items():
        print(f"{metric}: 'not applicable' (left out above): "
              + ", ".join(f"{kind} {n}" for kind, n in kinds.items()))
    orders = level_orders(metrics)
    chest = {m.name for m in metrics if m.card.intended_studies != ANY}
    print(f"levels ({len(LEVELS)} reports, in order {' > '.join(LEVEL_NAMES)}): "
          + ", ".join(f"{name} {o['ordered']}/{o['n']}" + (" (made for chest radiographs)" if name in chest else "")
                      for name, o in orders.items()))
    for name, o in orders.items():
        if name in chest:
            continue  # outside the studies they were made for: the count says enough
        for report, scores in o["disordered"].items():
            print(f"  {name} out of order: {report} " + " / ".join(_number(s) for s in scores))
    if "radsem" in table["faithful"]:
        worst = sorted((scores["radsem"], pid) for pid, scores in table["faithful_pairs"].items()
                       if scores.get("radsem") is not None)[:8]
        print("lowest RadSEM faithful rewrites: " + ", ".join(f"{pid} {s:.3f}" for s, pid in worst))
    if args.out:
        report = {"benchmark": "paraphrases", "machine": machine_info(), "reports": len(SOURCES),
                  "pairs": len(pairs), "faithful_kinds": list(FAITHFUL_KINDS), "errors": list(ERRORS),
                  "signatures": {m.name: m.signature() for m in metrics}, "level_orders": orders, **table}
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("paraphrases", help="faithful rewrites and planted errors of CT, MRI, ultrasound "
                                           "and bone radiograph reports, per metric x kind x modality")
    p.add_argument("--out", help="JSON report path")
    p.set_defaults(func=cmd_paraphrases)
