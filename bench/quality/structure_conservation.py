"""Conservation of the rules "Structure report" over real reports:
``python -m bench structure-conservation --data-dir ../shared/data [--out x.json]``.

Every report of the data folder that is there (IU X-ray: the ReXrank test split and the whole
NLMCXR archive; PARROT v0's English translations; SSREE dev: each reference and its five
rewrites) is structured by the rules writer and checked two ways:

- the conservation rule (``engine.structured.check.conservation_problems``): each finding statement
  kept exactly once, nothing listed that is not one of them, the impression's items in order;
- independently of how statements are cut, against the report's own text: every word of the
  findings and impression sections (list numbers aside) is in the output as often as in the
  report, and every listed item is a run of the report's words.

A data set that is absent is named and skipped; the data is never copied into the project.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import re
import tarfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from radscope.engine.io import dataio

_NUMBERING = re.compile(r"(?:^|(?<=\n)|(?<=[.!?;:])\s)\s*\(?\d{1,2}[.)]\s")


def _rexrank(path: Path) -> Iterator[tuple[str, str]]:
    for key, row in json.loads(path.read_text(encoding="utf-8")).items():
        context = re.sub(r"\s+(Comparison:)", r"\n\1", row.get("context") or "")
        yield key, f"{context}\n{row.get('report') or ''}".strip()


def _nlmcxr(path: Path) -> Iterator[tuple[str, str]]:
    with tarfile.open(path, "r:gz") as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            fh = archive.extractfile(member) if member.name.endswith(".xml") else None
            if fh is None:
                continue
            root = ET.parse(io.BytesIO(fh.read())).getroot()
            parts = {el.get("Label"): (el.text or "").strip() for el in root.iter("AbstractText")}
            yield member.name, "\n".join(f"{label}: {parts[label]}" for label in (
                "COMPARISON", "INDICATION", "FINDINGS", "IMPRESSION") if parts.get(label))


def _parrot(path: Path) -> Iterator[tuple[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        for number, row in enumerate(csv.DictReader(fh)):
            yield f"parrot-{number}", row["English translation"]


def _ssree(path: Path) -> Iterator[tuple[str, str]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                for field in ("reference", "L1", "L2", "L3", "L4", "L5"):
                    yield f"{row['name']}:{field}", row[field]


SOURCES = {"iu-rexrank": ("iu_xray/ReXRank_IUXray_test.json", _rexrank),
           "iu-nlmcxr": ("iu_xray/NLMCXR_reports.tgz", _nlmcxr),
           "parrot": ("parrot_v0/Fr_sample.csv", _parrot),
           "ssree": ("ssree_dev/ssree_dev.jsonl", _ssree)}


def check_report(text: str) -> dict[str, Any]:
    """One report's figures: statements, statements kept once, invented items, impression
    kept, and the two text checks (words missing or added; items not a run of its words)."""
    from radscope.engine.structured.check import report_layout, report_parts
    from radscope.engine.structured.rewrite import check_conservation, structure_by_rules

    report = structure_by_rules(text).report
    problems = check_conservation(text, report)
    parts = report_parts(text)
    layout = report_layout(text)
    source = "\n".join(_NUMBERING.sub(" ", t) for t in (layout.findings, layout.impression))
    said = _said_pieces(parts)
    words_in, words_out = _word_counts(source, _NUMBERING.sub(" ", "\n".join(said + report.impression)),
                                       len(said) - len(parts.statements))
    items = [i for h in report.findings.values() for i in h] + report.impression
    return {"statements": len(parts.statements),
            **_problem_counts(problems),
            "impression_items": len(parts.impression),
            "impression_ok": not any(p.startswith("impression") or "impression" in p[:40]
                                     for p in problems),
            "problems": problems,
            "words_missing": sorted((words_in - words_out).elements()),
            "words_added": sorted((words_out - words_in).elements()),
            "items_not_in_text": _items_not_in_text(text, items),
            "left_out": list(parts.left_out),
            **_piece_counts(parts)}


def _said_pieces(parts: Any) -> list[str]:
    """The finding statements as the rules writer cuts them, each piece once whatever number of
    headers it goes under (a piece that names none takes the one before it)."""
    from radscope.engine.structured.organs import statement_pieces

    said: list[str] = []
    previous: tuple[str, ...] = ()
    for statement in parts.statements:
        pieces = statement_pieces(statement.text, statement.context, previous)
        said += [p.text for p in pieces]
        previous = pieces[-1].headers
    return said


def _word_counts(source: str, said: str, cuts: int) -> tuple[Counter[str], Counter[str]]:
    """The words of the report's findings and impression, and of what the output says; the
    report's joining words left out by the ``cuts`` between clauses are not counted missing."""
    from radscope.engine.structured.check import words

    words_in, words_out = Counter(words(source)), Counter(words(said))
    # a cut between two clauses may leave out the word that joined them ("... and ...")
    for _ in range(cuts):
        joining = next((w for w in ("and", "but", "while", "whereas") if (words_in - words_out)[w]), "")
        words_in[joining] -= 1 if joining else 0
    return words_in, words_out


def _problem_counts(problems: list[str]) -> dict[str, int]:
    """The conservation problems counted by kind: statements dropped, said twice, invented."""
    return {"dropped": sum(p.startswith(("left out", "words left out")) for p in problems),
            "twice": sum(p.startswith("said twice") for p in problems),
            "invented": sum(p.startswith("not in the report") for p in problems)}


def _items_not_in_text(text: str, items: list[str]) -> list[str]:
    """The listed items that are not a run of the report's own words (list numbers aside)."""
    from radscope.engine.structured.check import words

    all_words = " ".join(words(_NUMBERING.sub(" ", text)))
    return [i for i in items if f" {' '.join(words(_NUMBERING.sub(' ', i)))} " not in f" {all_words} "]


def _piece_counts(parts: Any) -> dict[str, int]:
    """How many statements are cut into clauses, and how many pieces go under several headers."""
    from radscope.engine.structured.organs import statement_pieces

    return {"split": sum(len(statement_pieces(s.text, s.context)) > 1 for s in parts.statements),
            "multi_header": sum(len(h) > 1 for s in parts.statements
                                for h in [p.headers for p in statement_pieces(s.text, s.context)])}


def cmd_structure_conservation(args: argparse.Namespace) -> int:
    data = Path(args.data_dir)
    summary: dict[str, Any] = {}
    failures: list[dict[str, Any]] = []
    for name, (relative, read) in SOURCES.items():
        path = data / relative
        if not path.exists():
            print(f"structure-conservation: {name}: data not found at {path}; skipping it "
                  "(see ../shared/data/README.md)")
            continue
        totals: Counter[str] = Counter()
        started = time.perf_counter()
        for key, text in read(path):
            if not text.strip():
                totals["empty"] += 1
                continue
            row = check_report(text)
            totals["reports"] += 1
            for field in ("statements", "dropped", "twice", "invented", "impression_items",
                          "split", "multi_header"):
                totals[field] += row[field]
            totals["impression_wrong"] += not row["impression_ok"]
            totals["words_missing"] += len(row["words_missing"])
            totals["words_added"] += len(row["words_added"])
            totals["items_not_in_text"] += len(row["items_not_in_text"])
            totals["reports_with_left_out_text"] += bool(row["left_out"])
            if row["problems"] or row["words_missing"] or row["words_added"] or row["items_not_in_text"]:
                failures.append({"set": name, "report": key, **row})
        totals_json: dict[str, float] = dict(totals)
        totals_json["seconds"] = round(time.perf_counter() - started, 1)
        summary[name] = totals_json
        kept = totals["statements"] - totals["dropped"] - totals["twice"]
        print(f"{name}: {totals['reports']} reports ({totals['empty']} empty), "
              f"{totals['statements']} finding statements, kept once "
              f"{kept}/{totals['statements']} ({100 * kept / max(totals['statements'], 1):.2f} %), "
              f"invented {totals['invented']}, impression items {totals['impression_items']} "
              f"(reports with the impression changed: {totals['impression_wrong']}); against the "
              f"text: words missing {totals['words_missing']}, words added {totals['words_added']}, "
              f"items not in the text {totals['items_not_in_text']}; statements cut in clauses "
              f"{totals['split']}, under several headers {totals['multi_header']}; reports with "
              f"text the format has no place for {totals['reports_with_left_out_text']} "
              f"({totals_json['seconds']} s)")
    if not summary:
        print("structure-conservation: no data set found; nothing measured")
        return 2
    for row in failures[:args.show]:
        print(f"--- {row['set']} {row['report']}: {row['problems'][:3]} missing "
              f"{row['words_missing'][:10]} added {row['words_added'][:10]} "
              f"{row['items_not_in_text'][:2]}")
    if args.out:
        dataio.write_json({"benchmark": "structure-conservation", "summary": summary,
                           "failures": failures}, args.out)
        print(f"report written to {args.out}")
    return 1 if failures else 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("structure-conservation",
                       help="the rules Structure report keeps every finding of every real report")
    p.add_argument("--data-dir", default="../shared/data",
                   help="folder with iu_xray/, parrot_v0/, ssree_dev/ (each optional)")
    p.add_argument("--out", help="JSON report path (figures and every failing report)")
    p.add_argument("--show", type=int, default=10, help="failing reports to print")
    p.set_defaults(func=cmd_structure_conservation)
