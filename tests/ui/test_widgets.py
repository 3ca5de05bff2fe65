"""Metric options: the basic choices in the open part, the advanced ones (judge server, dialect,
threads, batches) in their own closed accordion."""
from __future__ import annotations

import gradio as gr

from radscope.engine.metrics.registry import production
from radscope.ui.config import AppConfig
from radscope.ui.widgets import ADVANCED_OPTIONS, option_controls


def _ids(block) -> set[str]:
    """elem_ids of every component under ``block``."""
    found = set()
    for child in getattr(block, "children", []):
        found.add(child.elem_id)
        found |= _ids(child)
    return found


def test_advanced_options_sit_in_their_own_closed_accordion():
    with gr.Blocks(), gr.Accordion("Metric options") as outer:
        controls = option_controls(AppConfig(production()), "t", set(production().all_options()))
    assert set(controls) == set(production().all_options())
    advanced = next(c for c in outer.children if isinstance(c, gr.Accordion))
    assert advanced.open is False and advanced.elem_id == "t-advanced"
    inside = _ids(advanced)
    for name in production().all_options():
        assert (f"t-opt-{name}" in inside) == (name in ADVANCED_OPTIONS), name
    assert {"judge_url", "json_dialect", "judge_threads", "encoder_batch"} <= ADVANCED_OPTIONS
    assert not {"extractor", "judge", "crepe_model", "srr_model"} & ADVANCED_OPTIONS
