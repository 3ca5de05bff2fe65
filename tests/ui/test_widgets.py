"""Metric options: the basic choices in the open part, the advanced ones (judge server, dialect,
threads, batches) in their own closed accordion."""
from __future__ import annotations

import gradio as gr

from radscope.engine.metrics.framework.registry import production
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


def test_no_demo_grade_model_is_preset_and_options_speak_plain_words():
    from radscope.models import model_registry

    with gr.Blocks():
        controls = option_controls(AppConfig(production()), "t", set(production().all_options()))
    demo = {e.id for e in model_registry.load_registry().values() if e.demo_grade}
    for name, control in controls.items():
        assert control.value not in demo, name
        assert "--" not in (control.info or ""), (name, control.info)  # no command-line flags
    if "judge" in controls:
        assert controls["judge"].value == "" and "demo-grade" in controls["judge"].info
    if "extractor" in controls:
        assert ("Rules reader (offline, instant)", "rules") in controls["extractor"].choices
    # A judge the operator configured stays, demo-grade or not: it was chosen.
    with gr.Blocks():
        chosen = option_controls(AppConfig(production(), options={"judge": "gemma3-270m-demo"}), "c",
                                 set(production().all_options()))
    assert chosen["judge"].value == "gemma3-270m-demo"
