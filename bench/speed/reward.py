"""The in-process API as a reward function: pairs per second of one core, fresh texts first.

``python -m bench reward --data ReXRank_IUXray_test.json [--baseline-rev REV]`` times
``radscope.engine.api.Scorer`` on IU X-ray reports crossed into pairs (``bench.speed.scale``; the
project's example pairs without data), on batches of 64, per metric (rules extractor), the
five clinical metrics in one scorer, and one pair per call; beside them, in the same run,
sacreBLEU's and nltk's sentence BLEU and rouge-score's ROUGE-L (the libraries our BLEU and
ROUGE-L reproduce, and the usual reward of a text task). Each figure is CPU time of one pass
(``bench.speed.reward_side``): *fresh* with every text cache of the engine emptied first (a
training run or a new corpus never repeats its texts), *warm* a second pass over the same
texts. With ``--baseline-rev`` the same rows are timed, interleaved repetition by repetition,
in a second process running that commit's code, so the before / after ratio comes from one
run on one machine. It prints the estimate of a GRPO step (prompts x completions pairs, five
clinical metrics, fresh texts): the seconds of one core.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from bench.speed.scale import ROOT, checkout

FIVE = "radsem+clear+crepe+vert+srr"
ROWS = (  # (row, label)
    ("api:bleu", "RadScope bleu"),
    ("lib:sacrebleu", "sacreBLEU sentence_score (effective order)"),
    ("lib:nltk", "nltk sentence_bleu (what our BLEU reproduces)"),
    ("api:rouge", "RadScope rouge"),
    ("lib:rouge-score", "rouge-score RougeScorer rougeL (what our ROUGE-L reproduces)"),
    ("api:radsem", "RadScope radsem (rules)"),
    ("api:clear", "RadScope clear (rules)"),
    ("api:crepe", "RadScope crepe (rules)"),
    ("api:vert", "RadScope vert (rules)"),
    ("api:srr", "RadScope srr (rules)"),
    (f"api:{FIVE}", "RadScope five clinical metrics in one Scorer"),
    ("one:radsem", "RadScope radsem, one pair per call"),
    (f"one:{FIVE}", "RadScope five clinical metrics, one pair per call"),
)


class SideProcess:
    """A ``reward_side`` process in a source tree, asked for one row at a time."""

    def __init__(self, tree: Path, data: str, pairs: int, batch: int, collector: str = "default") -> None:
        env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "PYTHONPATH": str(tree)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.speed.reward_side", data, str(pairs), str(batch),
             *(["--collector", collector] if collector != "default" else [])],
            cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = self._read()

    def _read(self) -> dict[str, Any]:
        out: IO[str] | None = self.proc.stdout
        line = out.readline() if out else ""
        if not line:
            raise RuntimeError(f"the benchmark process exited ({self.proc.wait()})")
        return dict(json.loads(line))

    def measure(self, row: str) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"row": row}) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _figures(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Median pairs/s over the repetitions (fresh and warm) of one row on one side."""
    failed = [r["failed"] for r in runs if "failed" in r]
    if failed:
        return {"failed": failed[0]}
    n = runs[0]["n"]
    fresh = statistics.median(r["fresh_s"] for r in runs)
    warm = statistics.median(r["warm_s"] for r in runs)
    return {"fresh_pairs_per_s": round(n / fresh, 1), "warm_pairs_per_s": round(n / warm, 1),
            "fresh_ms_per_pair": round(1000 * fresh / n, 4), "errors": runs[0]["errors"],
            "fresh_s": [round(r["fresh_s"], 4) for r in runs]}


def _cell(figures: dict[str, Any] | None, key: str) -> str:
    if figures is None:
        return "-"
    return "failed" if "failed" in figures else f"{figures[key]:,.0f}"


def _print_table(rows: list[dict[str, Any]], sides: list[str]) -> None:
    head = "".join(f" | {side} fresh | {side} warm" for side in sides)
    print(f"| what{head}" + (" | fresh after/before |" if len(sides) == 2 else " |"))
    print("|---" + "|---:" * (2 * len(sides) + (len(sides) == 2)) + "|")
    for row in rows:
        cells = "".join(f" | {_cell(row.get(s), 'fresh_pairs_per_s')} | "
                        f"{_cell(row.get(s), 'warm_pairs_per_s')}" for s in sides)
        ratio = ""
        if len(sides) == 2:
            before: Any = row.get(sides[0])
            after: Any = row.get(sides[1])
            ok = before and after and "failed" not in before and "failed" not in after
            ratio = (f" | {after['fresh_pairs_per_s'] / before['fresh_pairs_per_s']:.2f}x"
                     if ok else " | -")
        print(f"| {row['label']}{cells}{ratio} |")


def _one_pair_overhead(rows: dict[str, dict[str, Any]], side: str) -> dict[str, float]:
    """Milliseconds a one-pair call pays above its share of a batch (fresh texts)."""
    out = {}
    for metrics in ("radsem", FIVE):
        batch: Any = rows[f"api:{metrics}"].get(side)
        one: Any = rows[f"one:{metrics}"].get(side)
        if batch and one and "failed" not in batch and "failed" not in one:
            out[metrics] = round(one["fresh_ms_per_pair"] - batch["fresh_ms_per_pair"], 3)
    return out


def cmd_reward(args: argparse.Namespace) -> int:
    from bench.common import machine_info

    wanted = [r for r in ROWS if not args.rows or r[0] in args.rows.split(",")]
    results, names, source = _measure(args, wanted)
    table: list[dict[str, Any]] = [{"row": row, "label": label,
              **{name: _figures(runs) for name, runs in results[row].items()}}
             for row, label in wanted]
    by_row = {r["row"]: r for r in table}
    report: dict[str, Any] = {
        "benchmark": "reward", "machine": machine_info(), "data": source,
        "pairs": args.pairs, "batch": args.batch, "repeats": args.repeats,
        "baseline_rev": args.baseline_rev, "clock": "CPU time of one process (one core)",
        "collector": args.collector,
        "rows": table}
    print(f"\n{args.pairs} pairs ({report['data']}), batches of {args.batch}, median of "
          f"{args.repeats}; pairs/s of one core (CPU time); garbage collector: {args.collector}")
    _print_table(table, names)
    if f"api:{FIVE}" in by_row:
        report["grpo_step"] = _grpo_step(by_row[f"api:{FIVE}"], names, args)
    if all(f"{kind}:{m}" in by_row for kind in ("api", "one") for m in ("radsem", FIVE)):
        report["one_pair_overhead_ms"] = {name: _one_pair_overhead(by_row, name) for name in names}
        print(f"one pair per call, ms above its share of a batch: {report['one_pair_overhead_ms']}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))
    print(f"report written to {args.out}")
    return 0


def _measure(args: argparse.Namespace, wanted: list[tuple[str, str]]
             ) -> tuple[dict[str, dict[str, list[dict[str, Any]]]], list[str], str]:
    """Every wanted row's passes on each side (the baseline's checkout, then this tree),
    repetition after repetition; the side names and the pairs' source."""
    with tempfile.TemporaryDirectory(prefix="radscope-reward-") as tmp:
        trees = {"after": ROOT}
        if args.baseline_rev:
            base = checkout(args.baseline_rev, Path(tmp))
            # The baseline is timed by this tree's benchmark code, run against its own engine.
            shutil.rmtree(base / "bench", ignore_errors=True)
            shutil.copytree(ROOT / "bench", base / "bench", ignore=shutil.ignore_patterns("__pycache__"))
            trees = {"before": base, "after": ROOT}
        # Each side runs in its own tree: a relative data path must not change meaning there.
        data = str(Path(args.data).resolve()) if args.data else ""
        sides = {name: SideProcess(tree, data, args.pairs, args.batch, args.collector)
                 for name, tree in trees.items()}
        sources = {s.ready["source"] for s in sides.values()}
        if len(sources) > 1:
            raise SystemExit(f"the two sides read different pairs: {sorted(sources)}")
        try:
            results: dict[str, dict[str, list[dict[str, Any]]]] = {r: {} for r, _ in wanted}
            for repeat in range(args.repeats):
                for row, _ in wanted:
                    # Libraries are the same on both sides: timed once, in the current one.
                    for name in (["after"] if row.startswith("lib:") else list(sides)):
                        results[row].setdefault(name, []).append(sides[name].measure(row))
                print(f"repetition {repeat + 1} of {args.repeats} done", flush=True)
        finally:
            for side in sides.values():
                side.close()
    return results, list(sides), sources.pop()


def _grpo_step(five: dict[str, Any], names: list[str], args: argparse.Namespace) -> dict[str, float]:
    """Seconds of one core a GRPO step's rewards take with the five clinical metrics, per side."""
    step = {}
    n = args.prompts * args.completions
    for name in names:
        figures = five.get(name)
        if figures and "failed" not in figures:
            step[name] = round(n / figures["fresh_pairs_per_s"], 2)
            print(f"GRPO step ({args.prompts} prompts x {args.completions} completions, five "
                  f"clinical metrics, fresh texts), {name}: {step[name]} s of one core")
    return step


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("reward", help="in-process API pairs/s (fresh and warm texts), beside "
                                      "sacreBLEU, nltk and rouge-score")
    p.add_argument("--data", help="ReXRank_IUXray_test.json (default: the example pairs)")
    p.add_argument("--pairs", type=int, default=590, help="pairs per pass")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--repeats", type=int, default=3, help="interleaved repetitions (median)")
    p.add_argument("--rows", help=f"comma-separated rows (default all: {', '.join(r for r, _ in ROWS)})")
    p.add_argument("--baseline-rev", help="git commit whose code is timed beside this one")
    p.add_argument("--prompts", type=int, default=256, help="GRPO step: prompts")
    p.add_argument("--completions", type=int, default=8, help="GRPO step: completions per prompt")
    p.add_argument("--collector", choices=("default", "off"), default="default",
                   help="the measuring processes' cyclic garbage collector: as Python starts it "
                        "(what a host's process has), or off for the whole process (the code's "
                        "own cost, without the collections its allocations trigger)")
    p.add_argument("--out", default="bench-results/reward.json")
    p.set_defaults(func=cmd_reward)
