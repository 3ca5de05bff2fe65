"""Start the RadScope app: ``python app.py [--host HOST] [--port PORT] [--config FILE]``.

Binds 127.0.0.1 unless told otherwise. GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are honoured
(Hugging Face Spaces sets them), command-line flags win over them. No public share link, no
browser-side run history, no analytics. ``--config`` names a JSON or TOML file of default
metric options (see ``ui/config.py``). ``RADSCOPE_PREPARE=id,id`` (or the config's
``prepare``) fetches and prepares registry models before the app serves (``models/prepare.py``).
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
    return parser


def _env_port() -> int:
    value = os.environ.get("GRADIO_SERVER_PORT", "").strip()
    return int(value) if value.isdigit() else 7860


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from ui.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not prepare_models(config):
        return 2
    from ui.app import build_demo, launch_kwargs, queue

    demo = queue(build_demo(config))
    demo.launch(**launch_kwargs(args.host, args.port))
    return 0


def prepare_models(config) -> bool:
    """Fetch RADSCOPE_PREPARE / the config's ``prepare`` models and make them the defaults of
    their options (unless the config sets those); False when the id list itself is wrong."""
    from models.prepare import prepare_all, requested
    from models.terminal import TerminalReporter

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
