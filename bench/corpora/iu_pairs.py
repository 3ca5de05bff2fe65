"""Sanity pairs from the IU X-ray test split: each report against itself and against another study.

``python -m bench iu-pairs --data ReXRank_IUXray_test.json --out pairs.jsonl`` writes a
pairs file for ``radscope score``: identical pairs must score perfectly on every
similarity metric, and mismatched pairs (a report against the next study's report) must not.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from radscope.engine.io import dataio


def iu_sanity_pairs(path: str | Path, limit: int | None = None) -> list[dict[str, str]]:
    """``<id>:self`` rows (report vs itself) and ``<id>:other`` rows (vs the next study's report)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    studies = [(sid, rec.get("report") or "") for sid, rec in data.items() if (rec.get("report") or "").strip()]
    if limit:
        studies = studies[:limit]
    rows = []
    for i, (sid, report) in enumerate(studies):
        other_id, other = studies[(i + 1) % len(studies)]
        rows.append({"id": f"{sid}:self", "reference": report, "candidate": report, "modality": "CR"})
        rows.append({"id": f"{sid}:other", "reference": report, "candidate": other, "modality": "CR",
                     "other_study": other_id})
    return rows


def cmd_iu_pairs(args: argparse.Namespace) -> int:
    if not args.data or not Path(args.data).exists():
        print(f"iu-pairs: data not found at {args.data!r}; skipping (see ../shared/data/README.md)")
        return 0
    rows = iu_sanity_pairs(args.data, args.limit)
    dataio.write_jsonl(rows, args.out)
    print(f"wrote {len(rows)} pairs ({len(rows) // 2} studies, self + other) to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("iu-pairs", help="self/other sanity pairs from the IU X-ray test split")
    p.add_argument("--data", help="path to ReXRank_IUXray_test.json")
    p.add_argument("--out", required=True, help="pairs JSONL to write")
    p.add_argument("--limit", type=int, help="only the first N studies")
    p.set_defaults(func=cmd_iu_pairs)
