"""Start the RadScope app: ``python app.py`` (in a checkout or a Space) or ``radscope app`` (installed),
with ``[--host HOST] [--port PORT] [--config FILE] [--public]``.

Binds 127.0.0.1 unless told otherwise. GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are honoured
(Hugging Face Spaces sets them), command-line flags win over them. No public share link, no
browser-side run history, no analytics. ``--config`` names a JSON or TOML file of default
metric options (see ``ui/config.py``). ``RADSCOPE_PREPARE=id,id`` (or the config's
``prepare``) fetches and prepares registry models before the app serves (``models/prepare.py``).

Public mode (``ui/public.py``) is on with ``--public``, when ``SPACE_ID`` is set (Hugging Face
Spaces) or when the address is not a loopback one: visitors then set only fixed-choice options
and see only their own batch runs. The mode and why are printed at start-up.
"""
from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="RadScope: compare radiology reports (web app)")
    parser.add_argument("--host", default=os.environ.get("GRADIO_SERVER_NAME") or "127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only; "
                             "0.0.0.0 exposes the app to the network)")
    parser.add_argument("--port", type=int, default=_env_port(),
                        help="port (default 7860, or GRADIO_SERVER_PORT)")
    parser.add_argument("--config", help="JSON or TOML file of default metric options")
    parser.add_argument("--public", action="store_true",
                        help="public mode even on 127.0.0.1 (e.g. behind a reverse proxy): the "
                             "judge, keys, models and paths come only from --config and the "
                             "environment, and each visitor sees only their own runs")
    return parser


def _env_port() -> int:
    value = os.environ.get("GRADIO_SERVER_PORT", "").strip()
    return int(value) if value.isdigit() else 7860


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from radscope.engine.metrics.framework.registry import production
    from radscope.ui.config import ConfigError, load_config

    try:
        config = load_config(args.config, production())  # the app offers the project's metrics
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not prepare_models(config):
        return 2
    from radscope.ui.page import build_demo, launch_kwargs, queue
    from radscope.ui.public import public_reason

    reason = public_reason(args.host, args.public)
    config.public = reason is not None
    config.warm = True  # the first Run then takes the engine's time, not its start-up
    print(f"RadScope: {'public mode (' + reason + ')' if reason else 'local mode (one user)'}",
          file=sys.stderr)
    if reason:  # a public page may meet clients that hold sockets open until descriptors run out
        from radscope.engine.rewards.http_limits import cap_uvicorn_connections

        print(f"RadScope: at most {cap_uvicorn_connections()} connections open at once",
              file=sys.stderr)
    from radscope.engine.runs.store import StoreError

    try:
        demo = queue(build_demo(config))
    except StoreError as exc:  # a damaged or locked run store: say which file, not a traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2
    demo.launch(**launch_kwargs(args.host, args.port))
    return 0


def prepare_models(config) -> bool:
    """Fetch RADSCOPE_PREPARE / the config's ``prepare`` models and make them the defaults of
    their options (unless the config sets those); False when the id list itself is wrong."""
    from radscope.models.prepare import prepare_all, requested
    from radscope.models.terminal import TerminalReporter

    try:
        ids = requested(config.prepare)
    except ValueError as exc:
        print(f"error: RADSCOPE_PREPARE: {exc}", file=sys.stderr)
        return False
    if not ids:
        return True
    print(f"Preparing {', '.join(ids)} before serving...", file=sys.stderr)
    outcome = prepare_all(ids, TerminalReporter())
    for option, model_id in outcome.option_defaults().items():
        config.options.setdefault(option, model_id)
    print(f"Prepared {len(outcome.prepared)} of {len(ids)} model(s) in {outcome.seconds:.1f} s.",
          file=sys.stderr)
    return True


if __name__ == "__main__":
    sys.exit(main())
