"""Benchmarks of the rules extractors on real data (validation spec §2 and §3).

- ``python -m bench rules-triplets --iu ReXRank_IUXray_test.json --ssree ssree_dev.jsonl
  --metrics radsem,bleu,rouge --extractor rules``: synonym / antonym triplet accuracy per flip
  type (generator in ``rules_triplets``), each metric through the registry.
- ``python -m bench rules-mesh --data NLMCXR_reports.tgz [--labeller clear-rules|srr]``:
  presence labels against the IU X-ray manual MeSH codes (mapping table
  ``engine/data/mesh_map.json``): positive and negative F1 per condition, @13, @5 and micro,
  with the confusion per condition. The labeller is the CLEAR rules extractor or the SRR
  labeller (SRR labels from rules by default, an SRR-BERT encoder with ``--srr-model``), whose
  leaf labels become conditions through ``engine/data/srr_to_clear.json``.

SSREE monotonicity for ``radsem --extractor rules`` runs through the existing ``ssree``
command. Data paths are arguments; absent data is reported and skipped (exit 0).
"""
from __future__ import annotations

import argparse
import io
import json
import tarfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from bench.corpora import rules_triplets
from radscope.engine.context import RuntimeContext
from radscope.engine.io import dataio
from radscope.engine.io.reports import ReportPair
from radscope.engine.metrics.clear.schema import CONDITIONS, TOP5, top5_conditions
from radscope.engine.metrics.framework.registry import MetricRegistry
from radscope.engine.reader.versions import READER_RULES_VERSION
from radscope.layout import folder

MESH_MAP_PATH = folder("engine") / "data" / "mesh_map.json"
SRR_MAP_PATH = MESH_MAP_PATH.with_name("srr_to_clear.json")


def missing(path: str | None, what: str) -> bool:
    if path and Path(path).exists():
        return False
    print(f"{what}: data not found at {path!r}; skipping (see ../shared/data/README.md)")
    return True


def _machine() -> dict[str, Any]:
    from bench.common import machine_info

    return machine_info()


# --------------------------------------------------------------------------- triplets


def cmd_triplets(args: argparse.Namespace) -> int:
    from radscope.engine.commands import _collect_options

    registry: MetricRegistry = args.registry
    sources: dict[str, list[str]] = {}
    if args.iu and not missing(args.iu, "rules-triplets (IU X-ray)"):
        sources["iu_xray"] = rules_triplets.iu_sentences(args.iu)
    if args.ssree and not missing(args.ssree, "rules-triplets (SSREE)"):
        sources["ssree"] = rules_triplets.ssree_sentences(args.ssree)
    if not sources:
        return 0
    triplets = rules_triplets.build_triplets(sources, per_type=args.per_type)
    ctx = RuntimeContext(options=_collect_options(args))
    report: dict[str, Any] = {"benchmark": "rules-triplets", "machine": _machine(),
                              "sources": {k: str(getattr(args, "iu" if k == "iu_xray" else "ssree"))
                                          for k in sources},
                              "n_triplets": len(triplets), "metrics": {},
                              "published_rate_eval": {"RadSEM": 99.67, "GREEN": 98.0,
                                                      "RaTEScore": 62.44, "BLEU-1": 56.43,
                                                      "ROUGE-L": 47.25}}
    try:
        for name in registry.parse_metric_list(args.metrics):
            spec = registry.get(name)
            metric = spec.build(ctx)

            def scorer(pairs: list[tuple[str, str]], metric=metric) -> list[float | None]:
                results = metric.score_pairs([ReportPair(str(i), r, c)
                                              for i, (r, c) in enumerate(pairs)])
                return [None if x.error else x.score for x in results]

            start = time.perf_counter()
            figures = rules_triplets.triplet_accuracy(
                triplets, scorer, higher_is_better=spec.card.direction == "higher")
            figures["seconds"] = round(time.perf_counter() - start, 2)
            figures["signature"] = metric.signature()
            report["metrics"][name] = figures
            by_type = "  ".join(f"{k} {v:.1f}" if v is not None else f"{k} n/a"
                                for k, v in figures["by_flip_type"].items())
            print(f"{name:<8} overall {figures['overall']:.1f}%  ({by_type})  n={figures['n']}")
            metric.close()
    finally:
        ctx.close()
    if args.write_triplets:
        dataio.write_jsonl([t.to_json() for t in triplets], args.write_triplets)
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


# --------------------------------------------------------------------------- MeSH


@dataclass(frozen=True)
class IuReport:
    uid: str
    text: str  # FINDINGS + IMPRESSION, with headers
    codes: tuple[str, ...]  # MeSH <major> codes


def read_iu_archive(path: str | Path) -> Iterator[IuReport]:
    """Reports of the NLMCXR_reports.tgz archive, read in memory (nothing is unpacked)."""
    with tarfile.open(path, "r:gz") as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            if not member.isfile() or not member.name.endswith(".xml"):
                continue
            fh = archive.extractfile(member)
            if fh is None:
                continue
            root = ET.parse(io.BytesIO(fh.read())).getroot()
            sections = {el.get("Label"): (el.text or "").strip()
                        for el in root.iter("AbstractText")}
            text = "\n".join(f"{label}: {sections[label]}" for label in ("FINDINGS", "IMPRESSION")
                             if sections.get(label))
            uid = root.find("uId")
            yield IuReport(uid=uid.get("id", member.name) if uid is not None else member.name, text=text,
                           codes=tuple((m.text or "").strip() for m in root.iter("major")))


@lru_cache(maxsize=1)
def mesh_rules() -> list[dict[str, Any]]:
    return json.loads(MESH_MAP_PATH.read_text(encoding="utf-8"))["rules"]


def mesh_conditions(codes: tuple[str, ...]) -> set[str]:
    """The CLEAR conditions a report's MeSH codes mean, by the mapping table."""
    found = set()
    for code in codes:
        head, *qualifiers = [p.strip().lower() for p in code.split("/")]
        for rule in mesh_rules():
            if rule["term"].lower() != head:
                continue
            wanted = [q.lower() for q in rule.get("qualifiers_any", [])]
            vetoed = [q.lower() for q in rule.get("qualifiers_none", [])]
            if wanted and not any(q in qualifiers for q in wanted):
                continue
            if any(q in qualifiers for q in vetoed):
                continue
            found.add(rule["condition"])
    return found


def _f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


Presence = dict[str, str]  # condition -> positive | negative | unclear (not mentioned)
Labeller = Callable[[Sequence[str]], list[Presence]]


def clear_rules_labeller(texts: Sequence[str]) -> list[Presence]:
    """Stage-1 presence of the CLEAR rules extractor, one dict per report."""
    from radscope.engine.metrics.clear.rules import read_report

    return [read_report(text).presence for text in texts]


@lru_cache(maxsize=1)
def srr_condition_map() -> dict[str, tuple[str, ...]]:
    """CLEAR condition -> the SRR-BERT leaves that mean it (``srr_to_clear.json``)."""
    table = json.loads(SRR_MAP_PATH.read_text(encoding="utf-8"))["conditions"]
    return {condition: tuple(leaves) for condition, leaves in table.items()}


def srr_presence(labels: Iterable[str]) -> Presence:
    """CLEAR presence for the mapped conditions from one report's SRR leaf labels.

    Present beats Uncertain beats Absent across a condition's leaves (one sentence may say
    "small left effusion" and another "no right effusion"); a label without a status (a
    leaves-only model) counts as Present. No mapped label leaves the condition "unclear", which
    is what the CLEAR extractors say of a condition a report does not mention.
    """
    from radscope.models.srr_labels import split_status

    rank = {"Absent": 1, "Uncertain": 2, "Present": 3}
    best: dict[str, int] = {}
    for label in labels:
        name, status = split_status(label)
        best[name] = max(best.get(name, 0), rank.get(status or "Present", 0))
    out: Presence = {}
    for condition, leaves in srr_condition_map().items():
        top = max((best.get(leaf, 0) for leaf in leaves), default=0)
        out[condition] = {3: "positive", 2: "unclear", 1: "negative"}.get(top, "unclear")
    return out


def srr_labeller(registry: MetricRegistry, ctx: Any) -> tuple[Labeller, dict[str, Any]]:
    """The run's SRR labeller (SRR labels from rules, or an SRR-BERT encoder, as the options
    choose) as a presence labeller, and a description of what ran."""
    from radscope.engine.io.reports import split_utterances
    from radscope.engine.metrics.framework.encoder_extraction import EncoderExtractor
    from radscope.engine.metrics.framework.extraction import ExtractorMetric
    from radscope.engine.metrics.srr.rule_labels import report_labels
    from radscope.engine.reader.findings import read_report
    from radscope.models.srr_labels import LabelLevel

    metric = registry.get("srr").build(ctx)
    if not isinstance(metric, ExtractorMetric):
        raise TypeError(f"the srr metric is a {type(metric).__name__}, not an extractor metric")
    info = metric.model()
    if info is None:
        raise TypeError("the srr metric names no labeller")
    described = {"model": info.id, "demo_grade": info.demo_grade, "device": info.device,
                 "signature": metric.signature()}
    if metric.extractor.kind == "rules":
        def rules_label(texts: Sequence[str]) -> list[Presence]:
            return [srr_presence(report_labels(read_report(text))[0]) for text in texts]

        return rules_label, described
    encoder = cast(EncoderExtractor, metric.extractor).encoder()
    if LabelLevel(encoder.manifest.label_level).is_upper:
        raise ValueError(f"{encoder.artifact.id} predicts upper-level labels; the MeSH benchmark "
                         "maps leaf labels: pick a leaves or leaves-with-statuses model")

    def label(texts: Sequence[str]) -> list[Presence]:
        utterances = [split_utterances(text) for text in texts]
        distinct = list(dict.fromkeys(u for utts in utterances for u in utts))
        labels_of = dict(zip(distinct, encoder.utterance_labels(distinct), strict=True))
        return [srr_presence(lab for u in utts for lab in labels_of[u]) for utts in utterances]

    return label, described


def mesh_agreement(reports: list[IuReport], labeller: Labeller = clear_rules_labeller,
                   mapped: Iterable[str] = CONDITIONS) -> dict[str, Any]:
    """Per-condition confusion and F1 of a presence labeller against the MeSH codes.

    Human positive = a mapped code is present. Human negative = no mapped code (the codes list
    only what is present, so absence of a code is read as absence of the finding: closed
    world). Labeller "unclear" is neither class: it costs recall in both. A condition the
    labeller cannot express (not in ``mapped``) counts as never labelled, so @13 stays
    comparable across labellers; ``pos_f1@mapped`` averages over the ones it can.
    """
    start = time.perf_counter()
    presence = labeller([report.text for report in reports])
    elapsed = time.perf_counter() - start
    mapped = set(mapped)
    per: dict[str, dict[str, Any]] = {c: {k: 0 for k in ("tp", "fp", "fn", "tn", "pos_unclear",
                                                         "neg_tp", "neg_fp", "neg_fn")}
                                      for c in CONDITIONS}
    for report, labels in zip(reports, presence, strict=True):
        truth = mesh_conditions(report.codes)
        for c in CONDITIONS:
            human, got = c in truth, labels.get(c, "unclear")
            cell = per[c]
            if human:
                cell["tp" if got == "positive" else "fn"] += 1
                cell["pos_unclear"] += got == "unclear"
                cell["neg_fp"] += got == "negative"
            else:
                cell["fp" if got == "positive" else "tn"] += 1
                cell["neg_tp" if got == "negative" else "neg_fn"] += 1
    for c, cell in per.items():
        cell["support"] = cell["tp"] + cell["fn"]
        cell["mapped"] = c in mapped
        cell["pos_f1"] = round(_f1(cell["tp"], cell["fp"], cell["fn"]), 4)
        cell["neg_f1"] = round(_f1(cell["neg_tp"], cell["neg_fp"], cell["neg_fn"]), 4)

    def mean(key: str, conditions: list[str]) -> float | None:
        return round(sum(per[c][key] for c in conditions) / len(conditions), 4) if conditions else None

    supported = [c for c in CONDITIONS if per[c]["support"]]
    totals = {k: sum(per[c][k] for c in CONDITIONS) for k in ("tp", "fp", "fn", "neg_tp",
                                                             "neg_fp", "neg_fn")}
    return {
        "n_reports": len(reports), "ms_per_report": round(elapsed * 1000 / max(1, len(reports)), 3),
        "pos_f1@13": mean("pos_f1", list(CONDITIONS)),
        "pos_f1@supported": mean("pos_f1", supported),
        "pos_f1@mapped": mean("pos_f1", [c for c in supported if c in mapped]),
        "pos_f1@5": mean("pos_f1", top5_conditions("code", "positive")),
        "pos_micro_f1": round(_f1(totals["tp"], totals["fp"], totals["fn"]), 4),
        "neg_f1@13": mean("neg_f1", list(CONDITIONS)),
        "neg_f1@5": mean("neg_f1", top5_conditions("code", "negative")),
        "neg_micro_f1": round(_f1(totals["neg_tp"], totals["neg_fp"], totals["neg_fn"]), 4),
        "top5_sets": TOP5["code"], "per_condition": per,
        "paper_context_mimic_pos_f1@13": {"GPT-4o": 0.805, "Llama-3.1-8B": 0.736,
                                          "CheXbert": 0.695, "CheXpert labeler": 0.674},
    }


def cmd_mesh(args: argparse.Namespace) -> int:
    from radscope.engine.commands import _collect_options

    registry: MetricRegistry = args.registry
    if missing(args.data, "rules-mesh"):
        return 0
    reports = [r for r in read_iu_archive(args.data) if r.text.strip()]
    if args.limit:
        reports = reports[:args.limit]
    ctx = RuntimeContext(options=_collect_options(args))
    try:
        if args.labeller == "srr":
            labeller, model = srr_labeller(registry, ctx)
            figures = mesh_agreement(reports, labeller, mapped=srr_condition_map())
            mapping = [MESH_MAP_PATH.name, SRR_MAP_PATH.name]
        else:
            model = {"model": READER_RULES_VERSION, "demo_grade": False, "device": "cpu",
                     "signature": registry.get("clear").build(ctx).signature()}
            figures = mesh_agreement(reports)
            mapping = [MESH_MAP_PATH.name]
    finally:
        ctx.close()
    demo = " [demo-grade model]" if model["demo_grade"] else ""
    print(f"{args.labeller} ({model['model']}{demo}) vs IU MeSH (n={figures['n_reports']}): "
          f"pos F1@13 {figures['pos_f1@13']:.3f}  @mapped {figures['pos_f1@mapped']:.3f}"
          f"  @5 {figures['pos_f1@5']:.3f}  micro {figures['pos_micro_f1']:.3f}  |  neg F1@13 "
          f"{figures['neg_f1@13']:.3f}  @5 {figures['neg_f1@5']:.3f}  micro "
          f"{figures['neg_micro_f1']:.3f}  ({figures['ms_per_report']:.2f} ms/report)")
    print(f"{'condition':<27}{'support':>8}{'TP':>6}{'FP':>6}{'FN':>6}{'unclear':>8}{'posF1':>7}"
          f"{'negF1':>7}")
    for c, cell in figures["per_condition"].items():
        note = "" if cell["mapped"] else "   (labeller has no such label)"
        print(f"{c:<27}{cell['support']:>8}{cell['tp']:>6}{cell['fp']:>6}{cell['fn']:>6}"
              f"{cell['pos_unclear']:>8}{cell['pos_f1']:>7.3f}{cell['neg_f1']:>7.3f}{note}")
    if args.out:
        dataio.write_json({"benchmark": "rules-mesh", "labeller": args.labeller, **model,
                           "data": str(args.data), "machine": _machine(), "mapping": mapping,
                           **figures}, args.out)
        print(f"report written to {args.out}")
    return 0


def add_metric_commands(sub: argparse._SubParsersAction, registry: MetricRegistry) -> None:
    from radscope.engine.commands import _add_metric_options

    p = sub.add_parser("rules-triplets", help="synonym / antonym triplets per flip type (§2)")
    p.add_argument("--iu", help="ReXRank_IUXray_test.json")
    p.add_argument("--ssree", help="ssree_dev.jsonl")
    p.add_argument("--metrics", default="radsem,bleu,rouge")
    p.add_argument("--per-type", type=int, default=100,
                   help="triplets per flip type and source (default 100)")
    p.add_argument("--write-triplets", help="also write the triplets (JSONL) here")
    p.add_argument("--out", help="JSON report path")
    _add_metric_options(p, registry)
    p.set_defaults(func=cmd_triplets)

    p = sub.add_parser("rules-mesh", help="presence labels vs IU X-ray MeSH codes (§3)")
    p.add_argument("--data", help="NLMCXR_reports.tgz")
    p.add_argument("--labeller", choices=("clear-rules", "srr"), default="clear-rules",
                   help="CLEAR rules extractor (default) or the SRR labeller: SRR labels from "
                        "rules under --extractor rules, or an encoder named by --srr-model")
    p.add_argument("--limit", type=int)
    p.add_argument("--out", help="JSON report path")
    _add_metric_options(p, registry)
    p.set_defaults(func=cmd_mesh)
