"""How often the readable-text check (engine.eligibility.readable) is wrong about the language.

``python -m bench language --parrot Fr_sample.csv --iu NLMCXR_reports.tgz
[--iu-test ReXRank_IUXray_test.json] [--out report.json]``

PARROT v0 holds French reports with their English translations: a French report called
English is a *missed refusal* (an English-only reader would score it), an English translation
called foreign is a *false refusal*. IU X-ray reports are all English: every refusal is false.
Each set is measured on whole reports (what the runner checks) and, as a harder test, on their
single sentences (``radscope.engine.io.reports.split_utterances``), where there is far less evidence.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from radscope.engine.eligibility.readable import guess_language
from radscope.engine.io import dataio
from radscope.engine.io.reports import split_utterances


def language_errors(texts: list[str], english: bool) -> dict[str, Any]:
    """Share of texts whose guess differs from the truth, with a few of them to look at."""
    texts = [t for t in texts if t.strip()]
    wrong = [t for t in texts if guess_language(t).english != english]
    return {"n": len(texts), "wrong": len(wrong),
            "error_rate": round(len(wrong) / len(texts), 4) if texts else None,
            "truth": "English" if english else "not English",
            "examples": [{"text": t[:160], "guess": guess_language(t).reason} for t in wrong[:5]],
            "texts": texts}


def _without_texts(figures: dict[str, Any]) -> dict[str, Any]:
    figures.pop("texts", None)
    return figures


def cmd_language(args: argparse.Namespace) -> int:
    report: dict[str, Any] = {"benchmark": "language", "sets": {}}
    if args.parrot and Path(args.parrot).exists():
        frame, _ = dataio.read_table(args.parrot)
        report["sets"]["parrot_french"] = language_errors(list(frame["Report"].dropna()), english=False)
        report["sets"]["parrot_english_translation"] = language_errors(
            list(frame["English translation"].dropna()), english=True)
    else:
        print(f"language: PARROT data not found at {args.parrot!r}; skipping that set")
    if args.iu and Path(args.iu).exists():
        from bench.quality.rules import read_iu_archive

        report["sets"]["iu_xray_archive"] = language_errors([r.text for r in read_iu_archive(args.iu)],
                                                            english=True)
    else:
        print(f"language: IU X-ray archive not found at {args.iu!r}; skipping that set")
    if args.iu_test and Path(args.iu_test).exists():
        data = json.loads(Path(args.iu_test).read_text(encoding="utf-8"))
        report["sets"]["iu_xray_test"] = language_errors(
            [rec.get("report") or "" for rec in data.values()], english=True)
    for name in list(report["sets"]):
        figures = report["sets"][name]
        report["sets"][f"{name}_sentences"] = _without_texts(language_errors(
            [u for text in figures.pop("texts") for u in split_utterances(text)],
            english=figures["truth"] == "English"))
    for name, figures in report["sets"].items():
        print(f"{name:<28} truth {figures['truth']:<12} n={figures['n']:<5} wrong={figures['wrong']:<4} "
              f"error rate {100 * (figures['error_rate'] or 0):.2f} %")
    if args.out:
        dataio.write_json(report, args.out)
        print(f"report written to {args.out}")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("language", help="errors of the English / not-English check (readable.py)")
    p.add_argument("--parrot", help="PARROT v0 Fr_sample.csv (French reports + English translations)")
    p.add_argument("--iu", help="IU X-ray NLMCXR_reports.tgz (English)")
    p.add_argument("--iu-test", help="IU X-ray ReXRank_IUXray_test.json (English)")
    p.add_argument("--out", help="JSON report to write")
    p.set_defaults(func=cmd_language)
