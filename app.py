"""Start the RadScope app: ``python app.py [--host HOST] [--port PORT] [--config FILE]``.

Binds 127.0.0.1 unless told otherwise. GRADIO_SERVER_NAME / GRADIO_SERVER_PORT are honoured
(Hugging Face Spaces sets them), command-line flags win over them. No public share link, no
browser-side run history, no analytics. ``--config`` names a JSON or TOML file of default
metric options (see ``ui/config.py``).

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
    from ui.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from ui.app import build_demo, launch_kwargs, queue
    from ui.public import public_reason

    reason = public_reason(args.host, args.public)
    config.public = reason is not None
    print(f"RadScope: {'public mode (' + reason + ')' if reason else 'local mode (one user)'}",
          file=sys.stderr)
    demo = queue(build_demo(config))
    demo.launch(**launch_kwargs(args.host, args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
