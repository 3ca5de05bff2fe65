"""The Gradio Blocks app: Compare (one pair), Batch (a file of pairs) and Models.

Everything shown is built at start-up from the metric registry the config holds (app.py passes
the project's; tests pass their own, stand-ins included): a checkbox and a panel per
registered metric, a control per declared option. Per-metric drawing lives in ``radscope.ui.views``;
each tab is built and wired in its own module (``compare_tab``, ``batch_tab``, ``models_tab``),
its handlers are module-level functions (``compare_handlers``, ``batch_handlers``,
``models_handlers``) on top of logic that does not need Gradio (``compare``, ``batch``,
``model_status``). A page opened with ``?compare=<run id>`` shows that stored comparison.

Queues (docs/security.md, "Queues"): one-pair comparisons (group ``"compare"``) and batches
(group ``"batch"``) have queues of their own, so a Compare never waits for a batch's slot; a
judge or an encoder is used by one request at a time through the ``ModelGate`` (ui.runtime),
which a batch takes chunk by chunk; events that only use a model (structure, unload) also join
the group ``"llm"``; cheap events (previews, visibility toggles) run beside them.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import gradio as gr

from radscope.engine.io.examples import example_pairs
from radscope.engine.runs.store import Store
from radscope.ui.config import AppConfig
from radscope.ui.handlers import bind
from radscope.ui.page_script import HEAD
from radscope.ui.public import REPORT_FIELDS, oversize, visitor_options
from radscope.ui.runtime import RuntimeCache, needs_model
from radscope.ui.tabs.batch import open_pair as batch_open
from radscope.ui.tabs.batch.tab import batch_tab
from radscope.ui.tabs.compare import handlers as compare_handlers
from radscope.ui.tabs.compare.logic import score_metric
from radscope.ui.tabs.compare.tab import compare_api, compare_tab
from radscope.ui.tabs.models.tab import models_tab
from radscope.ui.theme import THEME
from radscope.ui.widgets import COMPARE, COMPARE_LIMIT, AppContext, metric_label

log = logging.getLogger(__name__)
CSS_PATH = Path(__file__).with_name("style.css")
PUBLIC_NOTE = ("This is a shared public server: the operator chose its models; your batch runs "
               "are visible to this browser session only. Do not upload patient data.")
MAX_FILE_SIZE = "20mb"


def build_demo(config: AppConfig, store: Store | None = None) -> gr.Blocks:
    """Build the whole app (not launched) offering the metrics of ``config.registry``.
    ``store`` defaults to $RADSCOPE_HOME's database; ``config.warm`` loads the default metrics
    in the background (``warm_up``)."""
    registry = config.registry
    app = AppContext(config=config, cache=RuntimeCache(registry, config.max_contexts),
                     store=store or Store())
    names = registry.names()
    default_metrics = config.default_metrics()
    # Public mode: the page and the API offer only the options a visitor may set.
    option_names = visitor_options(registry) if config.public else list(registry.all_options())
    choices = [(metric_label(registry.get(n)), n) for n in names]

    with gr.Blocks(title="RadScope", analytics_enabled=False, delete_cache=(1800, 3600)) as demo:
        where = (PUBLIC_NOTE if config.public else "Everything runs on this machine unless you "
                 "point the judge at a server.")
        gr.HTML("<h1 class='rs-h1'>RadScope</h1><div class='rs-intro'>Compare a candidate "
                "radiology report with a reference report using CLEAR, CREPE, VERT, SRR-BERT and "
                f"RadSEM (plus lexical baselines). {where}</div>")
        with gr.Tabs() as tabs:
            with gr.Tab("Compare", id="compare"):
                compare_parts = compare_tab(app, names, default_metrics, choices, option_names)
            with gr.Tab("Batch", id="batch"):
                batch_parts = batch_tab(app, names, default_metrics, choices, option_names)
            with gr.Tab("Models", id="models") as models_page:
                models_tab(app, models_page, compare_parts, batch_parts)
        batch_open.wire(tabs, batch_parts, compare_parts)  # a batch row opens in Compare
        view = compare_parts["view"]  # ?compare=<run id> reopens a stored comparison
        demo.load(bind(compare_handlers.open_link, view), view.visitor, view.stored_outputs(),
                  api_name="open_comparison", api_visibility="undocumented", queue=False)
        gr.api(compare_api(app, default_metrics), api_name="compare", concurrency_id=COMPARE,
               concurrency_limit=COMPARE_LIMIT)
    if config.public:
        cap_request_text(demo, config.max_chars)
    if config.warm:
        warm_up(app, default_metrics)
    return demo


def warm_up(app: AppContext, names: list[str]) -> threading.Thread:
    """Load and run once, in the background, the default metrics that need no model and the
    clinical reader: the first Run then takes the engine's time, not its start-up (imports,
    lexicons: seconds). Metrics that would load a judge or an encoder are left alone."""
    def work() -> None:
        try:
            options = app.config.request_options({})
            pair = example_pairs()[0].pair
            for name in names:
                if not needs_model(app.cache, options, [name]):
                    score_metric(app.cache, options, pair, name, app.config.max_chars)
            compare_handlers.clinical_summary(pair.reference, pair.candidate)
        except Exception:  # the first Run then pays the start-up, and its panels say what fails
            log.warning("warming up the default metrics failed", exc_info=True)

    thread = threading.Thread(target=work, name="radscope-warm-up", daemon=True)
    thread.start()
    return thread


def request_fields(block_fn: Any) -> list[tuple[str, bool]]:
    """Each input of an event: the name a visitor knows it by, and whether it is a report."""
    names = list(getattr(block_fn, "input_parameter_names", None) or [])
    fields = []
    for i, block in enumerate(block_fn.inputs):
        parameter = names[i] if i < len(names) else None
        elem_id = getattr(block, "elem_id", None)
        label = getattr(block, "label", None)
        name = label if label and elem_id else parameter or label or f"input {i + 1}"
        fields.append((str(name),
                       elem_id in REPORT_FIELDS or (parameter in REPORT_FIELDS and elem_id is None)))
    return fields


def cap_request_text(demo: gr.Blocks, max_chars: int) -> None:
    """Public mode: every event's inputs, whatever the event (queued or not, documented or
    not, added later), pass ``radscope.ui.public.oversize`` before Gradio preprocesses or stores them.
    ``Blocks.validate_inputs`` is the one check Gradio runs on every event's raw inputs."""
    checked = demo.validate_inputs

    def validate_inputs(block_fn: Any, inputs: list[Any]) -> None:
        problem = oversize(inputs, request_fields(block_fn), max_chars)
        if problem:
            raise gr.Error(problem, print_exception=False)
        checked(block_fn, inputs)

    demo.validate_inputs = validate_inputs  # type: ignore[method-assign]


# --------------------------------------------------------------------------- launching


def launch_kwargs(host: str = "127.0.0.1", port: int | None = 7860) -> dict[str, Any]:
    """How the app is served (shared by app.py and the tests): local by default, no share
    link, upload size limit, no browser-side run history, no monitoring endpoint."""
    return dict(server_name=host, server_port=port, share=False, max_file_size=MAX_FILE_SIZE,
                run_history=False, footer_links=["api", "settings"], enable_monitoring=False,
                show_error=False, ssr_mode=False, theme=THEME,
                css_paths=[CSS_PATH], head=HEAD)


def queue(demo: gr.Blocks) -> gr.Blocks:
    """Cheap events run four at a time; model events are limited per event (group "llm")."""
    return demo.queue(default_concurrency_limit=4, max_size=64)


__all__ = ["build_demo", "launch_kwargs", "metric_label", "queue"]
