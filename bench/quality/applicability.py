"""How well the report-text exam detector (engine.eligibility.applicability) finds modality and body area.

``python -m bench applicability --ssree ssree_dev.jsonl --iu NLMCXR_reports.tgz
[--parrot Fr_sample.csv]``: on SSREE, detected modality and area against the labelled
``examined_type`` / ``examined_area`` of each reference; on IU X-ray (every report a chest
radiograph) and PARROT (CT / MR / US / X-ray of other areas, English translations), whether
the chest-radiograph scope decision is right. The decision is what matters for users: a
chest-radiograph metric scored on a CT, or refused on a chest film.
"""
from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from radscope.engine.eligibility import applicability
from radscope.engine.io import dataio


def _decision(exam: applicability.Exam) -> bool:
    return applicability.outside_intended_studies(applicability.CHEST_RADIOGRAPH, exam) is None


def scope_figures(items: Iterable[tuple[str, str | None, str | None]]) -> dict[str, Any]:
    """Items are (text, labelled modality, labelled area). Modality accuracy (unknown counts
    as wrong), area overlap, and the scope decision from the text against the labels'."""
    n = modality_ok = area_ok = 0
    decisions: Counter[str] = Counter()
    confusion: Counter[str] = Counter()
    for text, modality, area in items:
        n += 1
        gold = applicability.Exam(applicability.normalise_modality(modality),
                                  applicability.normalise_areas(area), "given")
        found = applicability.exam_of(text)
        modality_ok += found.modality == gold.modality
        area_ok += bool(found.areas & gold.areas)
        confusion[f"{gold.modality}->{found.modality}"] += 1
        truth, guess = _decision(gold), _decision(found)
        decisions[("in" if truth else "out") + "/" + ("in" if guess else "out")] += 1
    right = decisions["in/in"] + decisions["out/out"]
    return {"n": n, "modality_accuracy": round(100 * modality_ok / n, 1) if n else None,
            "area_overlap": round(100 * area_ok / n, 1) if n else None,
            "scope_accuracy": round(100 * right / n, 1) if n else None,
            "scope_labelled_vs_detected": dict(decisions),
            "modality_confusion": dict(confusion.most_common())}


def _ssree_items(path: str) -> list[tuple[str, str | None, str | None]]:
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [(r["reference"], r.get("examined_type"), r.get("examined_area")) for r in rows]


def _iu_items(path: str) -> list[tuple[str, str | None, str | None]]:
    from bench.quality.rules import read_iu_archive

    return [(r.text, "CR", "chest") for r in read_iu_archive(path) if r.text.strip()]


def _parrot_items(path: str) -> list[tuple[str, str | None, str | None]]:
    with Path(path).open(encoding="utf-8", newline="") as fh:
        return [(row["English translation"], row["DICOM Modality"], row["Area"])
                for row in csv.DictReader(fh) if row.get("English translation")]


def cmd_applicability(args: argparse.Namespace) -> int:
    report: dict[str, Any] = {"benchmark": "applicability", "sets": {}}
    for name, path, read in (("ssree", args.ssree, _ssree_items), ("iu_xray", args.iu, _iu_items),
                             ("parrot", args.parrot, _parrot_items)):
        if not path or not Path(path).exists():
            print(f"{name}: data not found at {path!r}; skipping")
            continue
        figures = scope_figures(read(path))
        report["sets"][name] = figures
        print(f"{name:<8} n={figures['n']}  modality {figures['modality_accuracy']}%  "
              f"area {figures['area_overlap']}%  chest-radiograph scope "
              f"{figures['scope_accuracy']}%  (labelled/detected {figures['scope_labelled_vs_detected']})")
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("applicability", help="exam detector vs labelled modality / area")
    p.add_argument("--ssree", help="ssree_dev.jsonl (examined_type, examined_area)")
    p.add_argument("--iu", help="NLMCXR_reports.tgz (all chest radiographs)")
    p.add_argument("--parrot", help="PARROT Fr_sample.csv (DICOM Modality, Area, English translation)")
    p.add_argument("--out", help="JSON report path")
    p.set_defaults(func=cmd_applicability)
