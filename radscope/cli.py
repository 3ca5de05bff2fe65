"""The ``radscope`` command (and ``python -m radscope``).

``score``, ``compare``, ``metrics``, ``structure``, ``runs`` and ``agree`` are the engine's command line
(``radscope.engine.commands``); ``app`` starts the web app (``app.py``, needs the ``app`` extra);
``models`` lists, fetches, packs and unpacks the models (``radscope.models``);
``serve-reward`` starts the reward server (``radscope.engine.rewards.server``, needs ``serve``).
"""
from __future__ import annotations

import sys
from collections.abc import Callable

ENGINE_COMMANDS = ("score", "compare", "metrics", "structure", "runs", "agree")
USAGE = """usage: radscope <command> [options]

commands:
  score         score report pairs from a file (CSV, TSV, JSONL, JSON)
  compare       paired comparison of two systems' results files
  metrics       list the metrics
  structure     rewrite a free-text report as a structured one (LLM judge)
  runs          the stored runs: list, show, export, remove, compact
  agree         how far metrics agree with radiologists' ratings of report pairs
  models        the models: list, fetch, pack, unpack, export
  app           start the web app on http://127.0.0.1:7860 (extra: radscope[app])
  serve-reward  serve a reward for RL trainers over HTTP (extra: radscope[serve])

`radscope <command> --help` describes each command's options."""


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else ""
    if command in ENGINE_COMMANDS:
        from radscope.engine.commands import main as engine_main

        return engine_main(args)
    if command == "models":
        from importlib import import_module

        return int(import_module("radscope.models.__main__").main(args[1:]))
    if command == "app":
        return _needs("app", "gradio", lambda: _app(args[1:]))
    if command == "serve-reward":
        return _needs("serve", "uvicorn", lambda: _serve(args[1:]))
    if command in ("-h", "--help"):
        print(USAGE)
        return 0
    print(USAGE, file=sys.stderr)
    if command:
        print(f"\nerror: unknown command {command!r}", file=sys.stderr)
    return 2


def _app(argv: list[str]) -> int:
    from radscope.launch import main as app_main

    return app_main(argv)


def _serve(argv: list[str]) -> int:
    from radscope.engine.rewards.server import main as serve_main

    return serve_main(argv)


def _needs(extra: str, module: str, run: Callable[[], int]) -> int:
    """Run ``run`` when ``module`` is installed; otherwise say which extra brings it."""
    import importlib.util

    if importlib.util.find_spec(module) is None:
        print(f"error: this command needs the '{extra}' extra: pip install 'radscope[{extra}]'",
              file=sys.stderr)
        return 2
    return run()
