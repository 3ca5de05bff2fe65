"""The rules rewrite of "Structure report": ``python -m bench structure-rules``.

Times ``radscope.engine.structured.rewrite.structure_by_rules`` on both reports of the six example pairs
and on three PARROT-like reports written by the project (CT abdomen, MR brain, CT chest: not
chest radiographs, so the organ-system headers meet other anatomy), after one warm-up report
that loads the lexicons. Every timed text is read for the first time (the reader caches by
text). Prints each report's structured form and its milliseconds; the target is under 50 ms.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from radscope.engine.io import dataio

# Written for the project in the style of PARROT's English translations (no real patient).
PARROT_LIKE: tuple[tuple[str, str], ...] = (
    ("CT Abdomen", "CLINICAL INFORMATION: Right upper quadrant pain for two weeks.\n"
     "TECHNIQUE: Contrast-enhanced CT of the abdomen and pelvis, portal venous phase.\n"
     "FINDINGS: The liver is enlarged with a 3 cm hypodense lesion in segment VI, consistent "
     "with a simple cyst. The gallbladder contains several small stones without wall "
     "thickening. The pancreas and spleen are normal. Both kidneys enhance symmetrically; a "
     "4 mm non-obstructing stone in the left kidney. No free fluid. Small bilateral pleural "
     "effusions at the lung bases. Degenerative changes of the lumbar spine.\n"
     "CONCLUSION: Cholelithiasis without cholecystitis. Hepatic cyst. Small left renal stone."),
    ("MR Brain", "INDICATION: Headache and dizziness.\n"
     "FINDINGS: Several punctate T2 hyperintensities in the periventricular white matter of "
     "both frontal lobes, nonspecific, most likely small vessel disease. No restricted "
     "diffusion. The ventricles are normal in size. No mass effect or midline shift. The "
     "pituitary gland is unremarkable. Mucosal thickening of the left maxillary sinus."),
    ("CT Chest", "HISTORY: Smoker, follow-up of a lung nodule.\n"
     "FINDINGS: A 9 mm solid nodule in the right upper lobe, previously 7 mm. Centrilobular "
     "emphysema in both upper lobes. No consolidation. No pleural effusion. The heart is "
     "normal in size; coronary artery calcifications. Mediastinal lymph nodes are not "
     "enlarged. Old healed fracture of the left sixth rib.\n"
     "IMPRESSION: 1. Growing right upper lobe nodule, suspicious; PET-CT advised. "
     "2. Emphysema."),
)
WARM_UP = "FINDINGS: The lungs are clear. No effusion. Normal heart size."


def structure_texts() -> list[tuple[str, str, str]]:
    """(label, exam, text) for the twelve example reports and the three PARROT-like ones."""
    from radscope.engine.io.examples import example_pairs

    out = []
    for example in example_pairs():
        pair = example.pair
        exam = " ".join(x for x in (pair.modality, pair.area) if x)
        out.append((f"{example.title} (reference)", exam, pair.reference))
        out.append((f"{example.title} (candidate)", exam, pair.candidate))
    out += [(f"PARROT-like {exam}", exam, text) for exam, text in PARROT_LIKE]
    return out


def cmd_structure_rules(args: argparse.Namespace) -> int:
    from radscope.engine.structured.rewrite import structure_by_rules

    structure_by_rules(WARM_UP)  # loads the lexicons once
    rows: list[dict[str, Any]] = []
    for label, exam, text in structure_texts():
        started, cpu = time.perf_counter(), time.process_time()
        result = structure_by_rules(text, exam)
        ms = (time.perf_counter() - started) * 1000
        cpu_ms = (time.process_time() - cpu) * 1000
        rows.append({"report": label, "ms": round(ms, 2), "cpu_ms": round(cpu_ms, 2),
                     "structured": result.to_json()})
        if not args.quiet:
            print(f"--- {label}: {ms:.1f} ms wall, {cpu_ms:.1f} ms CPU ({result.to_json()['model']})")
            print(result.report.to_text())
    times, cpu_times = [r["ms"] for r in rows], [r["cpu_ms"] for r in rows]
    print(f"rules rewrite: {len(rows)} reports, wall median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms; CPU median {statistics.median(cpu_times):.1f} ms, max "
          f"{max(cpu_times):.1f} ms (target < 50 ms each; wall time includes waiting for a "
          "busy machine's cores)")
    if args.out:
        dataio.write_json({"benchmark": "structure-rules", "rows": rows}, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("structure-rules", help="the rules rewrite of Structure report: layout "
                                               "and ms per report")
    p.add_argument("--out", help="JSON report path")
    p.add_argument("--quiet", action="store_true", help="print only the timing line")
    p.set_defaults(func=cmd_structure_rules)
