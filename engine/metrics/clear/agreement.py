"""Attribute agreement of one CLEAR pair, for the headline next to the positive F1.

CLEAR's pair score is the positive F1 over the 13 conditions, so a pleural effusion on the
wrong side still scores 1.0: the side is an attribute (location) of a condition both reports
call positive. This module counts, over the table's compared attribute cells, how many agree,
and names the ones that differ, so that a side swap shows next to the score instead of only as
a red cell further down.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from radscope.engine.metrics.clear.score import PRESENCE_COLUMN, TableRow


def attribute_agreement(table: Sequence[TableRow]) -> dict[str, Any]:
    """Per attribute: cells compared and cells agreeing; the differing cells; and one short
    ``note`` ("location differs: pleural effusion") for score tables (empty when nothing was
    compared or everything agrees)."""
    by_attribute: dict[str, dict[str, int]] = {}
    differs: list[dict[str, Any]] = []
    for row in table:
        for attribute, cell in row.cells.items():
            if attribute == PRESENCE_COLUMN or cell.match is None:
                continue
            counts = by_attribute.setdefault(attribute, {"compared": 0, "agree": 0})
            counts["compared"] += 1
            counts["agree"] += int(cell.match)
            if not cell.match:
                differs.append({"condition": row.condition, "attribute": attribute,
                                "reference": cell.reference, "candidate": cell.candidate})
    compared = sum(c["compared"] for c in by_attribute.values())
    agree = sum(c["agree"] for c in by_attribute.values())
    return {"compared": compared, "agree": agree,
            "share": agree / compared if compared else None,
            "by_attribute": by_attribute, "differs": differs, "note": _note(differs, agree, compared)}


def _note(differs: Sequence[dict[str, Any]], agree: int, compared: int) -> str:
    if not compared:
        return ""
    if not differs:
        return f"attributes agree ({agree}/{compared})"
    grouped: dict[str, list[str]] = {}
    for item in differs:
        grouped.setdefault(item["attribute"], []).append(item["condition"].lower())
    parts = [f"{attribute} differs: {', '.join(conditions)}"
             for attribute, conditions in grouped.items()]
    return f"attributes {agree}/{compared} agree; " + "; ".join(parts)
