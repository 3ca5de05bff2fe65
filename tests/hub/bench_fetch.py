"""Time `radscope models fetch crepe-biomedbert` at the published size, without a network.

A random-weight CREPE checkpoint with BERT-base dimensions (768 hidden, 12 layers: 438 MB,
the size of the published one) is served by the fake Hub on 127.0.0.1 and fetched end to end
into a fresh cache; the step times, disk use and the fp32 check are printed as JSON. The
download here measures the local path only: on a real network add size / bandwidth.

    .venv/bin/python -m tests.hub.bench_fetch [--out bench-results/fetch.json]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tests.hub.checkpoints as checkpoints
from tests.hub.conftest import CREPE_ID, CREPE_REPO, ROOT, disk_bytes, hub_env
from tests.hub.fake_hub import FakeHub

BERT_BASE = {"HIDDEN": 768, "LAYERS": 12, "HEADS": 12, "FFN": 3072, "POSITIONS": 512}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="also write the JSON report here")
    args = parser.parse_args(argv)
    for name, value in BERT_BASE.items():
        setattr(checkpoints, name, value)
    hub = FakeHub()
    hub.add(CREPE_REPO, checkpoints.crepe_files())
    hub.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            env = hub_env(Path(tmp), hub.url)
            started = time.monotonic()
            proc = subprocess.run([sys.executable, "-m", "radscope", "models", "fetch", CREPE_ID], cwd=ROOT, env=env,
                                  capture_output=True, text=True)
            wall = time.monotonic() - started
            if proc.returncode != 0:
                print(proc.stderr[-3000:], file=sys.stderr)
                return 1
            models = Path(env["RADSCOPE_MODELS"])
            receipt = json.loads((models / "fetched" / f"{CREPE_ID}.json").read_text())
            manifest = json.loads((models / CREPE_ID / "manifest.json").read_text())
            report = {"model": CREPE_ID, "checkpoint_mb": round(disk_bytes(Path(env["HF_HUB_CACHE"])) / 1e6, 1),
                      "export_mb": round(disk_bytes(models / CREPE_ID) / 1e6, 1), "wall_s": round(wall, 1),
                      "steps_s": {s["name"]: s["seconds"] for s in receipt["steps"]},
                      "checks": manifest["checks"], "cpu_count": os.cpu_count(),
                      "load_avg": [round(x, 1) for x in os.getloadavg()]}
    finally:
        hub.stop()
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
