"""How long another visitor's one-pair BLEU Compare waits while a batch runs (docs/security.md).

    .venv/bin/python -m tests.security.bench_queue [--pairs 4000] [--samples 3]

Starts the app in public mode (rules readers, no model) on 127.0.0.1, has one client start a
batch of ``--pairs`` generated pairs (ROUGE, RadSEM, CLEAR; every text distinct, so the
reader's cache does not help), and once the batch runs, has a second client time a one-pair
BLEU Compare through the page's route (``/compare_panels``) and the API (``/compare``),
``--samples`` times a few seconds apart. Prints the latencies, the same Compare on an idle app
and the batch's own duration, as JSON. Run it from another checkout (``git archive``) to get
the figures of an older tree.
"""
from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

SIDES = ("left", "right")
FINDINGS = ("pleural effusion", "pneumothorax", "consolidation", "atelectasis", "nodule")


def write_pairs(path: Path, n: int) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "reference", "candidate"])
        for i in range(n):
            side, finding = SIDES[i % 2], FINDINGS[i % len(FINDINGS)]
            reference = (f"Small {side} {finding} measuring {i % 9 + 1}.{i % 7} cm. Heart size normal. "
                         f"No pneumothorax. Degenerative changes of the spine, level T{i % 12 + 1}.")
            candidate = (f"Moderate {SIDES[(i + 1) % 2]} {finding} of {i % 5 + 2}.{i % 3} cm. Heart "
                         f"size is normal. Mild degenerative change at T{(i + 3) % 12 + 1}.")
            writer.writerow([f"case-{i}", reference, candidate])
    return path


def timed_compare(client, route: str) -> float:
    started = time.perf_counter()
    if route == "/compare_panels":
        client.predict("No pleural effusion. Heart size normal.", "Small pleural effusion.", "", "", ["bleu"],
                       None, api_name=route)
    else:
        client.predict("No pleural effusion. Heart size normal.", "Small pleural effusion.", "bleu",
                       api_name=route)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4000)
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--gap", type=float, default=5.0, help="seconds between two timed Compares")
    args = parser.parse_args(argv)
    from gradio_client import Client, handle_file

    from tests.ui.conftest import serve

    tmp = Path(tempfile.mkdtemp(prefix="bench-queue-"))
    pairs = write_pairs(tmp / "pairs.csv", args.pairs)
    with serve(tmp, {"extractor": "rules"}, public=True) as app:
        first, second = (Client(app.url, verbose=False, analytics_enabled=False,
                                download_files=tempfile.mkdtemp(dir=tmp)) for _ in range(2))
        idle = {route: min(timed_compare(second, route) for _ in range(3))
                for route in ("/compare_panels", "/compare")}
        started = time.perf_counter()
        job = first.submit(handle_file(str(pairs)), "id", "reference", "candidate", "(none)", "(none)",
                           "(none)", ["rouge", "radsem", "clear"], "", 1, api_name="/batch")
        while len(job.outputs()) < 2 and not job.done():
            time.sleep(0.1)
        time.sleep(args.gap)
        samples: list[dict[str, object]] = []  # each timed Compare, and whether the batch still ran
        for _ in range(args.samples):
            for route in ("/compare_panels", "/compare"):
                if job.done():
                    break
                seconds = timed_compare(second, route)
                samples.append({"route": route, "s": round(seconds, 3), "batch_still_running": not job.done()})
            time.sleep(args.gap)
        job.result(timeout=3600)
        batch_s = time.perf_counter() - started
        first.close()
        second.close()
    report = {"pairs": args.pairs, "batch_metrics": "rouge,radsem,clear (rules)", "batch_s": round(batch_s, 1),
              "idle_compare_s": {k: round(v, 3) for k, v in idle.items()},
              "compare_during_batch": samples,
              "median_s": {route: statistics.median(float(str(x["s"])) for x in samples if x["route"] == route)
                           for route in idle if any(x["route"] == route for x in samples)}}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
