"""Shared pieces of the app's tabs: constants, the server-side context, metric labels and
cards, status boxes, and one control per registered metric option."""
from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from radscope.engine.metrics.framework.base import MetricCard
from radscope.engine.metrics.framework.registry import MetricRegistry, MetricSpec
from radscope.engine.reader.error_words import base_title
from radscope.engine.runs.store import Store
from radscope.ui.config import AppConfig
from radscope.ui.option_words import choices_of, info_of, label_of
from radscope.ui.public import is_secret
from radscope.ui.runtime import ModelGate, RuntimeCache
from radscope.ui.views.common import esc

LLM = "llm"  # concurrency group of the events that only ever use a model (structure, unload)
COMPARE = "compare"  # one-pair comparisons: several at once; a model is used through the gate
BATCH = "batch"  # batch runs: two at once, each passing the model gate chunk by chunk
COMPARE_LIMIT, BATCH_LIMIT = 4, 2


@dataclass
class AppContext:
    """Server-side state shared by all sessions."""

    config: AppConfig
    cache: RuntimeCache
    store: Store
    cancels: dict[str, threading.Event] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    models: ModelGate = field(default_factory=ModelGate)  # one model job at a time (ui.runtime)

    @property
    def registry(self) -> MetricRegistry:
        """The metrics this app offers (the config's)."""
        return self.config.registry

    def cancel_event(self, session: str) -> threading.Event:
        with self.lock:
            event = threading.Event()
            self.cancels[session] = event
            return event

    def release_cancel(self, session: str, event: threading.Event) -> None:
        """The batch that ``event`` stops has ended: Stop no longer has anything to stop (unless
        the session has started another batch since, with an event of its own)."""
        with self.lock:
            if self.cancels.get(session) is event:
                del self.cancels[session]


def metric_label(spec: MetricSpec) -> str:
    """Checkbox label of a metric: its name and what may run it (the panel then says what did)."""
    kind = {"lexical": "word overlap", "llm": "LLM judge", "encoder": "encoder",
            "rules": "rules"}.get(spec.kind, spec.kind)
    if spec.extractors is not None and "rules" in spec.extractors.builders and spec.kind != "rules":
        kind = f"rules or {kind}"  # the options pick
    elif spec.kind == "llm" and any(opt.choices and "rules" in opt.choices for opt in spec.options):
        kind = "rules or LLM judge"
    title = base_title(spec.card.title)
    return title if kind.lower() in title.lower() else f"{title} ({kind})"


def card_html(card: MetricCard) -> str:
    """The metric card shown beside its panel: what it measures and its direction at a glance,
    the rest (inputs, paper, models, limits) one click away."""
    arrow = "higher is better" if card.direction == "higher" else "lower is better"
    more = [("Inputs", card.inputs), ("Paper", card.paper), ("Models", card.models),
            ("Limits", card.limits)]
    body = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in more if v)
    return (f"<div class='rs-card'><b>About {esc(base_title(card.title))}</b>"
            f"<div>{esc(card.measures)}</div><div class='rs-muted'>{esc(arrow)}, range "
            f"{esc(card.range_text())}</div><div class='rs-scope'><b>Designed for</b> "
            f"{esc(card.intended_studies.text)}</div><details><summary>Inputs, paper, models, limits"
            f"</summary><dl>{body}</dl></details></div>")


def status_box(kind: str, message: str) -> str:
    cls = {"error": "rs-error", "warn": "rs-warn", "ok": "rs-ok"}.get(kind, "rs-muted")
    role = " role='alert'" if kind == "error" else ""
    return f"<div class='{cls}'{role}>{esc(message)}</div>"


def relevant_options(registry: MetricRegistry, names: Sequence[str]) -> set[str]:
    """Options declared by the chosen metrics (the only ones worth showing)."""
    found: set[str] = set()
    for name in names or ():
        if name in registry:
            found.update(opt.name for opt in registry.get(name).options)
    return found


# Options a clinician has no reason to touch (where the judge runs and how it is driven, threads,
# batches); they sit in a closed "Advanced" accordion below the basic ones.
ADVANCED_OPTIONS = frozenset({"judge_url", "judge_model", "judge_api_key", "json_dialect", "judge_ctx",
                              "judge_gpu_layers", "judge_threads", "judge_chat_format", "max_inflight",
                              "judge_timeout", "judge_retries", "judge_seed", "judge_max_tokens", "encoder_device",
                              "encoder_precision", "encoder_threads", "encoder_batch",
                              "clear_llm_similarity", "clear_top5", "vert_fewshot"})


def is_advanced(name: str) -> bool:
    return name in ADVANCED_OPTIONS


def option_controls(config: AppConfig, prefix: str, shown: set[str],
                    names: Sequence[str] | None = None) -> dict[str, gr.components.Component]:
    """One input per option in ``names`` (default: every registered option), visible when a
    chosen metric declares it: the basic ones first, the advanced ones in a closed accordion of
    their own. In public mode ``names`` holds only what a visitor may set, so the page offers
    nothing else."""
    names = list(config.registry.all_options()) if names is None else list(names)
    controls: dict[str, gr.components.Component] = {}
    basic = [n for n in names if not is_advanced(n)]
    advanced = [n for n in names if is_advanced(n)]
    controls.update(_controls(config, prefix, shown, basic))
    if advanced:
        with gr.Accordion("Advanced: judge server, JSON dialect, threads, batches", open=False,
                          elem_id=f"{prefix}-advanced"):
            controls.update(_controls(config, prefix, shown, advanced))
    return controls


def _controls(config: AppConfig, prefix: str, shown: set[str],
              names: Sequence[str]) -> dict[str, gr.components.Component]:
    controls: dict[str, gr.components.Component] = {}
    for name in names:
        opt = config.registry.all_options()[name]
        value = config.option_value(name)
        if name not in config.options and is_demo_model(value):
            value = ""  # a demo-grade model is never preset: blank means the default, said in words
        info = info_of(name, opt.help)
        if is_secret(name) and config.effective_options().get(name):
            info += " (blank: the key the operator configured, which is never shown)"
        common: dict[str, Any] = dict(label=label_of(name), info=info, visible=name in shown,
                                      elem_id=f"{prefix}-opt-{name}")
        control: gr.components.Component
        if opt.type is bool:
            control = gr.Checkbox(value=bool(value), **common)
        elif opt.choices:
            control = gr.Dropdown(choices=choices_of(name, tuple(opt.choices)), value=value, **common)
        elif opt.type in (int, float):
            control = gr.Number(value=value, precision=0 if opt.type is int else None, **common)
        else:
            control = gr.Textbox(value="" if value is None else str(value), max_lines=1,
                                 type="password" if is_secret(name) else "text", **common)
        controls[name] = control
    return controls


def is_demo_model(value: Any) -> bool:
    """Whether ``value`` names a demo-grade model of the registry."""
    from radscope.models import model_registry

    entry = model_registry.load_registry().get(value) if isinstance(value, str) else None
    return entry is not None and entry.demo_grade


def options_from(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    """Option values from the controls; blank text means "use the default"."""
    out = {}
    for name, value in zip(names, values, strict=True):
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        out[name] = value
    return out
