"""A row of the batch results opens its pair in the Compare tab, with the results the batch
stored for it (nothing is scored again): a click on a system B column opens system B's
candidate. The batch keeps what it needs for this in its server-side state (``rows_state``)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gradio as gr

from radscope.engine.io.reports import ReportPair
from radscope.ui.handlers import bind


def rows_state(pairs: Sequence[ReportPair], pairs_b: Sequence[ReportPair] | None,
               rows_a: Sequence[Mapping[str, Any]], rows_b: Sequence[Mapping[str, Any]] | None,
               columns: Sequence[str]) -> dict[str, Any]:
    """What a row click needs: each pair's texts, both systems' results, the table's columns."""
    cand_b = {p.id: p.candidate for p in pairs_b or []}
    return {"pairs": {p.id: {"reference": p.reference, "candidate": p.candidate,
                             "candidate_b": cand_b.get(p.id), "modality": p.modality or "",
                             "area": p.area or ""} for p in pairs},
            "rows": {str(r["id"]): dict(r.get("metrics") or {}) for r in rows_a},
            "rows_b": {str(r["id"]): dict(r.get("metrics") or {}) for r in rows_b or []},
            "columns": list(columns)}


def picked_pair(state: Mapping[str, Any], row_value: Sequence[Any] | None,
                column: int | None) -> tuple[dict[str, Any], dict[str, Any], str] | None:
    """(pair texts, results, note) for the clicked row; None when the click was not on a row of
    a finished run."""
    if not state or not row_value:
        return None
    pair_id = str(row_value[0])
    pair = (state.get("pairs") or {}).get(pair_id)
    if pair is None:
        return None
    columns = state.get("columns") or []
    system_b = (column is not None and 0 <= column < len(columns) and str(columns[column]).endswith("(B)")
                and pair_id in (state.get("rows_b") or {}))
    texts = dict(pair, candidate=pair["candidate_b"]) if system_b else dict(pair)
    results = (state["rows_b"] if system_b else state.get("rows") or {}).get(pair_id, {})
    note = f"Pair {pair_id} from the batch{' (system B)' if system_b else ''}: stored results, not re-scored."
    return texts, results, note


def on_select(tabs: gr.Tabs, show_stored: Callable[..., dict[Any, Any]], state: dict[str, Any],
              evt: gr.SelectData) -> dict[Any, Any]:
    """A click on a cell of the batch results: that pair in Compare, with its stored results."""
    index = evt.index if isinstance(evt.index, (list, tuple)) else [evt.index, None]
    found = picked_pair(state, evt.row_value, index[1])
    if found is None:
        return {}
    texts, results, note = found
    return {tabs: gr.Tabs(selected="compare"),
            **show_stored(texts["reference"], texts["candidate"], texts["modality"], texts["area"],
                          results, note)}


def wire(tabs: gr.Tabs, batch_parts: Mapping[str, Any], compare_parts: Mapping[str, Any]) -> None:
    """Clicking a cell of the batch results opens that pair in Compare."""
    batch_parts["results"].select(bind(on_select, tabs, compare_parts["show_stored"]), batch_parts["state"],
                                  [tabs, *compare_parts["stored_outputs"]], api_name="open_pair",
                                  api_visibility="undocumented", queue=False)
