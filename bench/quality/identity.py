"""Identity: every report a benchmark reads, scored against itself, is perfect in every metric.

A report against itself has no error, so a metric that finds one has misread the report (a
sentence that does not match its own copy, a statement read as a comparison it drops). The
reports are every distinct text of the corpora the benchmarks use: the IU X-ray test split
(``report``), PARROT's English translations, SSREE dev (the reference and L1..L5) and, when
given, the IU XML collection's FINDINGS + IMPRESSION; plus the texts the project ships (example
pairs, the layout and style corpora).

``python -m bench identity --iu ReXRank_IUXray_test.json --parrot Fr_sample.csv
--ssree ssree_dev.jsonl [--iu-xml NLMCXR_reports.tgz] [--out identity.json]``: per corpus and
metric, how many self-pairs are perfect, not applicable (outside a metric's scope, with its
reason) or imperfect, and each imperfect one with its score and a detail.

Perfect means the metric's best value: 1.0 for the higher-is-better scores, 0 errors for CREPE.
"""
from __future__ import annotations

import argparse
import csv
import json
import tarfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bench.quality.layouts import METRICS

CLINICAL = METRICS


def iu_reports(path: str) -> list[str]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [rec.get("report") or "" for rec in data.values()]


def parrot_reports(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        return [row.get("English translation") or "" for row in csv.DictReader(handle)]


def ssree_reports(path: str) -> list[str]:
    out: list[str] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                row = json.loads(line)
                out.extend(row.get(k) or "" for k in ("reference", "L1", "L2", "L3", "L4", "L5"))
    return out


def iu_xml_reports(path: str) -> list[str]:
    """FINDINGS and IMPRESSION of each XML report of the IU collection (as the MeSH benchmark
    reads them), under their headings."""
    import xml.etree.ElementTree as ET

    out: list[str] = []
    with tarfile.open(path) as tar:
        for member in tar:
            if not member.isfile() or not member.name.endswith(".xml"):
                continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            root = ET.parse(handle).getroot()
            parts = []
            for label in ("FINDINGS", "IMPRESSION"):
                for node in root.iter("AbstractText"):
                    written = (node.text or "").strip()
                    if node.get("Label") == label and written:
                        parts.append(f"{label}: {written}")
            out.append("\n".join(parts))
    return out


def shipped_reports() -> list[str]:
    """The texts the project ships: its example pairs and its layout and style corpora."""
    from bench.quality import layouts, styles
    from radscope.engine.io.examples import example_pairs

    texts = [t for ex in example_pairs() for t in (ex.pair.reference, ex.pair.candidate)]
    for pairs in (layouts.corpus(), styles.corpus()):
        texts += [t for item in pairs for t in (item.pair.reference, item.pair.candidate)]
    return texts


def distinct(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(t for t in texts if t and t.strip()))


def self_scores(texts: Sequence[str], metric_names: Sequence[str] = CLINICAL) -> dict[str, Any]:
    """Score each text against itself with the rules readers; tally per metric."""
    from radscope.engine.api import Scorer

    scorer = Scorer(list(metric_names), extractor="rules")
    try:
        records = scorer.score(list(texts), list(texts)).records if texts else []
    finally:
        scorer.close()
    table: dict[str, Any] = {}
    for name in metric_names:
        row: dict[str, Any] = {"perfect": 0, "not_applicable": 0, "imperfect": []}
        for text, record in zip(texts, records, strict=True):
            result = record["metrics"][name]
            if not_applicable(result):
                row["not_applicable"] += 1
            elif perfect(name, result):
                row["perfect"] += 1
            else:
                row["imperfect"].append({"text": text, "score": result.get("score"),
                                         "error": result.get("error")})
        table[name] = row
    return table


def not_applicable(result: dict[str, Any]) -> bool:
    """Outside the metric's scope, with its reason (a brain MRI for a chest-radiograph metric;
    no SRR label named by either report): no score, and none is owed."""
    return bool(result.get("not_applicable")) or str(result.get("error") or "").startswith(
        "not applicable")


def perfect(name: str, result: dict[str, Any]) -> bool:
    """The metric's best value (CREPE counts errors: 0; every other score is 1.0 at best)."""
    score = result.get("score")
    if not isinstance(score, (int, float)):
        return False
    return score == 0 if name == "crepe" else score == 1.0


def imperfect_texts(table: dict[str, Any]) -> set[str]:
    return {item["text"] for row in table.values() for item in row["imperfect"]}


def cmd_identity(args: argparse.Namespace) -> int:
    corpora: dict[str, list[str]] = {"shipped": distinct(shipped_reports())}
    for flag, name, reader in (("iu", "iu", iu_reports), ("parrot", "parrot", parrot_reports),
                               ("ssree", "ssree", ssree_reports),
                               ("iu_xml", "iu_xml", iu_xml_reports)):
        path = getattr(args, flag)
        if not path:
            continue
        if not Path(path).exists():
            print(f"identity --{flag.replace('_', '-')}: data not found at {path!r}; skipping "
                  "(see ../shared/data/README.md)")
            continue
        corpora[name] = distinct(reader(path))
    report: dict[str, Any] = {}
    failing: set[str] = set()
    for name, texts in corpora.items():
        table = self_scores(texts)
        report[name] = {"n_reports": len(texts), "metrics": table}
        failing |= imperfect_texts(table)
        cells = ", ".join(f"{m} {row['perfect']}+{row['not_applicable']} n/a, "
                          f"{len(row['imperfect'])} imperfect" for m, row in table.items())
        print(f"{name}: {len(texts)} distinct reports; {cells}")
    total = sum(len(t) for t in corpora.values())
    print(f"identity: {total - len(failing)} of {total} reports perfect in every metric "
          f"({len(failing)} imperfect)")
    for text in sorted(failing)[:20]:
        print(f"  imperfect: {text[:160]!r}")
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("identity", help="every report against itself: perfect in every metric")
    p.add_argument("--iu", help="ReXRank_IUXray_test.json (IU X-ray test split)")
    p.add_argument("--parrot", help="parrot_v0/Fr_sample.csv")
    p.add_argument("--ssree", help="ssree_dev/ssree_dev.jsonl (reference and L1..L5)")
    p.add_argument("--iu-xml", dest="iu_xml", help="iu_xray/NLMCXR_reports.tgz (3,955 XML reports)")
    p.add_argument("--out", help="write the JSON report here")
    p.set_defaults(func=cmd_identity)

