"""The batch CSV: one row per pair with both texts, then per metric its score, error, model and
signature, and the details a spreadsheet user wants in flat columns (CLEAR presence per
condition, CREPE category counts, SRR-BERT label sets, RadSEM matched / unmatched counts).

Details are looked up by shape (``find_section``), as the views do, so a metric that stores
them flat or nested exports alike; a metric without a flattener gets the four standard columns.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from radscope.engine.io.reports import ReportPair
from radscope.ui.views.common import find_section

Flat = dict[str, Any]


def _clear(result: Mapping[str, Any]) -> Flat:
    section = find_section(result, ("reference_presence", "candidate_presence", "pos_f1", "neg_f1"))
    if section is None:
        return {}
    out: Flat = {"pos_f1": section["pos_f1"], "neg_f1": section["neg_f1"]}
    for side, key in (("ref", "reference_presence"), ("cand", "candidate_presence")):
        for condition, label in (section[key] or {}).items():
            out[f"{side}_{condition.lower().replace(' ', '_')}"] = label
    return out


def _crepe(result: Mapping[str, Any]) -> Flat:
    counts = (find_section(result, ("counts",)) or {}).get("counts") or {}
    return {f"count_{k}": v for k, v in counts.items()} if isinstance(counts, Mapping) else {}


def _srr(result: Mapping[str, Any]) -> Flat:
    section = find_section(result, ("reference_labels", "candidate_labels"))
    if section is None:
        return {}
    out: Flat = {"reference_labels": "; ".join(map(str, section["reference_labels"] or [])),
                 "candidate_labels": "; ".join(map(str, section["candidate_labels"] or []))}
    for level in ("leaf", "upper"):
        if isinstance(section.get(level), Mapping):
            out[f"{level}_f1"] = section[level].get("f1")
    return out


def _radsem(result: Mapping[str, Any]) -> Flat:
    out: Flat = {}
    for cls in ("abnormal", "normal"):
        stats = find_section(result, (cls,))
        part = (stats or {}).get(cls)
        if isinstance(part, Mapping):
            for key in ("matched", "unmatched_ref", "unmatched_gen", "f1"):
                out[f"{cls}_{key}"] = part.get(key)
    return out


FLATTENERS: dict[str, Callable[[Mapping[str, Any]], Flat]] = {
    "clear": _clear, "crepe": _crepe, "srr": _srr, "radsem": _radsem}


def _family(name: str) -> str:
    for sep in ("-", "_", ":"):
        name = name.split(sep, 1)[0]
    return name


def metric_columns(name: str, result: Mapping[str, Any]) -> Flat:
    """``<name>_score`` ... plus the metric's flat details, every column prefixed by its name."""
    out: Flat = {f"{name}_{k}": result.get(k) for k in ("score", "error", "model", "signature")}
    flatten = FLATTENERS.get(_family(name))
    if flatten is not None and result.get("error") is None:
        out.update({f"{name}_{k}": v for k, v in flatten(result).items()})
    return out


def export_frame(rows: Sequence[Mapping[str, Any]], pairs: Sequence[ReportPair] | None = None) -> pd.DataFrame:
    """One row per pair: id, the texts (when ``pairs`` are given), then every metric's columns."""
    by_id = {p.id: p for p in pairs or []}
    records = []
    for row in rows:
        rec: Flat = {"id": row["id"]}
        pair = by_id.get(row["id"])
        if pair is not None:
            rec.update(reference=pair.reference, candidate=pair.candidate, modality=pair.modality,
                       area=pair.area)
        for name, result in (row.get("metrics") or {}).items():
            rec.update(metric_columns(name, result))
        records.append(rec)
    return pd.DataFrame.from_records(records)
