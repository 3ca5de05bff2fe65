"""Does a downloaded GGUF judge run here? One tiny generation in a separate process.

A file with the right hash can still fail on this machine (an architecture llama.cpp does not
know, too little memory), and a crash of llama.cpp must not take the app with it, so the check
runs in a child process: ``radscope models.selfcheck PATH``. ``run_self_check`` is the one
entry point callers use, so the generation can later be routed through the app's judge worker.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from radscope.layout import import_root

PROMPT = "Chest radiograph findings:"
MAX_TOKENS = 4


@dataclass(frozen=True)
class SelfCheck:
    ok: bool
    seconds: float
    text: str = ""
    error: str = ""


def run_self_check(path: Path, timeout_s: float = 600) -> SelfCheck:
    """Load the GGUF with llama.cpp in a child process and generate a few tokens."""
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "radscope.models.selfcheck", str(path)], cwd=import_root(),
                              capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return SelfCheck(False, time.monotonic() - started, error=f"no answer within {timeout_s:.0f} s")
    seconds = time.monotonic() - started
    last = proc.stdout.strip().splitlines()[-1:] or [""]
    try:
        answer = json.loads(last[0])
    except json.JSONDecodeError:
        tail = (proc.stderr or proc.stdout).strip()[-600:]
        return SelfCheck(False, seconds, error=f"exit code {proc.returncode}: {tail}")
    return SelfCheck(bool(answer.get("ok")), seconds, answer.get("text", ""), answer.get("error", ""))


def _generate(path: str) -> dict[str, object]:
    from radscope.models.llama_load import load_llama, weight_repacking_allowed

    llm = load_llama(Path(path), n_ctx=256, layers=0, threads=2, repack=weight_repacking_allowed())
    out = llm.create_completion(PROMPT, max_tokens=MAX_TOKENS, temperature=0.0)
    tokens = int(out["usage"]["completion_tokens"])
    if tokens < 1:
        return {"ok": False, "error": "the model generated no token"}
    return {"ok": True, "text": out["choices"][0]["text"], "tokens": tokens}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="load a GGUF and generate a few tokens")
    parser.add_argument("path")
    args = parser.parse_args(argv)
    try:
        answer = _generate(args.path)
    except Exception as exc:  # noqa: BLE001 - reported to the parent as data
        answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(answer))
    return 0 if answer["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
