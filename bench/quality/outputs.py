"""Recorded outputs: what every metric says under the rules extractor on fixed inputs, so that a
speed change can show it changed nothing (scores, details and signatures byte for byte).

``python -m bench outputs --iu ReXRank_IUXray_test.json --ssree ssree_dev.jsonl
--out outputs.jsonl`` writes one canonical JSON line per (set, pair): every production metric
with ``--extractor rules``, each result without its ``elapsed_ms`` (a timing, not an output),
keys sorted. The sets: the project's example pairs (through the runner), 2,000 IU X-ray pairs
crossed as ``bench.speed.scale`` crosses them (through the in-process API, ``Scorer.score``)
and the SSREE dev set, five candidates per reference, once as the CLI scores it (modality and
area given, chest-only metrics "not applicable" elsewhere) and once forced (as ``bench
ssree``). It prints one SHA-256 per set; ``--compare earlier.jsonl`` names the first pair that
differs from an earlier recording (made by the same command at another commit).
``--write-fixture`` rewrites the examples' recording that ``tests/bench/quality/test_outputs.py``
compares with. Only that fixture is committed; the shared data's outputs never are.
"""
from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from radscope.engine.io.reports import ReportPair
from radscope.layout import repository_root

ROOT = repository_root()
FIXTURE = ROOT / "tests" / "fixtures" / "rules" / "examples_outputs.jsonl"
IU_PAIRS = 2000


def _canonical(rows: Sequence[dict[str, Any]], label: str) -> Iterator[str]:
    for row in rows:
        metrics = {name: {k: v for k, v in result.items() if k != "elapsed_ms"}
                   for name, result in row["metrics"].items()}
        yield json.dumps({"set": label, "id": row["id"], "metrics": metrics}, sort_keys=True,
                         ensure_ascii=False)


def _runner_rows(pairs: list[ReportPair], **options: Any) -> list[dict[str, Any]]:
    from radscope.engine.api import Scorer
    from radscope.engine.metrics.framework.registry import production
    from radscope.engine.runs.runner import run_batch

    with Scorer(production().names(), extractor="rules", **options) as scorer:
        return run_batch(pairs, scorer.metric_names, scorer.context, registry=scorer.registry,
                         metrics=scorer.metrics).rows


def example_lines() -> list[str]:
    """The example pairs' recorded outputs (the committed fixture's lines)."""
    from radscope.engine.io.examples import example_pairs

    return list(_canonical(_runner_rows([e.pair for e in example_pairs()]), "examples"))


def iu_lines(path: str, n: int = IU_PAIRS) -> list[str]:
    from bench.speed.scale import load_reports, synthetic_pairs
    from radscope.engine.api import Scorer
    from radscope.engine.metrics.framework.registry import production

    reports, _ = load_reports(path)
    references, candidates = zip(*synthetic_pairs(reports, n), strict=True)
    with Scorer(production().names(), extractor="rules") as scorer:
        return list(_canonical(scorer.score(references, candidates).records, "iu"))


def ssree_lines(path: str) -> list[str]:
    from bench.quality.ssree import load_ssree, ssree_pairs

    pairs = ssree_pairs(load_ssree(path))
    return [*_canonical(_runner_rows(pairs), "ssree"),
            *_canonical(_runner_rows(pairs, force_applicability=True), "ssree-forced")]


def cmd_outputs(args: argparse.Namespace) -> int:
    sets = {"examples": example_lines()}
    for label, path, read in (("iu", args.iu, iu_lines), ("ssree", args.ssree, ssree_lines)):
        if path and Path(path).exists():
            sets[label] = read(path)
        else:
            print(f"outputs: {label} data not found at {path!r}; skipping that set")
    lines = [line for set_lines in sets.values() for line in set_lines]
    for label, set_lines in sets.items():
        digest = hashlib.sha256("\n".join(set_lines).encode()).hexdigest()
        print(f"{label:<9} {len(set_lines):>5} pairs  sha256 {digest}")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"outputs written to {args.out}")
    if args.write_fixture:
        FIXTURE.write_text("\n".join(sets["examples"]) + "\n", encoding="utf-8")
        print(f"fixture written to {FIXTURE}")
    if args.compare:
        earlier = Path(args.compare).read_text(encoding="utf-8").splitlines()
        differing = [(a, b) for a, b in zip(earlier, lines, strict=False) if a != b]
        if len(earlier) != len(lines) or differing:
            print(f"DIFFERENT from {args.compare}: {len(earlier)} lines there, {len(lines)} "
                  f"here, {len(differing)} differ")
            if differing:
                print(f"first difference:\n  there {differing[0][0][:400]}\n  here  "
                      f"{differing[0][1][:400]}")
            return 1
        print(f"byte-identical to {args.compare} ({len(lines)} lines)")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("outputs", help="record every rules metric's outputs (or compare them)")
    p.add_argument("--iu", help="ReXRank_IUXray_test.json (2,000 crossed pairs)")
    p.add_argument("--ssree", help="ssree_dev.jsonl")
    p.add_argument("--out", help="where to write the recorded lines")
    p.add_argument("--compare", help="an earlier recording to compare with")
    p.add_argument("--write-fixture", action="store_true",
                   help=f"rewrite {FIXTURE.relative_to(ROOT)} (the examples' recording)")
    p.set_defaults(func=cmd_outputs)
